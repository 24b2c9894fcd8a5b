// The model: a plain-JSON graph of one protocol revision's schema.ts.
// Facts only (names, structure, optionality, literal values, value constraints);
// never prose. Every emitter reads this and nothing else.

export const MODEL_VERSION = 3;

export type PrimitiveName =
  "string" | "number" | "boolean" | "null" | "undefined" | "unknown" | "any" | "object" | "never";

export type LiteralValue = string | number | boolean;

export type TypeNode =
  | { kind: "primitive"; name: PrimitiveName }
  | { kind: "literal"; value: LiteralValue }
  /** A named declaration of the same model. */
  | { kind: "ref"; name: string }
  /** `typeof CONSTANT`, with the constant's value resolved. */
  | { kind: "typeof"; name: string; value: LiteralValue }
  | { kind: "array"; items: TypeNode }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] }
  | ObjectNode
  | { kind: "record"; key: TypeNode; value: TypeNode }
  | { kind: "omit"; type: TypeNode; keys: string[] };

export interface ObjectNode {
  kind: "object";
  properties: Property[];
  indexSignature?: IndexSignature;
}

export type TypeKind = TypeNode["kind"];
export type NodeOf<K extends TypeKind> = Extract<TypeNode, { kind: K }>;

/** Value-constraining JSDoc tags, as typescript-json-schema reads them. */
export interface Constraints {
  /** `@TJS-type`: the JSON type the spec's JSON Schema uses for this value. */
  jsonType?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  /** `@nullable`: the JSON Schema type also admits `null`. */
  nullable?: boolean;
}

/** Markers that describe a declaration or member without constraining values. */
export interface Markers {
  deprecated?: true;
  internal?: true;
}

export interface Property extends Markers {
  name: string;
  optional: boolean;
  type: TypeNode;
  constraints?: Constraints;
}

export interface IndexSignature {
  keyName: string;
  keyType: "string" | "number";
  type: TypeNode;
  constraints?: Constraints;
}

/** A property after inheritance, `Omit<>` and intersections are applied. */
export interface ResolvedProperty extends Property {
  /** The declaration the property comes from. */
  from: string;
}

export interface Shape {
  properties: ResolvedProperty[];
  indexSignature?: IndexSignature;
}

interface DeclarationBase extends Markers {
  name: string;
  /** 1-based line of the declaration in schema.ts. */
  line: number;
  /** `@category`, the spec's own grouping (a method name in backticks, or a topic). */
  category?: string;
  constraints?: Constraints;
  /** The full property set users see, for declarations whose type is an object shape. */
  resolved?: Shape;
}

export interface InterfaceDeclaration extends DeclarationBase {
  kind: "interface";
  extends: TypeNode[];
  properties: Property[];
  indexSignature?: IndexSignature;
}

export interface AliasDeclaration extends DeclarationBase {
  kind: "alias";
  type: TypeNode;
}

export type Declaration = InterfaceDeclaration | AliasDeclaration;

export interface Constant extends Markers {
  name: string;
  value: LiteralValue;
  line: number;
  category?: string;
}

export type Direction = "clientToServer" | "serverToClient";
export type Side = "client" | "server";

/** How a request reaches its receiver. */
export type Delivery =
  /** A JSON-RPC request of its own. */
  | "message"
  /** Embedded in a result that asks the caller for input (multi round-trip). */
  | "inputRequired";

/** How the result type of a request was found; see spec/method-inferences.json. */
export type ResultSource = "responseType" | "category" | "name" | "emptyDefault";

export interface CapabilityRef {
  /** Whose capabilities object gates the method. */
  side: Side;
  path: string[];
}

export interface MethodEntry {
  method: string;
  kind: "request" | "notification";
  direction: Direction;
  delivery: Delivery;
  /** The union in schema.ts that lists the message (e.g. `ClientRequest`). */
  union: string;
  /** The request or notification declaration. */
  type: string;
  params: { type: TypeNode; optional: boolean } | null;
  result?: TypeNode;
  resultSource?: ResultSource;
  capability: CapabilityRef | null;
}

/** The JSON-RPC envelope declarations of a revision; batches only where the revision has them. */
export interface Envelopes {
  /** The union of all JSON-RPC messages (`JSONRPCMessage`). */
  union: string;
  request: string;
  notification: string;
  resultResponse: string;
  errorResponse: string;
  batchRequest?: string;
  batchResponse?: string;
}

/** A field of a protocol message and the client or server state it carries (`protocolVersion`, `serverInfo`, …). */
export interface FieldBinding {
  field: string;
  state: string;
  required: boolean;
}

/**
 * The protocol's mechanics as this revision spells them; each part is present only where the
 * revision has it. From spec/method-inferences.json (`protocol`), checked against the schema.
 */
export interface Protocol {
  /** A connection starts with this request and notification (`initialize`). */
  handshake?: {
    request: string;
    notification: string;
    /** Requests a peer may send before the handshake completes. */
    allowedBefore: string[];
    params: FieldBinding[];
    result: FieldBinding[];
  };
  /** Stateless discovery instead of a handshake (`server/discover`). */
  discovery?: { request: string; result: FieldBinding[]; defaults: Record<string, LiteralValue> };
  /** Keys every request carries in `params._meta`. */
  requestMeta?: { type: string; fields: FieldBinding[] };
  /** Keys results may carry in `_meta`. */
  resultMeta?: { type: string; fields: FieldBinding[] };
  /** Fields every result carries, with the value of a plain, complete result. */
  resultDefaults?: { type: string; fields: { field: string; value: LiteralValue }[] };
  /** The result field saying what kind of result it is, and the kinds a client recognises. */
  resultTypes?: ResultTypes;
  /** A result that asks the caller for input and a retry (multi round-trip). */
  inputRequired?: {
    result: string;
    marker: { field: string; value: LiteralValue };
    requests: string;
    responses: string;
    state: string;
  };
  /** Requests that, when their params ask for a task, are answered with the task result instead. */
  taskAugmentation?: { params: string; fields: string[]; result: string; methods: string[] };
  /** Requests whose params take a cursor and whose results carry the next one. */
  pagination?: { cursor: string; next: string; methods: string[] };
  cancellation?: { method: string; directions: Direction[] };
  progress?: { method: string; directions: Direction[] };
  /** The error answered when a request's protocol version is not supported. */
  unsupportedVersion?: { constant: string; code: number; data: FieldBinding[] };
  /** The error answered when a request needs client capabilities it did not declare; `data` names them. */
  missingCapability?: { constant: string; code: number; data: string };
  /** How the revision travels over Streamable HTTP. */
  http?: HttpBinding;
  /**
   * Log notifications for a request go out only at or above the level the request carries in its
   * `_meta` (`state`), and not at all without one; `levels` from least to most severe.
   */
  requestLogging?: { notification: string; field: string; state: string; levels: string[] };
  /** Change notifications delivered on a long-lived request's stream (`subscriptions/listen`). */
  subscriptions?: Subscriptions;
  /** Results a client may cache (`ttlMs`, `cacheScope`). */
  caching?: Caching;
  /** Params fields (or values of them) that need a capability of the receiver beyond the method's own. */
  paramGates?: ParamGate[];
  /** Tool use inside sampling: how tool uses and their results are spelled and paired. */
  samplingTools?: SamplingTools;
  /** The scheme every root's URI starts with. */
  rootUris?: { request: string; list: string; uri: string; scheme: string };
  /** URL-mode elicitation whose completion the server announces by id. */
  urlElicitation?: UrlElicitation;
  /** Media blocks whose MIME type must be well formed, and the results that carry them. */
  contentMime?: ContentMime;
  /** How a task keeps its creating request's progress token until its terminal status. */
  taskProgress?: TaskProgress;
  /** The capabilities field whose keys are extension identifiers. */
  extensionIds?: ExtensionIds;
  /** How a server answers tool arguments that fail the tool's input schema, and an unknown resource. */
  serverErrors?: ServerErrors;
}

/**
 * A params field, or some of its values, that a request may carry only to a receiver that
 * declared `capability` (sampling's `tools` needs `sampling.tools`).
 */
export interface ParamGate {
  method: string;
  direction: Direction;
  field: string;
  /** Only these values need the capability; absent: any value does. */
  values?: LiteralValue[];
  /** The value a missing field stands for (a missing elicitation mode is form mode). */
  absentAs?: LiteralValue;
  capability: CapabilityRef;
  /** An empty object at the capability's parent declares it too (`elicitation: {}` is form mode). */
  impliedByEmpty?: boolean;
  /** The id in spec/protocol-rules.json a violation names. */
  rule: string;
}

/** Tool use inside sampling, as the sampling page constrains it. */
/** The capabilities field (on either side) mapping extension identifiers to their settings. */
export interface ExtensionIds {
  field: string;
}

export interface SamplingTools {
  request: string;
  /** Params field holding the messages; each message's field holding one content block or an array. */
  messages: string;
  content: string;
  /** The `type` literal of a tool use block and its id field. */
  use: { type: string; id: string };
  /** The `type` literal of a tool result block and the field naming the tool use it answers. */
  result: { type: string; id: string };
  /** The capability a request with tool content needs. */
  capability: CapabilityRef;
  /** The params field choosing how the model may use tools, its mode field and the modes forbidding and requiring tools. */
  toolChoice: { field: string; mode: string; none: string; required: string };
  /** The result field saying why the model stopped, and the value saying the token limit cut it off. */
  stopReason: { field: string; cutOff: string };
}

export interface ContentMime {
  /** The block's field holding the MIME type. */
  field: string;
  /** Request → the path of result fields leading to content (one block or an array). */
  results: Record<string, string[]>;
  /** The blocks' `type` literals, each with the rule id a malformed MIME type breaks. */
  blocks: { type: string; rule: string }[];
}

export interface TaskProgress {
  /** The created-task result's field holding the task. */
  created: string;
  id: string;
  status: string;
  /** Statuses after which the task is over. */
  terminal: string[];
  /** The notification reporting a task's status. */
  notification: string;
  /** Requests whose result is a task with its status. */
  results: string[];
}

export interface UrlElicitation {
  request: string;
  /** The params field and value that make an elicitation URL mode. */
  mode: { field: string; value: string };
  /** The params field carrying the elicitation's id, which the completion notification names too. */
  id: string;
  complete: string;
  /** The error whose data lists URL-mode elicitations a request needs first (their params). */
  requiredError?: { constant: string; code: number; data: string };
}

export interface ServerErrors {
  /** A tool result with `isError` set (`"toolResult"`), or a JSON-RPC error with `invalidParams`. */
  toolArguments: "toolResult" | "invalidParams";
  invalidParams: number;
  /** The JSON-RPC error code of a read of a resource the server does not have. */
  resourceNotFound: number;
}

/** A JSON-RPC error code the schema defines as a constant. */
export interface ErrorConstant {
  constant: string;
  code: number;
}

/**
 * Streamable HTTP as the revision's transport page describes it: sessions opened by the
 * handshake (2025-era), or stateless requests whose headers mirror the body (2026-07-28 on).
 */
export type HttpBinding =
  | { kind: "sessions"; handshake: string; primedStreams: boolean; batches: boolean }
  | {
      kind: "stateless";
      /** The `_meta` key carrying the protocol version, mirrored in MCP-Protocol-Version. */
      versionMeta: string;
      /** Method → the params field mirrored in the Mcp-Name header. */
      nameFields: Record<string, string>;
      headerMismatch: ErrorConstant;
      missingCapability: ErrorConstant;
      unsupportedVersion: ErrorConstant;
      /** The request that opens a 2025-era session on the same endpoint. */
      legacyHandshake: string;
      paramHeaders: ParamHeaders;
    };

/**
 * Tool arguments mirrored in `Mcp-Param-{name}` headers: a property of a tool's input schema
 * that carries the `annotation` keyword travels in the header it names.
 */
export interface ParamHeaders {
  annotation: string;
  /** The request listing the tools, its result field holding them, and each tool's input schema field. */
  list: string;
  items: string;
  schema: string;
  /** The call, and its params fields naming the tool and holding the arguments. */
  call: string;
  name: string;
  arguments: string;
}

/**
 * The kinds of result a client recognises: the literal members of the schema's type of the
 * results' kind field (an open union with string); any other value makes a result invalid.
 */
export interface ResultTypes {
  field: string;
  values: string[];
}

/** Results a client may keep and serve again while they are fresh (their type has both fields). */
export interface Caching {
  /** Result field: how long the result stays fresh, in ms. */
  ttl: string;
  /** Result field: who may be served the result; any value but `shared` keeps it to one identity. */
  scope: string;
  shared: string;
  /** How a result without the fields is read where they are required: its ttl and scope values. */
  absent: { ttl: number; scope: string };
  /** The requests whose results carry both fields. */
  methods: string[];
  /**
   * Notifications that make cached results stale: every result of `methods`, or with `match` only
   * those whose params field of that name equals the notification's.
   */
  invalidations: { notification: string; methods: string[]; match?: string }[];
}

export interface Subscriptions {
  request: string;
  /** The request's params field holding the filter. */
  filter: string;
  acknowledged: string;
  /** The `_meta` key tagging each notification with the request's id. */
  idMeta: string;
  /** Filter flag → the notification it opts in to. */
  flags: { field: string; notification: string }[];
  /** Filter list → the notification it opts in to, for values of the notification's `field`. */
  lists: { field: string; notification: string; match: string }[];
  /** The server ends a stream by cancelling its request with this notification, and cancels nothing else. */
  endedBy?: string;
}

export interface ModelSource {
  repository: string;
  commit: string;
  path: string;
  sha256: string;
}

export interface Model {
  modelVersion: number;
  revision: string;
  source: ModelSource;
  /** Conventions of the spec's own JSON Schema build that schema.ts does not state. */
  conventions: { numberType: "integer" | "number" };
  constants: Constant[];
  declarations: Declaration[];
  envelopes: Envelopes;
  methods: MethodEntry[];
  protocol: Protocol;
}

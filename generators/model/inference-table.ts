// The types of the reviewed table spec/method-inferences.json, owned here so that every pass
// reading it (method map, protocol, rule facts) imports them from one place and none from another
// pass. Keys follow the file's order.
import type { Delivery, Direction, LiteralValue, ParamHeaders } from "./model.js";

/** Field name → the client/server state it carries. */
export type Fields = Record<string, string>;

export interface MethodInferences {
  /** The union of every JSON-RPC message (see envelopes.ts). */
  messageUnion: string;
  unions: { union: string; kind: "request" | "notification"; direction: Direction; delivery: Delivery }[];
  /** Per direction, method → "side:path.to.capability", or null when nothing gates it. */
  capabilities: Record<Direction, Record<string, string | null>>;
  /** Method → params fields (or values) that need a capability beyond the method's own. */
  paramCapabilities: Record<string, ParamCapabilityEntry[]>;
  protocol: ProtocolTable;
}

export interface ParamCapabilityEntry {
  field: string;
  values?: LiteralValue[];
  absentAs?: LiteralValue;
  capability: string;
  impliedByEmpty?: boolean;
  rule: string;
}

/** How the protocol's mechanics, and the facts the protocol rules stand on, are spelled. */
export interface ProtocolTable {
  handshake: { request: string; notification: string; allowedBefore: string[]; params: Fields; result: Fields };
  discovery: { request: string; result: Fields; defaults: Record<string, LiteralValue> };
  requestMeta: { type: string; fields: Fields };
  resultMeta: { type: string; fields: Fields };
  resultDefaults: { type: string; fields: Record<string, LiteralValue> };
  resultTypes: { type: string; field: string };
  inputRequired: {
    result: string;
    marker: Record<string, LiteralValue>;
    requests: string;
    responses: string;
    state: string;
  };
  cancellation: string;
  progress: string;
  unsupportedVersion: { error: string; data: Fields };
  pagination: { cursor: string; next: string };
  taskAugmentation: { params: string; result: string };
  http: {
    sessions: { primedStreamsIn: string[] };
    stateless: { nameFields: Fields; headerMismatch: string; legacyHandshake: string; paramHeaders: ParamHeaders };
  };
  subscriptions: {
    request: string;
    filter: string;
    acknowledged: string;
    idMeta: string;
    flags: Fields;
    lists: Record<string, { notification: string; field: string }>;
    endedBy: string;
  };
  caching: {
    ttl: string;
    scope: string;
    shared: string;
    absent: { ttl: number; scope: string };
    invalidatedBy: Record<string, { methods: string[]; match?: string }>;
  };
  requestLogging: { notification: string; field: string; state: string };
  missingCapability: { error: string; data: string };
  samplingTools: {
    request: string;
    messages: string;
    content: string;
    use: { type: string; id: string };
    result: { type: string; id: string };
    capability: string;
    toolChoice: { field: string; mode: string; none: string; required: string };
    stopReason: { field: string; cutOff: string };
  };
  rootUris: { request: string; list: string; uri: string; scheme: string };
  urlElicitation: {
    request: string;
    mode: Record<string, string>;
    id: string;
    complete: string;
    requiredError: { error: string; data: string };
  };
  contentMime: {
    field: string;
    results: Record<string, string[]>;
    blocks: Record<string, string>;
  };
  taskProgress: {
    created: string;
    id: string;
    status: string;
    terminal: string[];
    notification: string;
    results: string[];
  };
  extensionIds: { capabilities: string[]; field: string };
  serverErrors: {
    invalidParams: string;
    toolArgumentsAsResultIn: string[];
    resourceNotFound: number;
    resourceNotFoundAsInvalidParamsIn: string[];
  };
}

// Pass: the protocol's mechanics as this revision spells them (handshake or discovery, the
// per-request `_meta` envelope, multi round-trip input, cancellation, progress), from the
// reviewed table in spec/method-inferences.json, and with rule-facts.ts's pieces the whole of
// the model's `protocol` part. An entry applies where its methods and types exist in the
// revision; a field it names that the revision lacks is an error, so the table stays true.
import { ModelError } from "./errors.js";
import type { Fields, ParamCapabilityEntry, ProtocolTable } from "./inference-table.js";
import {
  buildContentMime,
  buildExtensionIds,
  buildParamGates,
  buildResultTypes,
  buildRootUris,
  buildSamplingTools,
  buildTaskProgress,
  buildUrlElicitation,
  SchemaFacts,
} from "./rule-facts.js";
import type {
  Caching,
  Declaration,
  Direction,
  ErrorConstant,
  FieldBinding,
  HttpBinding,
  LiteralValue,
  MethodEntry,
  ParamHeaders,
  Protocol,
  Shape,
  Subscriptions,
  TypeNode,
} from "./model.js";

/** What else of the revision the protocol table is checked against. */
export interface RevisionFacts {
  revision: string;
  batches: boolean;
}

export function buildProtocol(
  declarations: Declaration[],
  methods: MethodEntry[],
  constants: { name: string; value: LiteralValue }[],
  table: ProtocolTable,
  facts: RevisionFacts,
  paramCapabilities: Record<string, ParamCapabilityEntry[]>,
): Protocol {
  const source = new ProtocolSource(declarations, methods, constants, table, facts);
  const { schema } = source;
  const protocol: Protocol = {};
  // In the model's key order; a piece may read the pieces before it.
  put(protocol, "handshake", handshake(source));
  put(protocol, "discovery", discovery(source));
  put(protocol, "requestMeta", meta(source, "requestMeta"));
  put(protocol, "resultMeta", meta(source, "resultMeta"));
  put(protocol, "resultDefaults", resultDefaults(source));
  put(protocol, "inputRequired", inputRequired(source));
  put(protocol, "pagination", pagination(source));
  put(protocol, "taskAugmentation", taskAugmentation(source));
  put(protocol, "cancellation", notified(source, "cancellation"));
  put(protocol, "progress", notified(source, "progress"));
  put(protocol, "unsupportedVersion", unsupportedVersion(source));
  put(protocol, "missingCapability", missingCapability(source));
  put(protocol, "http", http(source, protocol));
  put(protocol, "requestLogging", requestLogging(source, protocol));
  put(protocol, "subscriptions", subscriptions(source));
  put(protocol, "caching", caching(source));
  put(protocol, "paramGates", paramGates(schema, paramCapabilities));
  put(protocol, "samplingTools", buildSamplingTools(schema, table.samplingTools));
  put(protocol, "rootUris", buildRootUris(schema, table.rootUris));
  put(protocol, "urlElicitation", buildUrlElicitation(schema, table.urlElicitation));
  put(protocol, "contentMime", buildContentMime(schema, table.contentMime));
  put(protocol, "taskProgress", buildTaskProgress(schema, table.taskProgress, protocol.taskAugmentation?.result));
  put(protocol, "extensionIds", buildExtensionIds(schema, table.extensionIds));
  put(protocol, "resultTypes", buildResultTypes(schema, table.resultTypes, namedResultKinds(protocol)));
  put(protocol, "serverErrors", serverErrors(source));
  return protocol;
}

/** Sets a piece the revision has; one it lacks stays absent from the model. */
function put<K extends keyof Protocol>(protocol: Protocol, key: K, piece: Protocol[K] | undefined): void {
  if (piece !== undefined) protocol[key] = piece;
}

/** What the pieces are read from: the revision's declarations, methods and constants, and the table. */
class ProtocolSource {
  readonly byName: Map<string, Declaration>;
  readonly schema: SchemaFacts;

  constructor(
    declarations: Declaration[],
    readonly methods: MethodEntry[],
    readonly constants: { name: string; value: LiteralValue }[],
    readonly table: ProtocolTable,
    readonly facts: RevisionFacts,
  ) {
    this.byName = new Map(declarations.map((d) => [d.name, d]));
    this.schema = new SchemaFacts(declarations, methods, constants);
  }

  /** The object shape of a named type or an inline object type. */
  shapeOf(node: TypeNode | undefined): Shape | undefined {
    if (!node) return undefined;
    if (node.kind === "ref") return this.byName.get(node.name)?.resolved;
    if (node.kind === "object") return { properties: node.properties.map((p) => ({ ...p, from: "" })) };
    return undefined;
  }

  /** The table's fields as the shape has them; a field it lacks is an error, or left out when not `strict`. */
  bind(shape: Shape | undefined, fields: Fields, where: string, strict = true): FieldBinding[] {
    return Object.entries(fields).flatMap(([field, state]) => {
      const property = shape?.properties.find((p) => p.name === field);
      if (!property) {
        if (strict) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${field}`);
        return [];
      }
      return [{ field, state, required: !property.optional }];
    });
  }

  /** The message a client sends by this name. */
  request(method: string): MethodEntry | undefined {
    return this.methods.find((m) => m.method === method && m.direction === "clientToServer");
  }

  /** The notification a server sends by this name. */
  serverNotification(method: string): MethodEntry | undefined {
    return this.methods.find(
      (m) => m.method === method && m.kind === "notification" && m.direction === "serverToClient",
    );
  }

  /** The directions the notification travels in; none where the revision lacks it. */
  directions(method: string): Direction[] {
    return this.methods.filter((m) => m.method === method && m.kind === "notification").map((m) => m.direction);
  }

  /** A constant the table names as an error code: it must exist and be a number. */
  errorConstant(name: string): ErrorConstant {
    const found = this.constants.find((c) => c.name === name);
    if (typeof found?.value !== "number")
      throw new ModelError(`spec/method-inferences.json: no numeric constant ${name}`);
    return { constant: name, code: found.value };
  }
}

/** The handshake, where clients send both its request and its notification. */
function handshake(source: ProtocolSource): Protocol["handshake"] {
  const hs = source.table.handshake;
  const request = source.request(hs.request);
  if (!request || !source.directions(hs.notification).includes("clientToServer")) return undefined;
  return {
    request: hs.request,
    notification: hs.notification,
    allowedBefore: hs.allowedBefore.filter((m) => source.request(m)),
    params: source.bind(source.shapeOf(request.params?.type), hs.params, `${hs.request} params`),
    result: source.bind(source.shapeOf(request.result), hs.result, `${hs.request} result`),
  };
}

/** Stateless discovery, where clients send its request. */
function discovery(source: ProtocolSource): Protocol["discovery"] {
  const table = source.table.discovery;
  const request = source.request(table.request);
  if (!request) return undefined;
  return {
    request: table.request,
    result: source.bind(source.shapeOf(request.result), table.result, `${table.request} result`),
    defaults: table.defaults,
  };
}

/** The `_meta` keys of requests or of results, where the revision declares them. */
function meta(source: ProtocolSource, key: "requestMeta" | "resultMeta"): Protocol[typeof key] {
  const entry = source.table[key];
  const decl = source.byName.get(entry.type);
  if (!decl) return undefined;
  // Only the keys this revision defines: earlier revisions had fewer.
  return { type: entry.type, fields: source.bind(decl.resolved, entry.fields, entry.type, false) };
}

/** The defaults of the result fields the revision has. */
function resultDefaults(source: ProtocolSource): Protocol["resultDefaults"] {
  const table = source.table.resultDefaults;
  const result = source.byName.get(table.type)?.resolved;
  const defaults = Object.entries(table.fields).filter(([field]) => result?.properties.some((p) => p.name === field));
  if (defaults.length === 0) return undefined;
  return { type: table.type, fields: defaults.map(([field, value]) => ({ field, value })) };
}

/** Multi round-trip input, where the revision declares its result; some request params must carry the responses. */
function inputRequired(source: ProtocolSource): Protocol["inputRequired"] {
  const ir = source.table.inputRequired;
  const decl = source.byName.get(ir.result);
  if (!decl) return undefined;
  const [markerField, markerValue] = Object.entries(ir.marker)[0] ?? [];
  if (markerField === undefined || markerValue === undefined) throw new ModelError("inputRequired needs a marker");
  source.bind(
    decl.resolved,
    { [ir.requests]: "inputRequests", [ir.state]: "requestState", [markerField]: "marker" },
    ir.result,
  );
  const retried = source.methods.some((m) =>
    source.shapeOf(m.params?.type)?.properties.some((p) => p.name === ir.responses),
  );
  if (!retried) throw new ModelError(`spec/method-inferences.json: no request params carry ${ir.responses}`);
  return {
    result: ir.result,
    marker: { field: markerField, value: markerValue },
    requests: ir.requests,
    responses: ir.responses,
    state: ir.state,
  };
}

/** The requests whose params take a cursor and whose results carry the next one. */
function pagination(source: ProtocolSource): Protocol["pagination"] {
  const { cursor, next } = source.table.pagination;
  const paginated = source.methods.filter(
    (m) =>
      m.kind === "request" &&
      source.shapeOf(m.params?.type)?.properties.some((p) => p.name === cursor) &&
      source.shapeOf(m.result)?.properties.some((p) => p.name === next),
  );
  if (paginated.length === 0) return undefined;
  return { cursor, next, methods: [...new Set(paginated.map((m) => m.method))] };
}

/** A request whose params take the task fields may be answered with a task instead of its result. */
function taskAugmentation(source: ProtocolSource): Protocol["taskAugmentation"] {
  const tasks = source.table.taskAugmentation;
  const paramsDecl = source.byName.get(tasks.params);
  if (!paramsDecl || !source.byName.has(tasks.result)) return undefined;
  const shapes = (node: TypeNode | undefined): Shape[] => {
    const decl = node?.kind === "ref" ? source.byName.get(node.name) : undefined;
    if (decl?.kind === "alias" && decl.type.kind === "union") return decl.type.members.flatMap(shapes);
    const shape = source.shapeOf(node);
    return shape ? [shape] : [];
  };
  const augmented = source.methods.filter(
    (m) =>
      m.kind === "request" && shapes(m.params?.type).some((s) => s.properties.some((p) => p.from === tasks.params)),
  );
  return {
    params: tasks.params,
    // The fields that declaration adds (`task`): present in a request, they ask for a task.
    fields: paramsDecl.kind === "interface" ? paramsDecl.properties.map((p) => p.name) : [],
    result: tasks.result,
    methods: [...new Set(augmented.map((m) => m.method))],
  };
}

/** Cancellation or progress: the directions its notification travels in, where the revision has it. */
function notified(source: ProtocolSource, key: "cancellation" | "progress"): Protocol[typeof key] {
  const method = source.table[key];
  const directions = source.directions(method);
  return directions.length > 0 ? { method, directions } : undefined;
}

/** The error for an unsupported protocol version, where the revision has its constant. */
function unsupportedVersion(source: ProtocolSource): Protocol["unsupportedVersion"] {
  const table = source.table.unsupportedVersion;
  const found = source.constants.find((c) => c.name === table.error);
  if (!found || typeof found.value !== "number") return undefined;
  return {
    constant: found.name,
    code: found.value,
    data: Object.entries(table.data).map(([field, state]) => ({ field, state, required: true })),
  };
}

/** The error for capabilities a request needs and the client did not declare, where the revision has its constant. */
function missingCapability(source: ProtocolSource): Protocol["missingCapability"] {
  const table = source.table.missingCapability;
  const found = source.constants.find((c) => c.name === table.error);
  if (!found || typeof found.value !== "number") return undefined;
  return { constant: found.name, code: found.value, data: table.data };
}

/** Sessions where the handshake opens them; stateless where requests carry the `_meta` envelope. */
function http(source: ProtocolSource, protocol: Protocol): HttpBinding | undefined {
  const table = source.table.http;
  if (protocol.handshake) {
    return {
      kind: "sessions",
      handshake: protocol.handshake.request,
      primedStreams: table.sessions.primedStreamsIn.includes(source.facts.revision),
      batches: source.facts.batches,
    };
  }
  const version = protocol.requestMeta?.fields.find((f) => f.state === "protocolVersion");
  if (!version || !protocol.unsupportedVersion || !protocol.missingCapability) return undefined;
  const nameFields: Record<string, string> = {};
  for (const [method, field] of Object.entries(table.stateless.nameFields)) {
    const entry = source.request(method);
    if (!entry) continue;
    if (!source.shapeOf(entry.params?.type)?.properties.some((p) => p.name === field))
      throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${field}`);
    nameFields[method] = field;
  }
  return {
    kind: "stateless",
    versionMeta: version.field,
    nameFields,
    headerMismatch: source.errorConstant(table.stateless.headerMismatch),
    missingCapability: { constant: protocol.missingCapability.constant, code: protocol.missingCapability.code },
    unsupportedVersion: { constant: protocol.unsupportedVersion.constant, code: protocol.unsupportedVersion.code },
    legacyHandshake: table.stateless.legacyHandshake,
    paramHeaders: checkParamHeaders(source, table.stateless.paramHeaders),
  };
}

/** The param-headers entry, once the fields it names are found in the listing and the call. */
function checkParamHeaders(source: ProtocolSource, entry: ParamHeaders): ParamHeaders {
  const field = (shape: Shape | undefined, name: string, where: string) => {
    const found = shape?.properties.find((p) => p.name === name);
    if (!found) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${name}`);
    return found.type;
  };
  const listed = field(source.shapeOf(source.request(entry.list)?.result), entry.items, `the ${entry.list} result`);
  field(source.shapeOf(listed.kind === "array" ? listed.items : undefined), entry.schema, `an item of ${entry.items}`);
  const call = source.shapeOf(source.request(entry.call)?.params?.type);
  field(call, entry.name, `${entry.call} params`);
  field(call, entry.arguments, `${entry.call} params`);
  const { annotation, list, items, schema, name } = entry;
  return { annotation, list, items, schema, call: entry.call, name, arguments: entry.arguments };
}

/** Log notifications gated by the level a request carries in `_meta`, where requests carry one. */
function requestLogging(source: ProtocolSource, protocol: Protocol): Protocol["requestLogging"] {
  const table = source.table.requestLogging;
  if (!protocol.requestMeta?.fields.some((f) => f.state === table.state)) return undefined;
  const entry = source.methods.find((m) => m.method === table.notification && m.direction === "serverToClient");
  const level = source.shapeOf(entry?.params?.type)?.properties.find((p) => p.name === table.field)?.type;
  const alias = level?.kind === "ref" ? source.byName.get(level.name) : undefined;
  const members = alias?.kind === "alias" && alias.type.kind === "union" ? alias.type.members : [];
  const levels = members.flatMap((m) => (m.kind === "literal" && typeof m.value === "string" ? [m.value] : []));
  if (levels.length === 0 || levels.length !== members.length)
    throw new ModelError(
      `spec/method-inferences.json: ${table.notification} ${table.field} is not a union of string literals`,
    );
  return { notification: table.notification, field: table.field, state: table.state, levels };
}

/** Change notifications on a long-lived request's stream, where clients send that request. */
function subscriptions(source: ProtocolSource): Subscriptions | undefined {
  const table = source.table.subscriptions;
  const listen = source.request(table.request);
  if (!listen) return undefined;
  const notification = (method: string) => {
    const found = source.serverNotification(method);
    if (!found)
      throw new ModelError(`spec/method-inferences.json: subscriptions name ${method}, which servers do not send`);
    return found;
  };
  notification(table.acknowledged);
  const params = listen.params?.type.kind === "ref" ? source.byName.get(listen.params.type.name)?.resolved : undefined;
  const filterType = params?.properties.find((p) => p.name === table.filter)?.type;
  const filter = filterType?.kind === "ref" ? source.byName.get(filterType.name)?.resolved : undefined;
  if (!filter)
    throw new ModelError(`spec/method-inferences.json: ${table.request} params have no ${table.filter} object`);
  const has = (field: string) => {
    if (!filter.properties.some((p) => p.name === field))
      throw new ModelError(`spec/method-inferences.json: the ${table.request} filter has no field ${field}`);
  };
  const flags = Object.entries(table.flags).map(([field, method]) => {
    has(field);
    notification(method);
    return { field, notification: method };
  });
  const lists = Object.entries(table.lists).map(([field, { notification: method, field: match }]) => {
    has(field);
    const entry = notification(method);
    const shape = entry.params?.type.kind === "ref" ? source.byName.get(entry.params.type.name)?.resolved : undefined;
    if (!shape?.properties.some((p) => p.name === match))
      throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${match}`);
    return { field, notification: method, match };
  });
  return {
    request: table.request,
    filter: table.filter,
    acknowledged: table.acknowledged,
    idMeta: table.idMeta,
    flags,
    lists,
    // Where the server may send the cancellation notification at all.
    ...(source.serverNotification(table.endedBy) ? { endedBy: table.endedBy } : {}),
  };
}

/**
 * Cacheable results: the requests whose result type (or its complete member) has both the ttl
 * and the scope field, and the notifications that make them stale. Absent where no result has them.
 */
function caching(source: ProtocolSource): Caching | undefined {
  const table = source.table.caching;
  const has = (shape: Shape | undefined, name: string) => shape?.properties.some((p) => p.name === name) ?? false;
  // A result that may instead ask for input is a union: its complete member carries the fields.
  const results = (node: TypeNode | undefined) =>
    (node?.kind === "union" ? node.members : [node]).map((n) => source.shapeOf(n));
  const cacheable = source.methods.filter(
    (m) =>
      m.kind === "request" &&
      m.direction === "clientToServer" &&
      results(m.result).some((shape) => has(shape, table.ttl) && has(shape, table.scope)),
  );
  if (cacheable.length === 0) return undefined;
  const names = cacheable.map((m) => m.method);
  const invalidations = Object.entries(table.invalidatedBy).map(([notification, { methods: stale, match }]) => {
    const sent = source.serverNotification(notification);
    if (!sent)
      throw new ModelError(`spec/method-inferences.json: caching names ${notification}, which servers do not send`);
    for (const method of stale) {
      if (!names.includes(method))
        throw new ModelError(
          `spec/method-inferences.json: ${notification} invalidates ${method}, whose result is not cacheable`,
        );
      if (match !== undefined && !has(source.shapeOf(source.request(method)?.params?.type), match))
        throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${match}`);
    }
    if (match !== undefined && !has(source.shapeOf(sent.params?.type), match))
      throw new ModelError(`spec/method-inferences.json: ${notification} params have no field ${match}`);
    return match === undefined ? { notification, methods: stale } : { notification, methods: stale, match };
  });
  const absent = { ttl: table.absent.ttl, scope: table.absent.scope };
  return { ttl: table.ttl, scope: table.scope, shared: table.shared, absent, methods: names, invalidations };
}

/** The params gates the revision has; absent where it has none. */
function paramGates(schema: SchemaFacts, table: Record<string, ParamCapabilityEntry[]>): Protocol["paramGates"] {
  const gates = buildParamGates(schema, table);
  return gates.length > 0 ? gates : undefined;
}

/** The result kinds other pieces name, which the revision's result types must admit. */
function namedResultKinds(protocol: Protocol): { field: string; value: LiteralValue }[] {
  return [
    ...(protocol.resultDefaults?.fields ?? []),
    ...(protocol.inputRequired ? [protocol.inputRequired.marker] : []),
  ];
}

/** How a server answers tool arguments that fail their schema, and an unknown resource, in this revision. */
function serverErrors(source: ProtocolSource): Protocol["serverErrors"] {
  const errors = source.table.serverErrors;
  const { code: invalidParams } = source.errorConstant(errors.invalidParams);
  const { revision } = source.facts;
  return {
    toolArguments: errors.toolArgumentsAsResultIn.includes(revision) ? "toolResult" : "invalidParams",
    invalidParams,
    resourceNotFound: errors.resourceNotFoundAsInvalidParamsIn.includes(revision)
      ? invalidParams
      : errors.resourceNotFound,
  };
}

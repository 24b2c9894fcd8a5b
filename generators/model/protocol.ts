// Pass: the protocol's mechanics as this revision spells them (handshake or discovery, the
// per-request `_meta` envelope, multi round-trip input, cancellation, progress), from the
// reviewed table in spec/method-inferences.json. An entry applies where its methods and
// types exist in the revision; a field it names that the revision lacks is an error, so
// the table stays true.
import { ModelError } from "./errors.js";
import type { ParamCapabilityEntry } from "./method-map.js";
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
  type RuleFactsTable,
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

type Fields = Record<string, string>;

export interface ProtocolTable extends RuleFactsTable {
  handshake: { request: string; notification: string; allowedBefore: string[]; params: Fields; result: Fields };
  discovery: { request: string; result: Fields; defaults: Record<string, LiteralValue> };
  requestMeta: { type: string; fields: Fields };
  resultMeta: { type: string; fields: Fields };
  resultDefaults: { type: string; fields: Record<string, LiteralValue> };
  inputRequired: {
    result: string;
    marker: Record<string, LiteralValue>;
    requests: string;
    responses: string;
    state: string;
  };
  pagination: { cursor: string; next: string };
  taskAugmentation: { params: string; result: string };
  cancellation: string;
  progress: string;
  unsupportedVersion: { error: string; data: Fields };
  http: {
    sessions: { primedStreamsIn: string[] };
    stateless: { nameFields: Fields; headerMismatch: string; legacyHandshake: string; paramHeaders: ParamHeaders };
  };
  requestLogging: { notification: string; field: string; state: string };
  missingCapability: { error: string; data: string };
  serverErrors: {
    invalidParams: string;
    toolArgumentsAsResultIn: string[];
    resourceNotFound: number;
    resourceNotFoundAsInvalidParamsIn: string[];
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
}

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
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const shapeOf = (node: TypeNode | undefined): Shape | undefined => {
    if (!node) return undefined;
    if (node.kind === "ref") return byName.get(node.name)?.resolved;
    if (node.kind === "object") return { properties: node.properties.map((p) => ({ ...p, from: "" })) };
    return undefined;
  };
  const bind = (shape: Shape | undefined, fields: Fields, where: string, strict = true): FieldBinding[] =>
    Object.entries(fields).flatMap(([field, state]) => {
      const property = shape?.properties.find((p) => p.name === field);
      if (!property) {
        if (strict) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${field}`);
        return [];
      }
      return [{ field, state, required: !property.optional }];
    });
  const request = (method: string) => methods.find((m) => m.method === method && m.direction === "clientToServer");
  const directions = (method: string): Direction[] =>
    methods.filter((m) => m.method === method && m.kind === "notification").map((m) => m.direction);

  const protocol: Protocol = {};
  const hs = table.handshake;
  const hsRequest = request(hs.request);
  if (hsRequest && directions(hs.notification).includes("clientToServer")) {
    protocol.handshake = {
      request: hs.request,
      notification: hs.notification,
      allowedBefore: hs.allowedBefore.filter((m) => request(m)),
      params: bind(shapeOf(hsRequest.params?.type), hs.params, `${hs.request} params`),
      result: bind(shapeOf(hsRequest.result), hs.result, `${hs.request} result`),
    };
  }
  const discover = request(table.discovery.request);
  if (discover) {
    protocol.discovery = {
      request: table.discovery.request,
      result: bind(shapeOf(discover.result), table.discovery.result, `${table.discovery.request} result`),
      defaults: table.discovery.defaults,
    };
  }
  for (const key of ["requestMeta", "resultMeta"] as const) {
    const entry = table[key];
    const decl = byName.get(entry.type);
    // Only the keys this revision defines: earlier revisions had fewer.
    if (decl) protocol[key] = { type: entry.type, fields: bind(decl.resolved, entry.fields, entry.type, false) };
  }
  const result = byName.get(table.resultDefaults.type)?.resolved;
  const defaults = Object.entries(table.resultDefaults.fields).filter(([field]) =>
    result?.properties.some((p) => p.name === field),
  );
  if (defaults.length > 0) {
    protocol.resultDefaults = {
      type: table.resultDefaults.type,
      fields: defaults.map(([field, value]) => ({ field, value })),
    };
  }
  const ir = table.inputRequired;
  const irDecl = byName.get(ir.result);
  if (irDecl) {
    const [markerField, markerValue] = Object.entries(ir.marker)[0] ?? [];
    if (markerField === undefined || markerValue === undefined) throw new ModelError("inputRequired needs a marker");
    bind(
      irDecl.resolved,
      { [ir.requests]: "inputRequests", [ir.state]: "requestState", [markerField]: "marker" },
      ir.result,
    );
    const retried = methods.some((m) => shapeOf(m.params?.type)?.properties.some((p) => p.name === ir.responses));
    if (!retried) throw new ModelError(`spec/method-inferences.json: no request params carry ${ir.responses}`);
    protocol.inputRequired = {
      result: ir.result,
      marker: { field: markerField, value: markerValue },
      requests: ir.requests,
      responses: ir.responses,
      state: ir.state,
    };
  }
  const { cursor, next } = table.pagination;
  const paginated = methods.filter(
    (m) =>
      m.kind === "request" &&
      shapeOf(m.params?.type)?.properties.some((p) => p.name === cursor) &&
      shapeOf(m.result)?.properties.some((p) => p.name === next),
  );
  if (paginated.length > 0) {
    protocol.pagination = { cursor, next, methods: [...new Set(paginated.map((m) => m.method))] };
  }
  const tasks = table.taskAugmentation;
  if (byName.has(tasks.params) && byName.has(tasks.result)) {
    // A request whose params take the task fields may be answered with a task instead of its result.
    const shapes = (node: TypeNode | undefined): Shape[] => {
      const decl = node?.kind === "ref" ? byName.get(node.name) : undefined;
      if (decl?.kind === "alias" && decl.type.kind === "union") return decl.type.members.flatMap(shapes);
      const shape = shapeOf(node);
      return shape ? [shape] : [];
    };
    const augmented = methods.filter(
      (m) =>
        m.kind === "request" && shapes(m.params?.type).some((s) => s.properties.some((p) => p.from === tasks.params)),
    );
    const paramsDecl = byName.get(tasks.params);
    protocol.taskAugmentation = {
      params: tasks.params,
      // The fields that declaration adds (`task`): present in a request, they ask for a task.
      fields: paramsDecl?.kind === "interface" ? paramsDecl.properties.map((p) => p.name) : [],
      result: tasks.result,
      methods: [...new Set(augmented.map((m) => m.method))],
    };
  }
  for (const key of ["cancellation", "progress"] as const) {
    const found = directions(table[key]);
    if (found.length > 0) protocol[key] = { method: table[key], directions: found };
  }
  const unsupported = constants.find((c) => c.name === table.unsupportedVersion.error);
  if (unsupported && typeof unsupported.value === "number") {
    protocol.unsupportedVersion = {
      constant: unsupported.name,
      code: unsupported.value,
      data: Object.entries(table.unsupportedVersion.data).map(([field, state]) => ({ field, state, required: true })),
    };
  }
  const missing = constants.find((c) => c.name === table.missingCapability.error);
  if (missing && typeof missing.value === "number") {
    protocol.missingCapability = { constant: missing.name, code: missing.value, data: table.missingCapability.data };
  }
  const http = buildHttp(protocol, table.http, facts, constants, request, shapeOf);
  if (http) protocol.http = http;
  const logging = buildRequestLogging(protocol, table.requestLogging, methods, byName, shapeOf);
  if (logging) protocol.requestLogging = logging;
  const subscriptions = buildSubscriptions(table.subscriptions, methods, byName, request);
  if (subscriptions) protocol.subscriptions = subscriptions;
  const caching = buildCaching(table.caching, methods, shapeOf, request);
  if (caching) protocol.caching = caching;
  const schema = new SchemaFacts(declarations, methods, constants);
  const gates = buildParamGates(schema, paramCapabilities);
  if (gates.length > 0) protocol.paramGates = gates;
  const samplingTools = buildSamplingTools(schema, table.samplingTools);
  if (samplingTools) protocol.samplingTools = samplingTools;
  const rootUris = buildRootUris(schema, table.rootUris);
  if (rootUris) protocol.rootUris = rootUris;
  const urlElicitation = buildUrlElicitation(schema, table.urlElicitation);
  if (urlElicitation) protocol.urlElicitation = urlElicitation;
  const contentMime = buildContentMime(schema, table.contentMime);
  if (contentMime) protocol.contentMime = contentMime;
  const taskProgress = buildTaskProgress(schema, table.taskProgress, protocol.taskAugmentation?.result);
  if (taskProgress) protocol.taskProgress = taskProgress;
  const extensionIds = buildExtensionIds(schema, table.extensionIds);
  if (extensionIds) protocol.extensionIds = extensionIds;
  const resultTypes = buildResultTypes(schema, table.resultTypes, [
    ...(protocol.resultDefaults?.fields ?? []),
    ...(protocol.inputRequired ? [protocol.inputRequired.marker] : []),
  ]);
  if (resultTypes) protocol.resultTypes = resultTypes;
  const errors = table.serverErrors;
  const invalidParams = constants.find((c) => c.name === errors.invalidParams)?.value;
  if (typeof invalidParams !== "number")
    throw new ModelError(`spec/method-inferences.json: no numeric constant ${errors.invalidParams}`);
  protocol.serverErrors = {
    toolArguments: errors.toolArgumentsAsResultIn.includes(facts.revision) ? "toolResult" : "invalidParams",
    invalidParams,
    resourceNotFound: errors.resourceNotFoundAsInvalidParamsIn.includes(facts.revision)
      ? invalidParams
      : errors.resourceNotFound,
  };
  return protocol;
}

/** Sessions where the handshake opens them; stateless where requests carry the `_meta` envelope. */
function buildHttp(
  protocol: Protocol,
  table: ProtocolTable["http"],
  facts: RevisionFacts,
  constants: { name: string; value: LiteralValue }[],
  request: (method: string) => MethodEntry | undefined,
  shapeOf: (node: TypeNode | undefined) => Shape | undefined,
): HttpBinding | undefined {
  if (protocol.handshake) {
    return {
      kind: "sessions",
      handshake: protocol.handshake.request,
      primedStreams: table.sessions.primedStreamsIn.includes(facts.revision),
      batches: facts.batches,
    };
  }
  const version = protocol.requestMeta?.fields.find((f) => f.state === "protocolVersion");
  if (!version || !protocol.unsupportedVersion || !protocol.missingCapability) return undefined;
  const constant = (name: string): ErrorConstant => {
    const found = constants.find((c) => c.name === name);
    if (typeof found?.value !== "number")
      throw new ModelError(`spec/method-inferences.json: no numeric constant ${name}`);
    return { constant: name, code: found.value };
  };
  const nameFields: Record<string, string> = {};
  for (const [method, field] of Object.entries(table.stateless.nameFields)) {
    const entry = request(method);
    if (!entry) continue;
    if (!shapeOf(entry.params?.type)?.properties.some((p) => p.name === field))
      throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${field}`);
    nameFields[method] = field;
  }
  return {
    kind: "stateless",
    versionMeta: version.field,
    nameFields,
    headerMismatch: constant(table.stateless.headerMismatch),
    missingCapability: { constant: protocol.missingCapability.constant, code: protocol.missingCapability.code },
    unsupportedVersion: { constant: protocol.unsupportedVersion.constant, code: protocol.unsupportedVersion.code },
    legacyHandshake: table.stateless.legacyHandshake,
    paramHeaders: checkParamHeaders(table.stateless.paramHeaders, request, shapeOf),
  };
}

/** The param-headers entry, once the fields it names are found in the listing and the call. */
function checkParamHeaders(
  entry: ParamHeaders,
  request: (method: string) => MethodEntry | undefined,
  shapeOf: (node: TypeNode | undefined) => Shape | undefined,
): ParamHeaders {
  const field = (shape: Shape | undefined, name: string, where: string) => {
    const found = shape?.properties.find((p) => p.name === name);
    if (!found) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${name}`);
    return found.type;
  };
  const listed = field(shapeOf(request(entry.list)?.result), entry.items, `the ${entry.list} result`);
  field(shapeOf(listed.kind === "array" ? listed.items : undefined), entry.schema, `an item of ${entry.items}`);
  const call = shapeOf(request(entry.call)?.params?.type);
  field(call, entry.name, `${entry.call} params`);
  field(call, entry.arguments, `${entry.call} params`);
  const { annotation, list, items, schema, name } = entry;
  return { annotation, list, items, schema, call: entry.call, name, arguments: entry.arguments };
}

/**
 * Cacheable results: the requests whose result type (or its complete member) has both the ttl
 * and the scope field, and the notifications that make them stale. Absent where no result has them.
 */
function buildCaching(
  table: ProtocolTable["caching"],
  methods: MethodEntry[],
  shapeOf: (node: TypeNode | undefined) => Shape | undefined,
  request: (method: string) => MethodEntry | undefined,
): Caching | undefined {
  const has = (shape: Shape | undefined, name: string) => shape?.properties.some((p) => p.name === name) ?? false;
  // A result that may instead ask for input is a union: its complete member carries the fields.
  const results = (node: TypeNode | undefined) => (node?.kind === "union" ? node.members : [node]).map(shapeOf);
  const cacheable = methods.filter(
    (m) =>
      m.kind === "request" &&
      m.direction === "clientToServer" &&
      results(m.result).some((shape) => has(shape, table.ttl) && has(shape, table.scope)),
  );
  if (cacheable.length === 0) return undefined;
  const names = cacheable.map((m) => m.method);
  const invalidations = Object.entries(table.invalidatedBy).map(([notification, { methods: stale, match }]) => {
    const sent = methods.find(
      (m) => m.method === notification && m.kind === "notification" && m.direction === "serverToClient",
    );
    if (!sent)
      throw new ModelError(`spec/method-inferences.json: caching names ${notification}, which servers do not send`);
    for (const method of stale) {
      if (!names.includes(method))
        throw new ModelError(
          `spec/method-inferences.json: ${notification} invalidates ${method}, whose result is not cacheable`,
        );
      if (match !== undefined && !has(shapeOf(request(method)?.params?.type), match))
        throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${match}`);
    }
    if (match !== undefined && !has(shapeOf(sent.params?.type), match))
      throw new ModelError(`spec/method-inferences.json: ${notification} params have no field ${match}`);
    return match === undefined ? { notification, methods: stale } : { notification, methods: stale, match };
  });
  const absent = { ttl: table.absent.ttl, scope: table.absent.scope };
  return { ttl: table.ttl, scope: table.scope, shared: table.shared, absent, methods: names, invalidations };
}

/** Log notifications gated by the level a request carries in `_meta`, where requests carry one. */
function buildRequestLogging(
  protocol: Protocol,
  table: ProtocolTable["requestLogging"],
  methods: MethodEntry[],
  byName: Map<string, Declaration>,
  shapeOf: (node: TypeNode | undefined) => Shape | undefined,
): Protocol["requestLogging"] {
  if (!protocol.requestMeta?.fields.some((f) => f.state === table.state)) return undefined;
  const entry = methods.find((m) => m.method === table.notification && m.direction === "serverToClient");
  const level = shapeOf(entry?.params?.type)?.properties.find((p) => p.name === table.field)?.type;
  const alias = level?.kind === "ref" ? byName.get(level.name) : undefined;
  const members = alias?.kind === "alias" && alias.type.kind === "union" ? alias.type.members : [];
  const levels = members.flatMap((m) => (m.kind === "literal" && typeof m.value === "string" ? [m.value] : []));
  if (levels.length === 0 || levels.length !== members.length)
    throw new ModelError(
      `spec/method-inferences.json: ${table.notification} ${table.field} is not a union of string literals`,
    );
  return { notification: table.notification, field: table.field, state: table.state, levels };
}

function buildSubscriptions(
  table: ProtocolTable["subscriptions"],
  methods: MethodEntry[],
  byName: Map<string, Declaration>,
  request: (method: string) => MethodEntry | undefined,
): Subscriptions | undefined {
  const listen = request(table.request);
  if (!listen) return undefined;
  const notification = (method: string) => {
    const found = methods.find(
      (m) => m.method === method && m.kind === "notification" && m.direction === "serverToClient",
    );
    if (!found)
      throw new ModelError(`spec/method-inferences.json: subscriptions name ${method}, which servers do not send`);
    return found;
  };
  notification(table.acknowledged);
  const params = listen.params?.type.kind === "ref" ? byName.get(listen.params.type.name)?.resolved : undefined;
  const filterType = params?.properties.find((p) => p.name === table.filter)?.type;
  const filter = filterType?.kind === "ref" ? byName.get(filterType.name)?.resolved : undefined;
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
    const shape = entry.params?.type.kind === "ref" ? byName.get(entry.params.type.name)?.resolved : undefined;
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
    ...(methods.some((m) => m.method === table.endedBy && m.kind === "notification" && m.direction === "serverToClient")
      ? { endedBy: table.endedBy }
      : {}),
  };
}

// Pass: the protocol's mechanics as this revision spells them (handshake or discovery, the
// per-request `_meta` envelope, multi round-trip input, cancellation, progress), from the
// reviewed table in spec/method-inferences.json. An entry applies where its methods and
// types exist in the revision; a field it names that the revision lacks is an error, so
// the table stays true.
import { ModelError } from "./errors.js";
import type {
  Declaration,
  Direction,
  FieldBinding,
  LiteralValue,
  MethodEntry,
  Protocol,
  Shape,
  TypeNode,
} from "./model.js";

type Fields = Record<string, string>;

export interface ProtocolTable {
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
}

export function buildProtocol(
  declarations: Declaration[],
  methods: MethodEntry[],
  constants: { name: string; value: LiteralValue }[],
  table: ProtocolTable,
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
      (m) => m.kind === "request" && shapes(m.params?.type).some((s) => s.properties.some((p) => p.from === tasks.params)),
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
  return protocol;
}

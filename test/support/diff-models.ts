// Tiny hand-made models for the diff's rule tests: a JSON-RPC skeleton, plus the methods,
// types and constants a test names. Resolved shapes come from the model's own pass.
import { diffModels, type DiffModelOptions } from "../../generators/diff/diff.js";
import type { DiffReport, Finding } from "../../generators/diff/rules/findings.js";
import type {
  Constant,
  Declaration,
  Delivery,
  Direction,
  MethodEntry,
  Model,
  Property,
  Protocol,
  TypeNode,
} from "../../generators/model/model.js";
import { MODEL_VERSION } from "../../generators/model/model.js";
import { resolveShapes } from "../../generators/model/resolve-shapes.js";

export const str: TypeNode = { kind: "primitive", name: "string" };
export const num: TypeNode = { kind: "primitive", name: "number" };
export const bool: TypeNode = { kind: "primitive", name: "boolean" };
export const unknown: TypeNode = { kind: "primitive", name: "unknown" };
export const object: TypeNode = { kind: "primitive", name: "object" };
export const ref = (name: string): TypeNode => ({ kind: "ref", name });
export const lit = (value: string | number | boolean): TypeNode => ({ kind: "literal", value });
export const union = (...members: TypeNode[]): TypeNode => ({ kind: "union", members });
export const array = (items: TypeNode): TypeNode => ({ kind: "array", items });
export const obj = (...properties: Property[]): TypeNode => ({ kind: "object", properties });
export const openMap = (value: TypeNode = unknown): TypeNode => ({
  kind: "object",
  properties: [],
  indexSignature: { keyName: "key", keyType: "string", type: value },
});
export const prop = (name: string, type: TypeNode, optional = false, extra: Partial<Property> = {}): Property => ({
  name,
  optional,
  type,
  ...extra,
});

export function iface(name: string, properties: Property[], bases: string[] = [], extra: Partial<Declaration> = {}) {
  return { kind: "interface", name, line: 1, extends: bases.map(ref), properties, ...extra } as Declaration;
}

export function alias(name: string, type: TypeNode, extra: Partial<Declaration> = {}) {
  return { kind: "alias", name, line: 1, type, ...extra } as Declaration;
}

export interface MethodSpec {
  method: string;
  direction?: Direction;
  kind?: "request" | "notification";
  delivery?: Delivery;
  /** Inline params fields, or a params type. */
  params?: Property[] | TypeNode;
  paramsOptional?: boolean;
  /** Result fields (a `<Name>Result` interface extending Result), or a result type. */
  result?: Property[] | TypeNode;
  /** `side:path`, as spec/method-inferences.json writes it; none by default. */
  capability?: string;
  /** Message type name; `<Name>Request` / `<Name>Notification` from the method by default. */
  type?: string;
  /** The message type's base: `Request` / `Notification` by default, or the JSON-RPC envelope. */
  base?: string;
  deprecated?: boolean;
}

/**
 * A model with one client→server request, `things/get` (gated by `server:things`), whose
 * params carry a `Query` (sent by clients) and whose result carries a `Thing` (sent by servers).
 */
export function things(
  spec: {
    thing?: Property[];
    query?: Property[];
    types?: Declaration[];
    method?: Partial<MethodSpec>;
  } & ModelSpec = {},
): ModelSpec {
  const { thing = [prop("id", str)], query = [prop("q", str)], types = [], method = {}, ...rest } = spec;
  return {
    ...rest,
    methods: [
      {
        method: "things/get",
        capability: "server:things",
        params: [prop("query", ref("Query"))],
        result: [prop("thing", ref("Thing"))],
        ...method,
      },
      ...(rest.methods ?? []),
    ],
    // A test's own `Query` or `Thing` replaces the default one.
    types: [iface("Query", query), iface("Thing", thing)]
      .filter((d) => !types.some((t) => t.name === d.name))
      .concat(types),
  };
}

export interface ModelSpec {
  methods?: MethodSpec[];
  types?: Declaration[];
  constants?: Constant[];
  clientCapabilities?: Property[];
  serverCapabilities?: Property[];
  protocol?: Protocol;
}

/** The JSON-RPC skeleton every tiny model has. */
function skeleton(spec: ModelSpec): Declaration[] {
  return [
    iface("Request", [prop("method", str), prop("params", object, true)]),
    iface("Notification", [prop("method", str), prop("params", object, true)]),
    iface("Result", [prop("_meta", openMap(), true)], [], {
      indexSignature: { keyName: "key", keyType: "string", type: unknown },
    }),
    iface("JSONRPCRequest", [prop("jsonrpc", lit("2.0")), prop("id", num)], ["Request"]),
    iface("JSONRPCNotification", [prop("jsonrpc", lit("2.0"))], ["Notification"]),
    iface("JSONRPCResponse", [prop("jsonrpc", lit("2.0")), prop("id", num), prop("result", ref("Result"))]),
    iface("JSONRPCError", [prop("jsonrpc", lit("2.0")), prop("id", num), prop("error", obj(prop("code", num)))]),
    alias(
      "JSONRPCMessage",
      union(ref("JSONRPCRequest"), ref("JSONRPCNotification"), ref("JSONRPCResponse"), ref("JSONRPCError")),
    ),
    iface("ClientCapabilities", spec.clientCapabilities ?? []),
    iface("ServerCapabilities", spec.serverCapabilities ?? []),
  ];
}

const typeBase = (method: string) =>
  method
    .split(/[/_]/)
    .map((w) => (w[0] ?? "").toUpperCase() + w.slice(1))
    .join("");

/** A model of the skeleton, the given types, and a message type (and result type) per method. */
export function tinyModel(revision: string, spec: ModelSpec): Model {
  const declarations = skeleton(spec);
  const messages: Declaration[] = [];
  for (const m of spec.methods ?? []) {
    const kind = m.kind ?? "request";
    const typeName = m.type ?? `${typeBase(m.method)}${kind === "request" ? "Request" : "Notification"}`;
    if (messages.some((d) => d.name === typeName)) continue;
    const params = Array.isArray(m.params) ? obj(...m.params) : m.params;
    messages.push(
      iface(
        typeName,
        [prop("method", lit(m.method)), ...(params ? [prop("params", params, m.paramsOptional ?? false)] : [])],
        [m.base ?? (kind === "request" ? "Request" : "Notification")],
        m.deprecated ? { deprecated: true } : {},
      ),
    );
    if (kind === "request" && Array.isArray(m.result)) {
      messages.push(iface(`${typeBase(m.method)}Result`, m.result, ["Result"]));
    }
  }
  const all = resolveShapes([...declarations, ...messages, ...(spec.types ?? [])]);
  const byName = new Map(all.map((d) => [d.name, d]));
  const methods: MethodEntry[] = (spec.methods ?? []).map((m) => {
    const kind = m.kind ?? "request";
    const direction = m.direction ?? "clientToServer";
    const type = m.type ?? `${typeBase(m.method)}${kind === "request" ? "Request" : "Notification"}`;
    const params = byName.get(type)?.resolved?.properties.find((p) => p.name === "params");
    const entry: MethodEntry = {
      method: m.method,
      kind,
      direction,
      delivery: m.delivery ?? "message",
      union: `${direction === "clientToServer" ? "Client" : "Server"}${kind === "request" ? "Request" : "Notification"}`,
      type,
      params: params ? { type: params.type, optional: params.optional } : null,
      capability: m.capability ? capabilityRef(m.capability) : null,
    };
    if (kind === "request") {
      entry.result = Array.isArray(m.result) ? ref(`${typeBase(m.method)}Result`) : (m.result ?? ref("Result"));
      entry.resultSource = "name";
    }
    return entry;
  });
  return {
    modelVersion: MODEL_VERSION,
    revision,
    source: {
      repository: "test/tiny",
      commit: "0".repeat(40),
      path: `schema/${revision}/schema.ts`,
      sha256: "0".repeat(64),
    },
    conventions: { numberType: "integer" },
    constants: spec.constants ?? [],
    declarations: all,
    envelopes: {
      union: "JSONRPCMessage",
      request: "JSONRPCRequest",
      notification: "JSONRPCNotification",
      resultResponse: "JSONRPCResponse",
      errorResponse: "JSONRPCError",
    },
    methods,
    protocol: spec.protocol ?? {},
  };
}

function capabilityRef(spec: string) {
  const [side, path] = spec.split(":") as ["client" | "server", string];
  return { side, path: path.split(".") };
}

export const constant = (name: string, value: string | number, extra: Partial<Constant> = {}): Constant => ({
  name,
  value,
  line: 1,
  ...extra,
});

export const TINY_LINKS = {
  before: { specUrl: "https://example.test/old", schemaReferenceUrl: "https://example.test/old/schema" },
  after: { specUrl: "https://example.test/new", schemaReferenceUrl: "https://example.test/new/schema" },
};

/** The report between two tiny models (revisions "old" and "new"). */
export function diffTiny(before: ModelSpec, after: ModelSpec, options?: DiffModelOptions): DiffReport {
  return diffModels(tinyModel("old", before), tinyModel("new", after), TINY_LINKS, options);
}

/** One line per finding, for readable failures: `RULE name [sides]`. */
export function brief(report: DiffReport): string[] {
  return report.changes.map((f: Finding) => `${f.rule} ${f.name} [${f.affects.join(",")}]`);
}

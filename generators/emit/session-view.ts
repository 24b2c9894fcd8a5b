// What the client and server emitters both need to know about a revision's methods: the
// camelCase member each method gets, its typed params and result, and the capability that
// declaring a handler for it turns on. One walk, shared by both.
import type {
  CapabilityRef,
  Declaration,
  Direction,
  FieldBinding,
  MethodEntry,
  Model,
  Property,
  TypeNode,
} from "../model/model.js";
import { stringLiteral, valueLiteral } from "./code.js";
import { printType } from "./print-type.js";

/** Schema names are used through `import type * as T`. */
export const qualify = (name: string) => `T.${name}`;

const MAP_OF: Record<MethodEntry["kind"], Record<Direction, string>> = {
  request: { clientToServer: "ClientRequestMap", serverToClient: "ServerRequestMap" },
  notification: { clientToServer: "ClientNotificationMap", serverToClient: "ServerNotificationMap" },
};

export interface MethodView {
  method: string;
  /** The method as a string literal. */
  literal: string;
  /** camelCase member name: `CallToolRequest` → `callTool`, `RootsListChangedNotification` → `rootsListChanged`. */
  name: string;
  /** PascalCase, for `on…` members. */
  pascal: string;
  delivery: MethodEntry["delivery"];
  /** `ClientRequestMap["tools/call"]` */
  entry: string;
  paramsType: string;
  /** `paramsType` as a type argument after others (`, undefined`), or nothing when it is the non-nullable params. */
  paramsArg: string;
  /**
   * What handlers are given: absent optional params arrive as `{}` when every field of them is
   * optional, so `paramsType` can stay non-nullable and still be true.
   */
  handlerParams: string;
  paramsOptional: boolean;
  /** The result as callers finally see it: a multi round-trip member is resolved by the client. */
  resultType: string;
  /** The result exactly as the schema types it. */
  wireResultType: string;
  /** Requests answered by `EmptyResult` get a default answer. */
  emptyResult: boolean;
  capability: CapabilityRef | null;
  /** `resources.subscribe` */
  capabilityName: string;
  /** How declaring a handler turns the capability on: the path and the value at its end. */
  capabilitySetting: string;
  /** Absent params reach a handler as `{}`. */
  emptyParams: boolean;
  /** The value at the capability's path a handler's presence declares (`true` or `{}`). */
  declares: unknown;
}

export function methodViews(model: Model, kind: MethodEntry["kind"], direction: Direction): MethodView[] {
  const byName = new Map(model.declarations.map((d) => [d.name, d]));
  const views = model.methods
    .filter((m) => m.kind === kind && m.direction === direction)
    .map((m): MethodView => {
      const base = m.type.replace(kind === "request" ? /Request$/ : /Notification$/, "");
      const entry = `${MAP_OF[kind][direction]}[${stringLiteral(m.method)}]`;
      const result = m.result;
      const absentMeansEmpty = m.params?.optional === true && !hasRequiredField(m.params.type, byName, []);
      return {
        method: m.method,
        literal: stringLiteral(m.method),
        name: base.charAt(0).toLowerCase() + base.slice(1),
        pascal: base,
        delivery: m.delivery,
        entry,
        paramsType: !m.params
          ? "undefined"
          : m.params.optional && !absentMeansEmpty
            ? `${entry}["params"]`
            : `NonNullable<${entry}["params"]>`,
        paramsArg: "",
        handlerParams: absentMeansEmpty ? "(params ?? {})" : "params",
        paramsOptional:
          !m.params || m.params.optional || !hasRequiredField(m.params.type, byName, reservedParams(model)),
        resultType: result ? printType(finalResult(result, model), qualify) : "void",
        wireResultType: result ? `${entry}["result"]` : "void",
        emptyResult: result?.kind === "ref" && result.name === "EmptyResult",
        capability: m.capability,
        capabilityName: m.capability?.path.join(".") ?? "",
        capabilitySetting: m.capability
          ? `[${valueLiteral(m.capability.path)}, ${valueLiteral(capabilityValue(m.capability, byName))}]`
          : "",
        emptyParams: absentMeansEmpty,
        declares: m.capability ? capabilityValue(m.capability, byName) : undefined,
      };
    });
  for (const v of views) v.paramsArg = v.paramsType === `NonNullable<${v.entry}["params"]>` ? "" : `, ${v.paramsType}`;
  const names = new Set<string>();
  for (const v of views) {
    if (names.has(v.name)) throw new Error(`client/server: two ${kind}s would be called ${v.name}`);
    names.add(v.name);
  }
  return views;
}

/** Params fields the client fills itself, so callers need not: `_meta`, multi round-trip input. */
export function reservedParams(model: Model): string[] {
  const ir = model.protocol.inputRequired;
  return ["_meta", ...(ir ? [ir.responses, ir.state] : [])];
}

function hasRequiredField(node: TypeNode, byName: Map<string, Declaration>, reserved: string[]): boolean {
  const properties: Property[] | undefined =
    node.kind === "ref"
      ? byName.get(node.name)?.resolved?.properties
      : node.kind === "object"
        ? node.properties
        : undefined;
  // Not an object shape (a union of params types): callers must pass something.
  if (!properties) return true;
  return properties.some((p) => !p.optional && !reserved.includes(p.name));
}

/** The result without the multi round-trip member, which the client answers and retries. */
function finalResult(result: TypeNode, model: Model): TypeNode {
  const ir = model.protocol.inputRequired?.result;
  if (!ir || result.kind !== "union") return result;
  const members = result.members.filter((m) => !(m.kind === "ref" && m.name === ir));
  return members.length === 1 ? (members[0] as TypeNode) : { ...result, members };
}

/**
 * The value that declares a capability: `true` where the schema types the flag as boolean, `{}`
 * where it is an object.
 */
function capabilityValue(capability: CapabilityRef, byName: Map<string, Declaration>): unknown {
  const root = byName.get(capability.side === "client" ? "ClientCapabilities" : "ServerCapabilities");
  let properties: Property[] | undefined = root?.resolved?.properties;
  let leaf: TypeNode | undefined;
  for (const key of capability.path) {
    const property = properties?.find((p) => p.name === key);
    leaf = property?.type;
    properties =
      leaf?.kind === "object"
        ? leaf.properties
        : leaf?.kind === "ref"
          ? byName.get(leaf.name)?.resolved?.properties
          : undefined;
  }
  return leaf?.kind === "primitive" && leaf.name === "boolean" ? true : {};
}

/** The TypeScript type of each piece of state, from the fields that carry it. */
export function stateTypesOf(model: Model): Record<string, string> {
  const byName = new Map(model.declarations.map((d) => [d.name, d]));
  const propertiesOf = (node: TypeNode | undefined): Property[] | undefined =>
    node?.kind === "ref"
      ? byName.get(node.name)?.resolved?.properties
      : node?.kind === "object"
        ? node.properties
        : undefined;
  const types: Record<string, string> = {};
  const record = (node: TypeNode | undefined, fields: FieldBinding[] | undefined) => {
    const properties = propertiesOf(node);
    for (const f of fields ?? []) {
      const property = properties?.find((p) => p.name === f.field);
      if (property && !types[f.state]) types[f.state] = printType(property.type, qualify);
    }
  };
  const p = model.protocol;
  const request = (name: string | undefined) => model.methods.find((m) => m.method === name && m.kind === "request");
  const handshake = request(p.handshake?.request);
  record(handshake?.params?.type, p.handshake?.params);
  record(handshake?.result, p.handshake?.result);
  record(request(p.discovery?.request)?.result, p.discovery?.result);
  if (p.requestMeta) record({ kind: "ref", name: p.requestMeta.type }, p.requestMeta.fields);
  if (p.resultMeta) record({ kind: "ref", name: p.resultMeta.type }, p.resultMeta.fields);
  return types;
}

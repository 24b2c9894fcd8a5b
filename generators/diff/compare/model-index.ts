// Lookups over one model for the diff, and the one-level normalisation that makes
// wire-equivalent spellings compare equal (`object`, `{ [key: string]: unknown }`,
// `Record<string, unknown>`, `JSONObject`; `typeof CONST` and its literal; `JSONValue` and `unknown`).
import type { Constant, Declaration, Model, ObjectNode, Property, Shape, TypeNode } from "../../model/model.js";
import { declarationTypes, referencedNames } from "../../model/walk.js";

/** Object-like declarations have a resolved shape; unions and other aliases do not. */
export type Form = "object" | "union" | "other";

/** The roots of the capabilities objects (also hard-wired in the method map's gate lookup). */
const CAPABILITY_ROOTS = ["ClientCapabilities", "ServerCapabilities"];

/** Fields declared on the capabilities objects are capabilities. */
export function isCapability(owner: string): boolean {
  return CAPABILITY_ROOTS.includes(owner);
}

const UNKNOWN: TypeNode = { kind: "primitive", name: "unknown" };

export class ModelIndex {
  readonly revision: string;
  private readonly decls: Map<string, Declaration>;
  readonly constants: Map<string, Constant>;
  /** Message type → its JSON-RPC envelope declaration (requests and notifications sent as messages). */
  private readonly envelopes = new Map<string, string>();
  /** Declaration → the interfaces that extend it directly. */
  private readonly heirs = new Map<string, string[]>();
  private readonly anyJsonMemo = new Map<string, boolean>();
  private uses?: Map<string, Uses>;

  constructor(readonly model: Model) {
    this.revision = model.revision;
    this.decls = new Map(model.declarations.map((d) => [d.name, d]));
    this.constants = new Map(model.constants.map((c) => [c.name, c]));
    for (const m of model.methods) {
      if (m.delivery !== "message") continue;
      this.envelopes.set(m.type, m.kind === "request" ? model.envelopes.request : model.envelopes.notification);
    }
    for (const decl of model.declarations) {
      if (decl.kind !== "interface") continue;
      for (const base of referencedNames(decl.extends))
        this.heirs.set(base, [...(this.heirs.get(base) ?? []), decl.name]);
    }
  }

  has(name: string): boolean {
    return this.decls.has(name);
  }

  decl(name: string): Declaration | undefined {
    return this.decls.get(name);
  }

  names(): string[] {
    return [...this.decls.keys()];
  }

  form(name: string): Form {
    const decl = this.decls.get(name);
    if (!decl) return "other";
    if (decl.resolved) return "object";
    return decl.kind === "alias" && decl.type.kind === "union" ? "union" : "other";
  }

  shape(name: string): Shape | undefined {
    return this.decls.get(name)?.resolved;
  }

  /**
   * The JSON-RPC envelope a type always travels in: a message type's own, or the one shared by
   * every type that extends it (a base such as PaginatedRequest is only ever sent as one of them).
   */
  envelopeShape(typeName: string): Shape | undefined {
    const envelope = this.envelopeOf(typeName, new Set());
    return envelope ? this.shape(envelope) : undefined;
  }

  private envelopeOf(name: string, seen: Set<string>): string | undefined {
    const own = this.envelopes.get(name);
    if (own || seen.has(name)) return own;
    seen.add(name);
    const heirs = this.heirs.get(name) ?? [];
    const shared = heirs.map((h) => this.envelopeOf(h, seen));
    return shared.length > 0 && shared.every((e) => e !== undefined && e === shared[0]) ? shared[0] : undefined;
  }

  /** Where a declaration is referred to: as a direct member of union aliases, or anywhere else. */
  usesOf(name: string): Uses {
    this.uses ??= this.collectUses();
    return this.uses.get(name) ?? { unions: [], elsewhere: false };
  }

  private collectUses(): Map<string, Uses> {
    const uses = new Map<string, Uses>();
    const entry = (name: string) => {
      let u = uses.get(name);
      if (!u) uses.set(name, (u = { unions: [], elsewhere: false }));
      return u;
    };
    const elsewhere = (nodes: TypeNode[]) => {
      for (const name of referencedNames(nodes)) entry(name).elsewhere = true;
    };
    for (const decl of this.model.declarations) {
      if (decl.kind === "alias" && decl.type.kind === "union") {
        for (const member of decl.type.members) {
          if (member.kind === "ref") entry(member.name).unions.push(decl.name);
          else elsewhere([member]);
        }
      } else {
        elsewhere(declarationTypes(decl));
      }
    }
    for (const m of this.model.methods) if (m.result) elsewhere([m.result]);
    return uses;
  }

  /** The type a declaration stands for: its resolved shape as an object node, or its alias type. */
  body(name: string): TypeNode {
    const decl = this.decls.get(name);
    if (!decl) return UNKNOWN;
    if (decl.resolved) return shapeNode(decl.resolved);
    return decl.kind === "alias" ? decl.type : UNKNOWN;
  }

  /**
   * One level of normalisation: references are replaced by what they stand for, and the
   * spellings JSON cannot tell apart are unified. Nested nodes are left as they are.
   */
  normalize(node: TypeNode): TypeNode {
    switch (node.kind) {
      case "typeof":
        return { kind: "literal", value: node.value };
      case "record":
        return node.key.kind === "primitive" && node.key.name === "string"
          ? openObject({ kind: "object", properties: [], indexSignature: indexOf(node.value) })
          : node;
      case "primitive":
        return node.name === "object" ? { kind: "object", properties: [] } : node;
      case "ref":
        if (!this.decls.has(node.name)) return node;
        return this.anyJson(node) ? UNKNOWN : this.normalize(this.body(node.name));
      case "object":
        return this.openIfUntyped(node);
      case "union":
        return { kind: "union", members: node.members.flatMap((m) => (m.kind === "union" ? m.members : [m])) };
      case "omit": {
        const base = this.normalize(node.type);
        if (base.kind !== "object") return node;
        return { ...base, properties: base.properties.filter((p) => !node.keys.includes(p.name)) };
      }
      case "intersection": {
        const parts = node.members.map((m) => this.normalize(m));
        if (!parts.every((p): p is ObjectNode => p.kind === "object")) return node;
        return this.openIfUntyped(mergeObjects(parts));
      }
      default:
        return node;
    }
  }

  /** An index signature whose values may be any JSON value says nothing on the wire: objects are open. */
  private openIfUntyped(node: ObjectNode): ObjectNode {
    const index = node.indexSignature;
    if (!index || !this.anyJson(index.type)) return node;
    return openObject(node);
  }

  /** Whether a type admits every JSON value (`unknown`, `any`, or a JSONValue-style alias). */
  anyJson(node: TypeNode, assumed = new Set<string>()): boolean {
    switch (node.kind) {
      case "primitive":
        return node.name === "unknown" || node.name === "any";
      case "ref": {
        const memo = this.anyJsonMemo.get(node.name);
        if (memo !== undefined) return memo;
        // Coinductive: a recursive alias (JSONValue → JSONArray → JSONValue) is assumed to qualify
        // while it is being checked.
        if (assumed.has(node.name)) return true;
        assumed.add(node.name);
        const decl = this.decls.get(node.name);
        const result = decl?.kind === "alias" && !decl.resolved ? this.anyJson(decl.type, assumed) : false;
        assumed.delete(node.name);
        if (assumed.size === 0) this.anyJsonMemo.set(node.name, result);
        return result;
      }
      case "union": {
        const seen = new Set<string>();
        for (const member of node.members) {
          const category = this.jsonCategory(member, assumed);
          if (!category) return false;
          seen.add(category);
        }
        return ["string", "number", "boolean", "null", "array", "object"].every((c) => seen.has(c));
      }
      default:
        return false;
    }
  }

  /** Which kind of JSON value a union member covers completely, if any. */
  private jsonCategory(node: TypeNode, assumed: Set<string>): string | undefined {
    if (node.kind === "primitive" && ["string", "number", "boolean", "null"].includes(node.name)) return node.name;
    let target = node;
    if (node.kind === "ref") {
      const decl = this.decls.get(node.name);
      if (!decl) return undefined;
      if (assumed.has(node.name)) return undefined;
      target = decl.resolved ? shapeNode(decl.resolved) : decl.kind === "alias" ? decl.type : node;
    }
    if (target.kind === "array") return this.anyJson(target.items, assumed) ? "array" : undefined;
    if (target.kind === "record") return this.anyJson(target.value, assumed) ? "object" : undefined;
    if (target.kind === "object" && target.properties.length === 0 && target.indexSignature) {
      return this.anyJson(target.indexSignature.type, assumed) ? "object" : undefined;
    }
    return undefined;
  }
}

export interface Uses {
  /** Union aliases that list the declaration as a member. */
  unions: string[];
  /** Whether anything else refers to it (a property, an array, a method's result, `extends`). */
  elsewhere: boolean;
}

/** A resolved shape as an object node; its properties keep `from`. */
export function shapeNode(shape: Shape): ObjectNode {
  return {
    kind: "object",
    properties: shape.properties,
    ...(shape.indexSignature ? { indexSignature: shape.indexSignature } : {}),
  };
}

/** The declaration a property comes from, when it is a resolved property. */
export function declaredBy(property: Property): string | undefined {
  return "from" in property && typeof property.from === "string" ? property.from : undefined;
}

function indexOf(type: TypeNode) {
  return { keyName: "key", keyType: "string" as const, type };
}

function openObject(node: ObjectNode): ObjectNode {
  return { kind: "object", properties: node.properties };
}

function mergeObjects(parts: ObjectNode[]): ObjectNode {
  const properties: Property[] = [];
  for (const part of parts) {
    for (const p of part.properties) {
      const i = properties.findIndex((q) => q.name === p.name);
      if (i < 0) properties.push(p);
      else {
        const q = properties[i] as Property;
        properties[i] = {
          ...q,
          optional: q.optional && p.optional,
          type: { kind: "intersection", members: [q.type, p.type] },
        };
      }
    }
  }
  const index = parts.find((p) => p.indexSignature)?.indexSignature;
  return { kind: "object", properties, ...(index ? { indexSignature: index } : {}) };
}

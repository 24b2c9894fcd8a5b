// The value-set relation between a type of the old model and a type of the new one:
// does every old value stay valid (wider), every new value was valid (narrower), both, neither.
// Objects are open, as on the wire; a named type that exists in both revisions with the same
// form is the same type here (its own changes are reported on it, not on every use).
import type { ObjectNode, Property, TypeNode } from "../../model/model.js";
import { effectiveConstraints, within } from "./constraints.js";
import type { ModelIndex } from "./model-index.js";
import { relationOf, type Relation } from "./relation.js";

interface Typed {
  node: TypeNode;
  index: ModelIndex;
}

/** Whether old name and new name denote the same declaration (same name, or a detected rename). */
export type Identity = (oldName: string, newName: string) => boolean;

/** Beyond this depth of nested references a recursive comparison is assumed to hold. */
const MAX_DEPTH = 40;

export class TypeRelation {
  private readonly memo = new Map<string, boolean>();
  private readonly pending = new Set<string>();
  private depth = 0;

  constructor(
    readonly before: ModelIndex,
    readonly after: ModelIndex,
    private readonly identical: Identity,
  ) {}

  relate(oldType: TypeNode, newType: TypeNode): Relation {
    const a = { node: oldType, index: this.before };
    const b = { node: newType, index: this.after };
    return relationOf(this.sub(a, b), this.sub(b, a));
  }

  /** Whether two references denote the same declaration, so need no structural comparison. */
  private sameDeclaration(x: Typed, y: Typed): boolean {
    if (x.node.kind !== "ref" || y.node.kind !== "ref") return false;
    if (x.index === y.index) return x.node.name === y.node.name;
    return x.index === this.before
      ? this.identical(x.node.name, y.node.name)
      : this.identical(y.node.name, x.node.name);
  }

  /** Every value of x is a value of y. */
  private sub(x: Typed, y: Typed): boolean {
    if (this.sameDeclaration(x, y)) return true;
    const key = x.node.kind === "ref" && y.node.kind === "ref" ? this.key(x, y) : undefined;
    if (key !== undefined) {
      const known = this.memo.get(key);
      if (known !== undefined) return known;
      // Coinductive: recursive types are assumed related while their comparison is under way.
      if (this.pending.has(key)) return true;
      this.pending.add(key);
    }
    if (this.depth > MAX_DEPTH) return true;
    this.depth++;
    const result = this.subExpanded(x, y);
    this.depth--;
    if (key !== undefined) {
      this.pending.delete(key);
      this.memo.set(key, result);
    }
    return result;
  }

  /** Unions are taken apart before either side loses its names to normalisation. */
  private subExpanded(x: Typed, y: Typed): boolean {
    const nx = x.index.normalize(x.node);
    if (nx.kind === "union") return nx.members.every((m) => this.sub({ node: m, index: x.index }, y));
    const ny = y.index.normalize(y.node);
    if (ny.kind === "union") return ny.members.some((m) => this.sub(x, { node: m, index: y.index }));
    return this.subNormalized({ node: nx, index: x.index }, { node: ny, index: y.index });
  }

  private key(x: Typed, y: Typed): string {
    const tag = (t: Typed) => `${t.index === this.before ? "old" : "new"}:${(t.node as { name: string }).name}`;
    return `${tag(x)}>${tag(y)}`;
  }

  private subNormalized(x: Typed, y: Typed): boolean {
    const a = x.node;
    const b = y.node;
    const at = (node: TypeNode, side: Typed): Typed => ({ node, index: side.index });
    if (b.kind === "primitive" && (b.name === "unknown" || b.name === "any")) return true;
    if (a.kind === "primitive" && a.name === "never") return true;
    if (a.kind === "intersection") return a.members.some((m) => this.sub(at(m, x), y));
    if (b.kind === "intersection") return b.members.every((m) => this.sub(x, at(m, y)));
    switch (a.kind) {
      case "literal":
        if (b.kind === "literal") return a.value === b.value;
        return b.kind === "primitive" && b.name === typeof a.value;
      case "primitive":
        return b.kind === "primitive" && a.name === b.name;
      case "array":
        return b.kind === "array" && this.sub(at(a.items, x), at(b.items, y));
      case "object":
        return b.kind === "object" && this.subObject(a, x, b, y);
      default:
        return false;
    }
  }

  private subObject(a: ObjectNode, x: Typed, b: ObjectNode, y: Typed): boolean {
    const at = (node: TypeNode, side: Typed): Typed => ({ node, index: side.index });
    for (const p of b.properties) {
      const q = a.properties.find((candidate) => candidate.name === p.name);
      if (!q) {
        if (!p.optional) return false;
        continue;
      }
      if (q.optional && !p.optional) return false;
      if (!this.sub(at(q.type, x), at(p.type, y))) return false;
      if (!within(this.constraints(q, x), this.constraints(p, y))) return false;
    }
    const index = b.indexSignature;
    if (index) {
      for (const q of a.properties) {
        if (!b.properties.some((p) => p.name === q.name) && !this.sub(at(q.type, x), at(index.type, y))) return false;
      }
      if (a.indexSignature && !this.sub(at(a.indexSignature.type, x), at(index.type, y))) return false;
    }
    return true;
  }

  private constraints(p: Property, side: Typed) {
    return effectiveConstraints(p.constraints, p.type, side.index.model);
  }
}

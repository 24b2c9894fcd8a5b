// The two models side by side: which names denote the same declaration on both sides (same
// name, or a detected rename), which exist on one side only, and the one-level normalisation
// the structural comparison works on.
import type { TypeNode } from "../../model/model.js";
import type { ModelIndex } from "./model-index.js";
import type { Rename } from "./renames.js";
import type { Identity, TypeRelation } from "./type-relation.js";

export type SideName = "before" | "after";

const UNKNOWN: TypeNode = { kind: "primitive", name: "unknown" };

export class Sides {
  /** Old name → new name. */
  readonly renames: Map<string, string>;
  private readonly renamedFrom: Map<string, string>;

  constructor(
    readonly before: ModelIndex,
    readonly after: ModelIndex,
    readonly relation: TypeRelation,
    /** Same declaration, and same form (object-like or not), on both sides. */
    readonly identical: Identity,
    renames: Rename[],
  ) {
    this.renames = new Map(renames.map((r) => [r.before, r.after]));
    this.renamedFrom = new Map(renames.map((r) => [r.after, r.before]));
  }

  index(side: SideName): ModelIndex {
    return side === "before" ? this.before : this.after;
  }

  /**
   * Whether two references name the same declaration: the same name on both sides (unless it
   * switched between interface and union and `strict` asks for the same form), or a rename.
   */
  sameName(oldName: string, newName: string, strict: boolean): boolean {
    if (this.renames.get(oldName) === newName) return true;
    return (
      oldName === newName && this.before.has(oldName) && this.after.has(newName) && !(strict && this.switched(oldName))
    );
  }

  /** Declared on both sides, as an object on one and not on the other. */
  switched(name: string): boolean {
    return (this.before.form(name) === "object") !== (this.after.form(name) === "object");
  }

  /** Declared only on this side, and not the old or new name of a rename. */
  oneSided(name: string, side: SideName): boolean {
    return side === "before"
      ? this.before.has(name) && !this.after.has(name) && !this.renames.has(name)
      : this.after.has(name) && !this.before.has(name) && !this.renamedFrom.has(name);
  }

  /** One level of normalisation that keeps references (they are matched by name). */
  shallow(node: TypeNode, side: SideName): TypeNode {
    const index = this.index(side);
    if (index.anyJson(node)) return UNKNOWN;
    return node.kind === "ref" ? node : index.normalize(node);
  }

  /** As `shallow`, but a union only this side names is opened (it has no counterpart to match by name). */
  unionOrShallow(node: TypeNode, side: SideName): TypeNode {
    const index = this.index(side);
    return node.kind === "ref" && this.oneSided(node.name, side) && index.form(node.name) === "union"
      ? index.body(node.name)
      : this.shallow(node, side);
  }
}

export function members(node: TypeNode): TypeNode[] {
  return node.kind === "union" ? node.members : [node];
}

/** The same literal, or the same primitive. */
export function sameAtom(a: TypeNode, b: TypeNode): boolean {
  if (a.kind === "literal" && b.kind === "literal") return a.value === b.value;
  if (a.kind === "primitive" && b.kind === "primitive") return a.name === b.name;
  return false;
}

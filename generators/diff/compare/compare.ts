// compare/: the structural comparison of two models, before any judgement (rules/ judges): which
// methods, declarations, fields and constants differ, and how their value sets relate. Types are
// compared as users see them, after inheritance, with renames detected. This file is its entry.
import type { Model } from "../../model/model.js";
import { compareConstants } from "./constants.js";
import { DeclarationDiff } from "./declarations.js";
import { mergeDeltas, type Delta } from "./deltas.js";
import { compareMethods } from "./methods.js";
import { ModelIndex } from "./model-index.js";
import { findRenames } from "./renames.js";
import { Sides } from "./sides.js";
import { TypeRelation, type Identity } from "./type-relation.js";

export interface Comparison {
  /** The old (`before`) and the new (`after`) model, indexed. */
  before: ModelIndex;
  after: ModelIndex;
  deltas: Delta[];
}

/** Methods, declarations and constants compared. Without `renames`, no type pairs with one of another name. */
export function compareModels(before: Model, after: Model, renames: boolean): Comparison {
  const a = new ModelIndex(before);
  const b = new ModelIndex(after);
  const sameName: Identity = (o, n) => o === n && a.has(o) && b.has(n) && a.form(o) === b.form(n);
  const found = renames ? findRenames(a, b, new TypeRelation(a, b, sameName)) : [];
  const renamed = new Map(found.map((r) => [r.before, r.after]));
  const identical: Identity = (o, n) => sameName(o, n) || renamed.get(o) === n;
  const relation = new TypeRelation(a, b, identical);
  const sides = new Sides(a, b, relation, identical, found);
  const declarations = new DeclarationDiff(sides);
  const deltas = mergeDeltas([
    ...compareMethods(sides, (x, y, expand) => declarations.explain(x, y, expand)),
    ...declarations.run(),
    ...compareConstants(before, after),
  ]);
  return { before: a, after: b, deltas };
}

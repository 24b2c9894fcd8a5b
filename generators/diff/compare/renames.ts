// Probable renames: a type only the old model has, paired with a type only the new one has,
// when the method map says so (same method, different message or result type) or when the two
// are structurally equal or nearly so and their names share words.
import type { Model, Shape, TypeNode } from "../../model/model.js";
import type { ModelIndex } from "./model-index.js";
import type { TypeRelation } from "./type-relation.js";

export interface Rename {
  before: string;
  after: string;
  /** 1 when the structures are equal. */
  similarity: number;
  /** Why the pair was made: the method map, or structure and name. */
  evidence: "method" | "structure";
}

/** Near-equal: at least this share of the members match. */
const MIN_SIMILARITY = 0.75;
/** …and at least this share of the name's words are shared. */
const MIN_NAME_SIMILARITY = 0.5;

export function findRenames(before: ModelIndex, after: ModelIndex, relation: TypeRelation): Rename[] {
  const removed = new Set(before.names().filter((n) => !after.has(n)));
  const added = new Set(after.names().filter((n) => !before.has(n)));
  const renames: Rename[] = [];
  const pair = (a: string, b: string, evidence: Rename["evidence"]) => {
    renames.push({ before: a, after: b, similarity: similarity(a, b, before, after, relation), evidence });
    removed.delete(a);
    added.delete(b);
  };

  for (const [a, b] of methodPairs(before.model, after.model)) {
    if (removed.has(a) && added.has(b)) pair(a, b, "method");
  }

  // Message types of different methods are different things, however alike.
  const methodOf = (model: Model, type: string) => model.methods.find((m) => m.type === type)?.method;
  const candidates: { a: string; b: string; score: number; names: number }[] = [];
  for (const a of removed) {
    for (const b of added) {
      const names = nameSimilarity(a, b);
      if (names === 0) continue;
      const [ma, mb] = [methodOf(before.model, a), methodOf(after.model, b)];
      if (ma !== undefined && mb !== undefined && ma !== mb) continue;
      const score = similarity(a, b, before, after, relation);
      if ((score === 1 && names > 0) || (score >= MIN_SIMILARITY && names >= MIN_NAME_SIMILARITY)) {
        candidates.push({ a, b, score, names });
      }
    }
  }
  candidates.sort((x, y) => y.score + y.names - (x.score + x.names) || (x.a < y.a ? -1 : x.a > y.a ? 1 : 0));
  for (const c of candidates) {
    if (removed.has(c.a) && added.has(c.b)) pair(c.a, c.b, "structure");
  }
  return renames.sort((x, y) => (x.after < y.after ? -1 : 1));
}

/** Old → new message and result type names of methods present in both models. */
function methodPairs(before: Model, after: Model): [string, string][] {
  const pairs: [string, string][] = [];
  for (const m of before.methods) {
    const n = after.methods.find((x) => x.method === m.method && x.direction === m.direction);
    if (!n) continue;
    pairs.push([m.type, n.type]);
    if (m.result?.kind === "ref" && n.result?.kind === "ref") pairs.push([m.result.name, n.result.name]);
  }
  return pairs;
}

/** Share of members (properties, or union members) that are the same in both, 0 for different forms. */
export function similarity(
  a: string,
  b: string,
  before: ModelIndex,
  after: ModelIndex,
  relation: TypeRelation,
): number {
  const formA = before.form(a);
  if (formA !== after.form(b)) return 0;
  if (formA === "object") {
    return shapeSimilarity(before.shape(a) as Shape, after.shape(b) as Shape, relation);
  }
  const typeA = before.body(a);
  const typeB = after.body(b);
  if (typeA.kind === "union" && typeB.kind === "union") return unionSimilarity(typeA.members, typeB.members, relation);
  return relation.relate(typeA, typeB) === "same" ? 1 : 0;
}

function shapeSimilarity(a: Shape, b: Shape, relation: TypeRelation): number {
  const total = Math.max(a.properties.length, b.properties.length);
  if (total === 0) return a.indexSignature || b.indexSignature ? 0 : 1;
  let score = 0;
  for (const p of a.properties) {
    const q = b.properties.find((x) => x.name === p.name);
    if (!q) continue;
    score += q.optional === p.optional && relation.relate(p.type, q.type) === "same" ? 1 : 0.5;
  }
  return score / total;
}

function unionSimilarity(a: TypeNode[], b: TypeNode[], relation: TypeRelation): number {
  const left = [...b];
  let matched = 0;
  for (const m of a) {
    const i = left.findIndex((n) => relation.relate(m, n) === "same");
    if (i < 0) continue;
    left.splice(i, 1);
    matched++;
  }
  return matched / Math.max(a.length, b.length);
}

/**
 * Share of the longer name's words (`JSONRPC`, `Error`, `Response`) that the other name has too;
 * a word counts as shared when one abbreviates the other (`Ref`, `Reference`).
 */
export function nameSimilarity(a: string, b: string): number {
  const words = (name: string) => [...new Set(name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? [])];
  const wa = words(a);
  const wb = words(b);
  const same = (x: string, y: string) =>
    x === y || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)));
  const shared = wa.filter((x) => wb.some((y) => same(x, y))).length;
  return shared / Math.max(wa.length, wb.length);
}

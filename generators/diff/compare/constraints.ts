// Value constraints (`@format`, bounds, `@TJS-type`, `@nullable`, …) compared as value sets.
import type { Constraints, Model, TypeNode } from "../../model/model.js";
import { relationOf, type Relation } from "./relation.js";

type Key = keyof Constraints;

const LOWER: Key[] = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER: Key[] = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const EXACT: Key[] = ["format", "pattern", "multipleOf"];

/**
 * The constraints a value really has: a plain `number` is whatever JSON type the spec's own
 * JSON Schema build gives it (`conventions.numberType`) unless `@TJS-type` says otherwise.
 */
export function effectiveConstraints(constraints: Constraints | undefined, type: TypeNode, model: Model): Constraints {
  const isNumber = type.kind === "primitive" && type.name === "number";
  const jsonType = constraints?.jsonType ?? (isNumber ? model.conventions.numberType : undefined);
  return { ...constraints, ...(jsonType ? { jsonType } : {}) };
}

const bound = (c: Constraints, key: Key): number | undefined => c[key] as number | undefined;

/** Whether every value `a` admits is admitted by `b`. */
export function within(a: Constraints, b: Constraints): boolean {
  for (const key of LOWER) {
    const limit = bound(b, key);
    const own = bound(a, key);
    if (limit !== undefined && (own === undefined || own < limit)) return false;
  }
  for (const key of UPPER) {
    const limit = bound(b, key);
    const own = bound(a, key);
    if (limit !== undefined && (own === undefined || own > limit)) return false;
  }
  for (const key of EXACT) if (b[key] !== undefined && a[key] !== b[key]) return false;
  if (b.uniqueItems && !a.uniqueItems) return false;
  if (a.nullable && !b.nullable) return false;
  if (b.jsonType !== undefined && a.jsonType !== b.jsonType && !(a.jsonType === "integer" && b.jsonType === "number"))
    return false;
  return true;
}

export function relateConstraints(before: Constraints, after: Constraints): Relation {
  return relationOf(within(before, after), within(after, before));
}

/** `@minimum 0 @format uri` style, for reports. */
export function printConstraints(c: Constraints): string {
  const parts = Object.entries(c)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? `@${k}` : `@${k} ${String(v)}`));
  return parts.length > 0 ? parts.join(" ") : "(none)";
}

// The JSDoc tags that constrain values, and the Constraints key each one fills.
// Shared by the parser (tag → model) and the emitters (model → tag).
import type { Constraints } from "./model.js";

export type TagValueKind = "number" | "word" | "flag";

export const CONSTRAINT_TAGS: readonly { tag: string; key: keyof Constraints; value: TagValueKind }[] = [
  { tag: "TJS-type", key: "jsonType", value: "word" },
  { tag: "format", key: "format", value: "word" },
  { tag: "pattern", key: "pattern", value: "word" },
  { tag: "minimum", key: "minimum", value: "number" },
  { tag: "maximum", key: "maximum", value: "number" },
  { tag: "exclusiveMinimum", key: "exclusiveMinimum", value: "number" },
  { tag: "exclusiveMaximum", key: "exclusiveMaximum", value: "number" },
  { tag: "multipleOf", key: "multipleOf", value: "number" },
  { tag: "minLength", key: "minLength", value: "number" },
  { tag: "maxLength", key: "maxLength", value: "number" },
  { tag: "minItems", key: "minItems", value: "number" },
  { tag: "maxItems", key: "maxItems", value: "number" },
  { tag: "minProperties", key: "minProperties", value: "number" },
  { tag: "maxProperties", key: "maxProperties", value: "number" },
  { tag: "uniqueItems", key: "uniqueItems", value: "flag" },
  { tag: "nullable", key: "nullable", value: "flag" },
];

/** `@tag value` lines for a constraints object, in table order. */
export function constraintTagLines(constraints: Constraints | undefined): string[] {
  if (!constraints) return [];
  return CONSTRAINT_TAGS.filter(({ key }) => constraints[key] !== undefined).map(({ tag, key, value }) =>
    value === "flag" ? `@${tag}` : `@${tag} ${String(constraints[key])}`,
  );
}

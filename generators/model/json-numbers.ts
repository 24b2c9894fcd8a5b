// Which JSON numbers a `number` of schema.ts admits (docs/decisions.md, "Number vs integer").
// schema.ts only says `number`; the spec's JSON Schema build makes it an integer by default
// (`conventions.numberType`) and `@TJS-type` sets it per value. One structural rule bridges the
// two where the build's default contradicts schema.ts's meaning.
import type { TypeNode } from "./model.js";

/**
 * A union with `string`, `number` and `boolean` members admits any JSON scalar (`JSONValue`, the
 * form answers of `ElicitResult.content`): it carries data, not a count or an id, so its `number`
 * is any JSON number. Unions of ids (`string | number`) and counts keep the convention.
 */
export function isScalarUnion(members: readonly TypeNode[]): boolean {
  const primitives = new Set(members.flatMap((m) => (m.kind === "primitive" ? [m.name] : [])));
  return primitives.has("string") && primitives.has("number") && primitives.has("boolean");
}

/** The JSON type of a union's `number` members: its `@TJS-type`, else `number` in a scalar union. */
export function unionNumberType(members: readonly TypeNode[], jsonType: string | undefined): string | undefined {
  return jsonType ?? (isScalarUnion(members) ? "number" : undefined);
}

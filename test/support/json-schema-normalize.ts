// A documented normalisation of JSON Schemas that keeps their meaning (the set of accepted
// instances) but removes the ways two generators can spell the same thing differently:
//
//  1. annotations are dropped (description, title, default, examples, $comment, deprecated, …);
//  2. `#/definitions/X` and `#/$defs/X` are the same reference;
//  3. `type: [a, b]` becomes `anyOf: [{type: a}, {type: b}]`, `enum` becomes `anyOf` of `const`s;
//  4. `const` implies its `type`, so a `type` beside a `const` is dropped;
//  5. `additionalProperties: true` / `{}`, empty `properties` and empty `required` say nothing and go;
//     `required` is sorted;
//  6. anyOf / allOf: nested ones are flattened, members sorted and de-duplicated, one-member lists
//     unwrapped; in an anyOf, `{type: "string"}` absorbs string `const`s (`"a" | string` is `string`);
//  7. (inlineAliases) a definition that is only a `$ref` is the definition it names, and a `$ref`
//     to a non-object definition (`Cursor`, `Role`, `LoggingLevel`, `JSONArray`, …) is replaced by
//     that definition: generators differ in which aliases they inline;
//  8. (inlineAliases) an anyOf member that refers to a union is replaced by that union's members.
import type { JsonSchema } from "./spec.js";

const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "markdownDescription",
  "$schema",
  "$id",
]);

export function normalizeSchema(schema: unknown): JsonSchema {
  if (typeof schema === "boolean") return schema ? {} : { not: {} };
  const input = schema as JsonSchema;
  let out: JsonSchema = {};
  for (const [key, value] of Object.entries(input)) {
    if (ANNOTATIONS.has(key)) continue;
    switch (key) {
      case "$ref":
        out.$ref = String(value).replace("#/definitions/", "#/$defs/");
        break;
      case "properties":
      case "$defs":
      case "definitions": {
        const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, normalizeSchema(v)]);
        if (entries.length > 0) out[key === "definitions" ? "$defs" : key] = Object.fromEntries(entries);
        break;
      }
      case "items":
      case "additionalProperties":
      case "not":
        out[key] = Array.isArray(value) ? value.map(normalizeSchema) : normalizeSchema(value);
        break;
      case "anyOf":
      case "allOf":
      case "oneOf":
        out[key] = (value as unknown[]).map(normalizeSchema);
        break;
      case "required":
        if ((value as string[]).length > 0) out.required = [...(value as string[])].sort();
        break;
      default:
        out[key] = value;
    }
  }
  if (isEmpty(out.additionalProperties)) delete out.additionalProperties;
  if ("const" in out) delete out.type;
  out = expandTypeList(out);
  out = expandEnum(out);
  return simplifyCombinators(out);
}

function isEmpty(value: unknown): boolean {
  return value !== undefined && typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

function expandTypeList(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const { type, ...rest } = schema;
  const members = (type as string[]).map((t) => ({ type: t }));
  return Object.keys(rest).length === 0 ? { anyOf: members } : { ...rest, anyOf: members };
}

function expandEnum(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.enum)) return schema;
  const { enum: values, type: _type, ...rest } = schema;
  const members = (values as unknown[]).map((v) => ({ const: v }));
  return Object.keys(rest).length === 0 ? { anyOf: members } : { ...rest, anyOf: members };
}

function simplifyCombinators(schema: JsonSchema): JsonSchema {
  let out = schema;
  for (const key of ["anyOf", "allOf"] as const) {
    const list = out[key] as JsonSchema[] | undefined;
    if (!list) continue;
    let members = list.flatMap((m) =>
      Object.keys(m).length === 1 && Array.isArray(m[key]) ? (m[key] as JsonSchema[]) : [m],
    );
    if (key === "anyOf" && members.some((m) => canonical(m) === canonical({ type: "string" }))) {
      members = members.filter((m) => !(Object.keys(m).length === 1 && typeof m.const === "string"));
    }
    const unique = [...new Map(members.map((m) => [canonical(m), m])).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, m]) => m);
    const { [key]: _drop, ...rest } = out;
    if (unique.length === 1 && Object.keys(rest).length === 0) {
      out = unique[0] as JsonSchema;
    } else {
      out = { ...rest, [key]: unique };
    }
  }
  return out;
}

/** JSON with sorted keys: equal strings mean equal schemas. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Rules 7 and 8, over a whole set of normalised definitions. */
export function inlineAliases(defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const isRef = (v: JsonSchema) => Object.keys(v).length === 1 && typeof v.$ref === "string";
  const isUnion = (v: JsonSchema) => Object.keys(v).length === 1 && Array.isArray(v.anyOf);
  /** A definition, following definitions that are only a `$ref` to another. */
  const deref = (ref: string, seen = new Set<string>()): JsonSchema | undefined => {
    const key = ref.replace("#/$defs/", "");
    const def = defs[key];
    if (!def || seen.has(key)) return undefined;
    seen.add(key);
    return isRef(def) ? (deref(def.$ref as string, seen) ?? def) : def;
  };
  /** The name a chain of `$ref`-only definitions ends at. */
  const finalRef = (ref: string, seen = new Set<string>()): string => {
    const def = defs[ref.replace("#/$defs/", "")];
    if (!def || !isRef(def) || seen.has(ref)) return ref;
    seen.add(ref);
    return finalRef(def.$ref as string, seen);
  };
  /** Members of an anyOf, with members that refer to a union replaced by that union's members. */
  const unionMembers = (members: JsonSchema[], seen: Set<string>): JsonSchema[] =>
    members.flatMap((m) => {
      if (!isRef(m) || seen.has(m.$ref as string)) return [m];
      const target = deref(m.$ref as string);
      if (!target || !isUnion(target)) return [m];
      return unionMembers(target.anyOf as JsonSchema[], new Set([...seen, m.$ref as string]));
    });
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== "object") return value;
    let schema = value as JsonSchema;
    if (isRef(schema)) {
      const target = deref(schema.$ref as string);
      if (!target) return schema;
      // Inlined content is not visited again, so recursive aliases (JSONValue) stay finite.
      if (target.type !== "object" && !("properties" in target)) {
        return isUnion(target) ? { anyOf: unionMembers(target.anyOf as JsonSchema[], new Set()) } : target;
      }
      return { $ref: finalRef(schema.$ref as string) };
    }
    if (Array.isArray(schema.anyOf))
      schema = { ...schema, anyOf: unionMembers(schema.anyOf as JsonSchema[], new Set()) };
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, visit(v)]));
  };
  return Object.fromEntries(
    Object.entries(defs).map(([k, def]) => {
      // A definition that only names another is that other definition.
      const top = isRef(def) ? (deref(def.$ref as string) ?? def) : def;
      return [k, normalizeSchema(visit(top))];
    }),
  );
}

// The JSON Schemas a module is generated from, prepared for their two readers: the argument
// schema callers are held to, and the copy json-schema-to-typescript types are made from.
import type { JsonObject, PromptDefinition } from "./listing.js";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords whose value is one schema. */
const SCHEMA_VALUED = [
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/**
 * Annotations json-schema-to-typescript turns into type names or raw TypeScript: `title` and
 * `$id` would name (and so could clash between tools), `tsType` and `tsEnumNames` would paste
 * a server's text into the module as code.
 */
const NAMING_OR_CODE = ["title", "$id", "tsType", "tsEnumNames", "$schema"];
/** Keywords that let an object hold more than its `properties`, or combine it with other schemas. */
const OPENING = [
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "if",
  "not",
  "dependentSchemas",
];

/**
 * The schema callers are held to: a tool's `inputSchema` whose top level lists `properties` and
 * says nothing about other properties refuses them, so a misspelt argument is an error at compile
 * time and before sending, not an argument the server ignores. Anything deeper is as written.
 */
export function argumentSchema(schema: JsonObject): JsonObject {
  if (!isObject(schema.properties) || OPENING.some((k) => schema[k] !== undefined)) return schema;
  return { ...schema, additionalProperties: false };
}

/** A prompt's arguments as a JSON Schema: strings, the required ones required, no others. */
export function promptArgumentsSchema(prompt: PromptDefinition): JsonObject {
  const properties: JsonObject = {};
  for (const arg of prompt.arguments ?? []) {
    define(properties, arg.name, {
      type: "string",
      ...(arg.description !== undefined ? { description: arg.description } : {}),
    });
  }
  const required = (prompt.arguments ?? []).filter((a) => a.required === true).map((a) => a.name);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * Subschemas nested deeper than this below their schema (or definition) are moved into its
 * definitions: generated types and checks nest as deep as the schema, and formatting code nested
 * a few hundred levels deep overflows prettier's stack.
 */
const MAX_INLINE_DEPTH = 32;

/**
 * The same schema with every subschema MAX_INLINE_DEPTH levels deep moved into the definitions
 * and referred to by `$ref`, unless a `$ref` points at or into it. Validates the same values.
 */
export function flattened(schema: JsonObject): JsonObject {
  const defsKey = isObject(schema.definitions) && !isObject(schema.$defs) ? "definitions" : "$defs";
  const targets = refTargets(schema);
  const pinned = (path: string[]) => targets.some((t) => path.every((token, i) => t[i] === token));
  const existing = isObject(schema[defsKey]) ? (schema[defsKey] as JsonObject) : {};
  const hoisted: [string, unknown][] = [];
  let counter = 0;
  const nextKey = () => {
    let key: string;
    do key = `deep${++counter}`;
    while (Object.hasOwn(existing, key));
    return key;
  };
  const walk = (node: unknown, path: string[], depth: number): unknown => {
    if (!isObject(node)) return node;
    if (depth >= MAX_INLINE_DEPTH && !pinned(path)) {
      const key = nextKey();
      // Its place is taken before its own deep parts are moved, so definitions read top-down.
      const slot = hoisted.push([key, undefined]) - 1;
      hoisted[slot] = [key, walk(node, path, 0)];
      return { $ref: `#/${defsKey}/${key}` };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      let copied = value;
      if (SCHEMA_MAPS.includes(key) && isObject(value)) {
        // The definitions of the schema itself are roots of their own.
        const below = path.length === 0 && key === defsKey ? 0 : depth + 1;
        const map: JsonObject = {};
        for (const [name, sub] of Object.entries(value)) define(map, name, walk(sub, [...path, key, name], below));
        copied = map;
      } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        copied = value.map((sub, i) => walk(sub, [...path, key, String(i)], depth + 1));
      } else if (SCHEMA_VALUED.includes(key)) {
        copied = walk(value, [...path, key], depth + 1);
      }
      define(out, key, copied);
    }
    return out;
  };
  const result = walk(schema, [], 0) as JsonObject;
  if (hoisted.length === 0) return schema;
  const defs: JsonObject = { ...(isObject(result[defsKey]) ? (result[defsKey] as JsonObject) : {}) };
  for (const [key, value] of hoisted) define(defs, key, value);
  define(result, defsKey, defs);
  return result;
}

/** The JSON Pointers of the schema's own `$ref`s, as token lists. */
function refTargets(schema: JsonObject): string[][] {
  const targets: string[][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    if (!isObject(node)) return;
    if (typeof node.$ref === "string") {
      const tokens = pointerTokens(node.$ref);
      if (tokens) targets.push(tokens);
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
  return targets;
}

/** `#/a/b~1c` → ["a", "b/c"]; `#` → []; anything else (remote, anchors, bad escapes) → undefined. */
function pointerTokens(ref: string): string[] | undefined {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return undefined;
  try {
    return ref
      .slice(2)
      .split("/")
      .map((raw) => decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~"));
  } catch {
    return undefined;
  }
}

function define(target: JsonObject, key: string, value: unknown): void {
  // As data, so a key such as "__proto__" stays a key.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Descriptions become doc comments; past this length they are cut (the listing keeps them whole). */
export const MAX_DOC_LENGTH = 4000;

export function docText(text: string): string {
  return text.length > MAX_DOC_LENGTH
    ? `${text.slice(0, MAX_DOC_LENGTH)}… (cut: ${text.length} characters in all)`
    : text;
}

/**
 * The copy json-schema-to-typescript reads: naming and code-pasting annotations removed, long
 * descriptions cut (docText), and
 * `$ref`s it could not resolve inside the schema itself (remote, anchors, dangling pointers)
 * removed too, so they type as `unknown` (the validators report them as not checked).
 */
export function typingSchema(schema: JsonObject): JsonObject {
  const walk = (node: unknown): unknown => {
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (NAMING_OR_CODE.includes(key)) continue;
      if (key === "$ref" && !(typeof value === "string" && resolves(schema, value))) continue;
      let copied = value;
      if (key === "description" && typeof value === "string") {
        copied = docText(value);
      } else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
        const map: JsonObject = {};
        for (const [name, sub] of Object.entries(value)) define(map, name, walk(sub));
        copied = map;
      } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        copied = value.map(walk);
      } else if (SCHEMA_VALUED.includes(key)) {
        copied = walk(value);
      }
      define(out, key, copied);
    }
    return out;
  };
  return walk(schema) as JsonObject;
}

/** Whether a `$ref` is a JSON Pointer into the schema itself that leads somewhere. */
function resolves(root: JsonObject, ref: string): boolean {
  const tokens = pointerTokens(ref);
  if (!tokens) return false;
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < node.length)
      node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return false;
  }
  return isObject(node) || typeof node === "boolean";
}

// A JSON Schema (draft-07 or 2020-12, as tools publish them) → model declarations, so the one
// validator emitter checks tool arguments and results too. Every validation keyword the model
// can express is kept with its exact JSON Schema meaning; every other one is reported in
// `unsupported` (never silently dropped). Annotations are ignored.
import type { Constraints, Declaration, LiteralValue, Property, TypeNode } from "../model/model.js";

/** Plain `number` in a JSON Schema admits any number (the model's default otherwise is integer). */
export const JSON_SCHEMA_CONVENTIONS = { numberType: "number" } as const;

export interface JsonSchemaModel {
  declarations: Declaration[];
  /** The declaration of the schema itself. */
  root: string;
  /** Keywords no check exists for, each with the JSON Pointer where it appears. */
  unsupported: string[];
}

/** Nesting beyond this is refused rather than risking the stack. */
const MAX_NESTING = 256;

const UNCHECKED = [
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "patternProperties",
  "prefixItems",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
  "additionalItems",
];

const NUMERIC: (keyof Constraints)[] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const COUNTS: (keyof Constraints)[] = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
];

export class JsonSchemaError extends Error {}

type Json = { [key: string]: unknown };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A TypeScript identifier from any string: `get-weather` → `GetWeather`. */
export function pascalIdentifier(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(joined) ? joined : `T${joined}`;
}

export function jsonSchemaToModel(schema: unknown, rootName: string): JsonSchemaModel {
  const declarations: Declaration[] = [];
  const unsupported: string[] = [];
  const defNames = new Map<string, string>();
  const taken = new Set<string>([rootName]);
  let synthetic = 0;

  const unique = (base: string) => {
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    return name;
  };

  // Definitions first, so references can point at them.
  const root = isObject(schema) ? schema : undefined;
  const defsKey =
    root && isObject(root.$defs) ? "$defs" : root && isObject(root.definitions) ? "definitions" : undefined;
  const defs = defsKey ? (root?.[defsKey] as Json) : {};
  for (const key of Object.keys(defs))
    defNames.set(`#/${defsKey}/${escapePointer(key)}`, unique(`${rootName}$${pascalIdentifier(key)}`));

  const note = (keyword: string, at: string) => unsupported.push(`${keyword} at ${at || "/"}`);

  /** A sub-schema where the model cannot hang constraints: give it a declaration of its own. */
  const hoisted = (node: TypeNode, constraints: Constraints | undefined): TypeNode => {
    if (!constraints) return node;
    // "_<n>": apart from $defs names ("$<Pascal>") and hoisted guards ("$<n>").
    const name = unique(`${rootName}_${++synthetic}`);
    declarations.push({ kind: "alias", name, line: 0, type: node, constraints });
    return { kind: "ref", name };
  };

  const convert = (value: unknown, at: string, depth: number): { node: TypeNode; constraints?: Constraints } => {
    if (depth > MAX_NESTING) throw new JsonSchemaError(`schema nested more than ${MAX_NESTING} levels deep at ${at}`);
    if (value === true || (isObject(value) && Object.keys(value).length === 0))
      return { node: { kind: "primitive", name: "unknown" } };
    if (value === false) return { node: { kind: "primitive", name: "never" } };
    if (!isObject(value))
      throw new JsonSchemaError(`not a schema at ${at || "/"}: ${JSON.stringify(value)?.slice(0, 40)}`);
    for (const keyword of UNCHECKED) if (value[keyword] !== undefined) note(keyword, at);

    const parts: TypeNode[] = [];
    if (typeof value.$ref === "string") {
      const target = value.$ref === "#" ? rootName : defNames.get(value.$ref);
      if (target) parts.push({ kind: "ref", name: target });
      else note(`$ref ${value.$ref}`, at);
    }
    const literals = literalValues(value, at, note);
    if (literals) parts.push(union(literals.map(literalNode)));
    const typed = typeNode(value, at, depth);
    if (typed) parts.push(typed);
    const member = (list: unknown, keyword: string) =>
      Array.isArray(list) ? list.map((m, i) => convertInPlace(m, `${at}/${keyword}/${i}`, depth + 1)) : [];
    if (Array.isArray(value.anyOf)) parts.push(union(member(value.anyOf, "anyOf")));
    if (Array.isArray(value.oneOf)) {
      note("oneOf (checked as anyOf: at least one branch)", at);
      parts.push(union(member(value.oneOf, "oneOf")));
    }
    if (Array.isArray(value.allOf)) parts.push(...member(value.allOf, "allOf"));

    const node: TypeNode =
      parts.length === 0
        ? { kind: "primitive", name: "unknown" }
        : parts.length === 1
          ? (parts[0] as TypeNode)
          : { kind: "intersection", members: parts };
    const constraints = constraintsOf(value, at, note);
    return constraints ? { node, constraints } : { node };
  };

  /** A sub-schema in a position without its own constraints slot (items, union members). */
  const convertInPlace = (value: unknown, at: string, depth: number): TypeNode => {
    const { node, constraints } = convert(value, at, depth);
    return hoisted(node, constraints);
  };

  /** What the `type` keyword (or, without it, the type-specific keywords) allow. */
  const typeNode = (value: Json, at: string, depth: number): TypeNode | undefined => {
    const declared =
      typeof value.type === "string" ? [value.type] : Array.isArray(value.type) ? value.type.map(String) : undefined;
    const objectish = ["properties", "required", "additionalProperties"].some((k) => value[k] !== undefined);
    const arrayish = value.items !== undefined;
    if (!declared && !objectish && !arrayish) return undefined;
    // Without `type`, object and array keywords constrain only objects and arrays: other values pass.
    const types = declared ?? ["object", "array", "string", "number", "boolean", "null"];
    return union(
      types.map((type): TypeNode => {
        switch (type) {
          case "object":
            return objectNode(value, at, depth);
          case "array":
            return {
              kind: "array",
              items:
                value.items === undefined
                  ? { kind: "primitive", name: "unknown" }
                  : convertInPlace(value.items, `${at}/items`, depth + 1),
            };
          case "integer":
          case "number":
            // Which of the two: the schema's `jsonType` constraint (see constraintsOf).
            return { kind: "primitive", name: "number" };
          case "string":
          case "boolean":
          case "null":
            return { kind: "primitive", name: type };
          default:
            throw new JsonSchemaError(`unknown type "${type}" at ${at || "/"}`);
        }
      }),
    );
  };

  const objectNode = (value: Json, at: string, depth: number): TypeNode => {
    const required = new Set(Array.isArray(value.required) ? value.required.map(String) : []);
    const declared = isObject(value.properties) ? value.properties : {};
    const properties: Property[] = Object.entries(declared).map(([name, sub]) => {
      const { node, constraints } = convert(sub, `${at}/properties/${escapePointer(name)}`, depth + 1);
      return { name, optional: !required.has(name), type: node, ...(constraints ? { constraints } : {}) };
    });
    // A required property the schema does not describe must still be present.
    for (const name of required) {
      if (!(name in declared)) properties.push({ name, optional: false, type: { kind: "primitive", name: "unknown" } });
    }
    const extra = value.additionalProperties;
    if (extra === undefined || extra === true) return { kind: "object", properties };
    const { node, constraints } = convert(extra, `${at}/additionalProperties`, depth + 1);
    return {
      kind: "object",
      properties,
      indexSignature: { keyName: "key", keyType: "string", type: node, ...(constraints ? { constraints } : {}) },
    };
  };

  for (const [key, sub] of Object.entries(defs)) {
    const { node, constraints } = convert(sub, `/${defsKey}/${escapePointer(key)}`, 1);
    const name = defNames.get(`#/${defsKey}/${escapePointer(key)}`) as string;
    declarations.push({ kind: "alias", name, line: 0, type: node, ...(constraints ? { constraints } : {}) });
  }
  const top = convert(schema, "", 0);
  declarations.push({
    kind: "alias",
    name: rootName,
    line: 0,
    type: top.node,
    ...(top.constraints ? { constraints: top.constraints } : {}),
  });
  return { declarations, root: rootName, unsupported };
}

function literalValues(
  value: Json,
  at: string,
  note: (k: string, at: string) => void,
): (LiteralValue | null)[] | undefined {
  const list = value.const !== undefined ? [value.const] : Array.isArray(value.enum) ? value.enum : undefined;
  if (!list) return undefined;
  const primitive = list.filter(
    (v): v is LiteralValue | null => v === null || ["string", "number", "boolean"].includes(typeof v),
  );
  if (primitive.length !== list.length)
    note(`${value.const !== undefined ? "const" : "enum"} with object or array values`, at);
  return primitive;
}

function literalNode(value: LiteralValue | null): TypeNode {
  return value === null ? { kind: "primitive", name: "null" } : { kind: "literal", value };
}

function union(members: TypeNode[]): TypeNode {
  if (members.length === 0) return { kind: "primitive", name: "never" };
  return members.length === 1 ? (members[0] as TypeNode) : { kind: "union", members };
}

function constraintsOf(value: Json, at: string, note: (k: string, at: string) => void): Constraints | undefined {
  const out: Record<string, unknown> = {};
  const types = typeof value.type === "string" ? [value.type] : Array.isArray(value.type) ? value.type : undefined;
  // `number` admits integers too; a plain `integer` narrows it.
  if (types?.includes("number")) out.jsonType = "number";
  else if (types?.includes("integer")) out.jsonType = "integer";
  for (const key of [...NUMERIC, ...COUNTS]) {
    const v = value[key];
    if (typeof v === "number" && Number.isFinite(v)) out[key] = v;
    else if (v !== undefined) note(`${key} (not a number)`, at);
  }
  // draft-04 style boolean exclusive bounds.
  if (typeof value.exclusiveMinimum === "boolean" || typeof value.exclusiveMaximum === "boolean")
    note("boolean exclusiveMinimum/exclusiveMaximum", at);
  if (typeof value.pattern === "string") {
    try {
      new RegExp(value.pattern, "u");
      out.pattern = value.pattern;
    } catch {
      note(`pattern ${JSON.stringify(value.pattern)} (not a valid regular expression)`, at);
    }
  }
  if (typeof value.format === "string") out.format = value.format;
  if (value.uniqueItems === true) out.uniqueItems = true;
  return Object.keys(out).length > 0 ? (out as Constraints) : undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

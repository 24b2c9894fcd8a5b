// The header annotations of a tool's input schema (`x-mcp-header` at 2026-07-28): which argument
// travels in which Mcp-Param-{name} header, and whether the annotations keep the rules a client
// must enforce before it offers the tool. The keyword comes from the revision's binding. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters
import { isObject } from "../jsonrpc.js";

/** One annotated argument: its header name and the property names leading to it from the root. */
export interface HeaderAnnotation {
  readonly name: string;
  readonly path: readonly string[];
}

/** RFC 9110 `token`: what a header's name is made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The JSON types an annotated argument may have (`null` meaning "no header"). */
const PRIMITIVE_TYPES = new Set(["string", "integer", "boolean"]);

/** JSON Schema 2020-12 (and draft-07) keywords whose values are schemas, maps of them or lists of them. */
const SCHEMA_KEYWORDS = [
  "additionalProperties",
  "additionalItems",
  "contains",
  "if",
  "then",
  "else",
  "not",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "items",
];
const SCHEMA_MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/** The steps from the root to a subschema, newest first: shared by every subschema below it. */
interface Steps {
  readonly step: string;
  readonly parent: Steps | undefined;
}

interface Visit {
  readonly schema: unknown;
  readonly steps: Steps | undefined;
  /** Only `properties` led here (every step names a property). */
  readonly reachable: boolean;
}

function unwind(steps: Steps | undefined): string[] {
  const names: string[] = [];
  for (let at = steps; at !== undefined; at = at.parent) names.push(at.step);
  return names.reverse();
}

/**
 * The annotations of an input schema, or why the tool must not be offered: an annotation that is
 * not a header name, repeats another one (ignoring case), marks a value that is not a string,
 * integer or boolean, or sits anywhere but on a property reached through `properties` alone.
 * Every subschema is visited, iteratively and sharing the steps that lead to it, so a schema of
 * any depth and size is read in linear time.
 */
export function readAnnotations(schema: unknown, keyword: string): readonly HeaderAnnotation[] | string {
  const found: HeaderAnnotation[] = [];
  const names = new Set<string>();
  const stack: Visit[] = [{ schema, steps: undefined, reachable: true }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { schema: node, steps, reachable } = visit;
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, keyword)) {
      const name = node[keyword];
      const where = ["the input schema", ...unwind(steps)].join(" › ");
      if (!reachable || steps === undefined)
        return `${keyword} at ${where} is not on a property reached through properties alone`;
      if (typeof name !== "string" || !TOKEN.test(name))
        return `${keyword} ${JSON.stringify(name)} at ${where} is not a header name`;
      if (names.has(name.toLowerCase())) return `${keyword} ${JSON.stringify(name)} is used twice (ignoring case)`;
      if (!primitive(node["type"]))
        return `${keyword} ${JSON.stringify(name)} marks ${where}, whose type is not string, integer or boolean`;
      names.add(name.toLowerCase());
      found.push({ name, path: unwind(steps) });
    }
    const elsewhere = (child: unknown, step: string) => {
      if (isObject(child)) stack.push({ schema: child, steps: { step, parent: steps }, reachable: false });
    };
    for (const keywordName of SCHEMA_KEYWORDS) elsewhere(node[keywordName], keywordName);
    for (const keywordName of SCHEMA_MAPS) {
      const map = node[keywordName];
      if (isObject(map)) for (const [key, child] of Object.entries(map)) elsewhere(child, `${keywordName} › ${key}`);
    }
    for (const keywordName of SCHEMA_LISTS) {
      const list = node[keywordName];
      if (Array.isArray(list)) list.forEach((child, i) => elsewhere(child, `${keywordName}[${i}]`));
    }
    // Pushed last, and in reverse, so that annotations are found in the schema's own order.
    const properties = node["properties"];
    if (isObject(properties))
      for (const [key, child] of Object.entries(properties).reverse())
        stack.push({ schema: child, steps: { step: key, parent: steps }, reachable });
  }
  return found;
}

/** A `type` of string, integer or boolean (a list of them, `null` allowed besides). */
function primitive(type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const values = types.filter((t) => t !== "null");
  return values.length > 0 && values.every((t) => typeof t === "string" && PRIMITIVE_TYPES.has(t));
}

/** The value at an annotation's path in a call's arguments, if there is one. */
export function annotatedValue(args: unknown, annotation: HeaderAnnotation): unknown {
  let node = args;
  for (const key of annotation.path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

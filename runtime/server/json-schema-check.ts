// Run-time checks for plain JSON Schema literals given to the registry (tool arguments and
// structured output, prompt arguments). The schema is compiled once, when it is registered, into
// a tree of small closures: no code is generated at run time (no eval, so it runs where a
// Content-Security-Policy forbids it) and no keyword is looked up per call. Keywords that
// constrain values and are not implemented are refused at registration, never silently skipped;
// `format` is an annotation, as JSON Schema 2020-12 makes it by default. See docs/decisions.md.
import type { JsonSchemaObject } from "./json-schema.js";

/** One failure: a JSON Pointer into the value, and what was expected there. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/** `out` collects issues; without it a check stops at the first failure and only answers. */
type Check = (value: unknown, path: string, out: SchemaIssue[] | undefined) => boolean;

/** Constraining keywords this checker does not implement: a schema using one is refused. */
const UNSUPPORTED = [
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "dependencies",
  "$dynamicRef",
  "$recursiveRef",
];

/** Compiles a JSON Schema into a check that gives the issues of a value (empty: valid). */
export function compileJsonSchema(schema: JsonSchemaObject | boolean): (value: unknown) => SchemaIssue[] {
  const compiler = new Compiler(schema);
  const check = compiler.compile(schema, "#");
  return (value) => {
    const out: SchemaIssue[] = [];
    check(value, "", out);
    return out;
  };
}

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function fail(out: SchemaIssue[] | undefined, path: string, message: string): false {
  out?.push({ path, message });
  return false;
}

const isObject = (value: unknown): value is { [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Structural equality of JSON values, for `const`, `enum` and `uniqueItems`. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

class Compiler {
  /** Compiled subschemas by object, so `$ref` cycles (recursive schemas) compile once. */
  private readonly compiled = new Map<object, Check>();
  private readonly anchors = new Map<string, JsonSchemaObject>();

  private readonly root: JsonSchemaObject | boolean;

  constructor(root: JsonSchemaObject | boolean) {
    this.root = root;
    this.collectAnchors(root);
  }

  private collectAnchors(node: unknown): void {
    if (Array.isArray(node)) return node.forEach((n) => this.collectAnchors(n));
    if (!isObject(node)) return;
    if (typeof node["$anchor"] === "string") this.anchors.set(node["$anchor"], node);
    for (const value of Object.values(node)) this.collectAnchors(value);
  }

  compile(schema: unknown, where: string): Check {
    if (schema === true) return () => true;
    if (schema === false) return (_v, path, out) => fail(out, path, "no value is allowed here");
    if (!isObject(schema)) throw new TypeError(`${where}: a JSON Schema is an object or a boolean`);
    const known = this.compiled.get(schema);
    if (known) return known;
    // Filled in below; a `$ref` back to this schema calls through the slot meanwhile.
    let body: Check = () => true;
    const slot: Check = (value, path, out) => body(value, path, out);
    this.compiled.set(schema, slot);
    const checks = this.keywords(schema, where);
    body =
      checks.length === 1
        ? (checks[0] as Check)
        : (value, path, out) => {
            let ok = true;
            for (const check of checks) {
              if (check(value, path, out)) continue;
              ok = false;
              if (!out) return false;
            }
            return ok;
          };
    return slot;
  }

  private keywords(s: JsonSchemaObject, where: string): Check[] {
    for (const keyword of UNSUPPORTED)
      if (s[keyword] !== undefined) throw new TypeError(`${where}: the keyword ${keyword} is not supported`);
    const checks: Check[] = [];
    const ref = s["$ref"];
    if (typeof ref === "string") checks.push(this.reference(ref, where));
    const type = s["type"];
    if (type !== undefined) checks.push(typeCheck(type, where));
    if (s["const"] !== undefined) {
      const expected = s["const"];
      checks.push((v, path, out) => equal(v, expected) || fail(out, path, `expected ${JSON.stringify(expected)}`));
    }
    if (Array.isArray(s["enum"])) {
      const values = s["enum"] as unknown[];
      const text = values.map((v) => JSON.stringify(v)).join(" | ");
      checks.push((v, path, out) => values.some((e) => equal(v, e)) || fail(out, path, `expected ${text}`));
    }
    checks.push(...this.numbers(s), ...this.strings(s, where), ...this.arrays(s, where), ...this.objects(s, where));
    checks.push(...this.combinators(s, where));
    return checks.length > 0 ? checks : [() => true];
  }

  private reference(ref: string, where: string): Check {
    let target: unknown;
    if (ref === "#") target = this.root;
    else if (ref.startsWith("#/")) {
      target = this.root;
      for (const raw of ref.slice(2).split("/")) {
        const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
        target = isObject(target) || Array.isArray(target) ? (target as Record<string, unknown>)[key] : undefined;
      }
    } else if (ref.startsWith("#")) target = this.anchors.get(ref.slice(1));
    if (target === undefined) throw new TypeError(`${where}: $ref ${ref} does not resolve inside the schema`);
    // Compiled on first use: the target may still be being compiled (a recursive schema).
    let check: Check | undefined;
    return (value, path, out) => (check ??= this.compile(target, ref))(value, path, out);
  }

  private numbers(s: JsonSchemaObject): Check[] {
    const checks: Check[] = [];
    const bound = (keyword: string, ok: (v: number, limit: number) => boolean, says: string) => {
      const limit = s[keyword];
      if (typeof limit !== "number") return;
      checks.push(
        (v, path, out) => typeof v !== "number" || ok(v, limit) || fail(out, path, `expected ${says} ${limit}`),
      );
    };
    bound("minimum", (v, l) => v >= l, ">=");
    bound("maximum", (v, l) => v <= l, "<=");
    bound("exclusiveMinimum", (v, l) => v > l, ">");
    bound("exclusiveMaximum", (v, l) => v < l, "<");
    bound("multipleOf", (v, l) => Number.isInteger(v / l), "a multiple of");
    return checks;
  }

  private strings(s: JsonSchemaObject, where: string): Check[] {
    const checks: Check[] = [];
    // In code points, as JSON Schema counts: the string's iterator steps over surrogate pairs.
    const length = (v: string) => {
      let n = 0;
      for (const step = v[Symbol.iterator](); !step.next().done;) n++;
      return n;
    };
    const min = s["minLength"];
    if (typeof min === "number")
      checks.push(
        (v, path, out) =>
          typeof v !== "string" || length(v) >= min || fail(out, path, `expected at least ${min} characters`),
      );
    const max = s["maxLength"];
    if (typeof max === "number")
      checks.push(
        (v, path, out) =>
          typeof v !== "string" || length(v) <= max || fail(out, path, `expected at most ${max} characters`),
      );
    const pattern = s["pattern"];
    if (typeof pattern === "string") {
      const regex = compilePattern(pattern, where);
      checks.push(
        (v, path, out) =>
          typeof v !== "string" || regex.test(v) || fail(out, path, `expected to match ${JSON.stringify(pattern)}`),
      );
    }
    return checks;
  }

  private arrays(s: JsonSchemaObject, where: string): Check[] {
    const checks: Check[] = [];
    const prefix = Array.isArray(s["prefixItems"])
      ? (s["prefixItems"] as unknown[])
      : Array.isArray(s["items"])
        ? (s["items"] as unknown[]) // draft-07 tuples
        : [];
    const prefixChecks = prefix.map((p, i) => this.compile(p, `${where}/prefixItems/${i}`));
    const restSchema = Array.isArray(s["items"]) ? s["additionalItems"] : s["items"];
    const rest = restSchema === undefined ? undefined : this.compile(restSchema, `${where}/items`);
    if (prefixChecks.length > 0 || rest)
      checks.push((v, path, out) => {
        if (!Array.isArray(v)) return true;
        let ok = true;
        for (let i = 0; i < v.length; i++) {
          const check = i < prefixChecks.length ? prefixChecks[i] : rest;
          if (check && !check(v[i], out ? pointer(path, i) : path, out)) {
            ok = false;
            if (!out) return false;
          }
        }
        return ok;
      });
    const minItems = s["minItems"];
    if (typeof minItems === "number")
      checks.push(
        (v, path, out) =>
          !Array.isArray(v) || v.length >= minItems || fail(out, path, `expected at least ${minItems} items`),
      );
    const maxItems = s["maxItems"];
    if (typeof maxItems === "number")
      checks.push(
        (v, path, out) =>
          !Array.isArray(v) || v.length <= maxItems || fail(out, path, `expected at most ${maxItems} items`),
      );
    if (s["uniqueItems"] === true)
      checks.push(
        (v, path, out) =>
          !Array.isArray(v) ||
          v.every((x, i) => v.findIndex((y) => equal(x, y)) === i) ||
          fail(out, path, "expected unique items"),
      );
    if (s["contains"] !== undefined) {
      const contains = this.compile(s["contains"], `${where}/contains`);
      const least = typeof s["minContains"] === "number" ? s["minContains"] : 1;
      const most = typeof s["maxContains"] === "number" ? s["maxContains"] : Infinity;
      checks.push((v, path, out) => {
        if (!Array.isArray(v)) return true;
        const n = v.filter((x) => contains(x, path, undefined)).length;
        return (n >= least && n <= most) || fail(out, path, `expected between ${least} and ${most} matching items`);
      });
    }
    return checks;
  }

  private objects(s: JsonSchemaObject, where: string): Check[] {
    const checks: Check[] = [];
    const required = Array.isArray(s["required"]) ? (s["required"] as string[]) : [];
    if (required.length > 0)
      checks.push((v, path, out) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const key of required) {
          if (Object.hasOwn(v, key) && v[key] !== undefined) continue;
          ok = fail(out, pointer(path, key), "required property is missing");
          if (!out) return false;
        }
        return ok;
      });
    const properties = isObject(s["properties"]) ? s["properties"] : {};
    const named = new Map(
      Object.entries(properties).map(([key, sub]) => [key, this.compile(sub, `${where}/properties/${key}`)]),
    );
    const patterns = Object.entries(isObject(s["patternProperties"]) ? s["patternProperties"] : {}).map(
      ([pattern, sub]) => [compilePattern(pattern, where), this.compile(sub, `${where}/patternProperties`)] as const,
    );
    const additional = s["additionalProperties"];
    const others = additional === undefined ? undefined : this.compile(additional, `${where}/additionalProperties`);
    const names = s["propertyNames"] === undefined ? undefined : this.compile(s["propertyNames"], where);
    if (named.size > 0 || patterns.length > 0 || others || names)
      checks.push((v, path, out) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const key in v) {
          if (!Object.hasOwn(v, key)) continue;
          const value = v[key];
          if (value === undefined) continue; // an undefined property counts as absent, as in JSON
          const at = out ? pointer(path, key) : path;
          let matched = false;
          const own = named.get(key);
          if (own) {
            matched = true;
            if (!own(value, at, out)) ok = false;
          }
          for (const [regex, check] of patterns) {
            if (!regex.test(key)) continue;
            matched = true;
            if (!check(value, at, out)) ok = false;
          }
          if (!matched && others && !others(value, at, out)) ok = false;
          if (names && !names(key, at, out)) ok = false;
          if (!ok && !out) return false;
        }
        return ok;
      });
    const count = (v: { [key: string]: unknown }) => Object.keys(v).length;
    const minProps = s["minProperties"];
    if (typeof minProps === "number")
      checks.push(
        (v, path, out) =>
          !isObject(v) || count(v) >= minProps || fail(out, path, `expected at least ${minProps} properties`),
      );
    const maxProps = s["maxProperties"];
    if (typeof maxProps === "number")
      checks.push(
        (v, path, out) =>
          !isObject(v) || count(v) <= maxProps || fail(out, path, `expected at most ${maxProps} properties`),
      );
    const dependent = isObject(s["dependentRequired"]) ? s["dependentRequired"] : {};
    for (const [key, needs] of Object.entries(dependent)) {
      if (!Array.isArray(needs)) continue;
      checks.push((v, path, out) => {
        if (!isObject(v) || !Object.hasOwn(v, key)) return true;
        const missing = (needs as string[]).filter((n) => !Object.hasOwn(v, n));
        return missing.length === 0 || fail(out, pointer(path, missing[0] as string), `required with ${key}`);
      });
    }
    return checks;
  }

  private combinators(s: JsonSchemaObject, where: string): Check[] {
    const checks: Check[] = [];
    const list = (keyword: string) =>
      Array.isArray(s[keyword])
        ? (s[keyword] as unknown[]).map((sub, i) => this.compile(sub, `${where}/${keyword}/${i}`))
        : undefined;
    const all = list("allOf");
    if (all)
      checks.push((v, path, out) => {
        let ok = true;
        for (const check of all) {
          if (check(v, path, out)) continue;
          ok = false;
          if (!out) return false;
        }
        return ok;
      });
    const any = list("anyOf");
    if (any) checks.push((v, path, out) => any.some((c) => c(v, path, undefined)) || closest(any, v, path, out));
    const one = list("oneOf");
    if (one)
      checks.push((v, path, out) => {
        const passing = one.filter((c) => c(v, path, undefined)).length;
        if (passing === 1) return true;
        if (passing > 1)
          return fail(out, path, `expected exactly one of ${one.length} schemas to match, ${passing} did`);
        return closest(one, v, path, out);
      });
    if (s["not"] !== undefined) {
      const not = this.compile(s["not"], `${where}/not`);
      checks.push((v, path, out) => !not(v, path, undefined) || fail(out, path, "expected not to match a schema"));
    }
    if (s["if"] !== undefined) {
      const test = this.compile(s["if"], `${where}/if`);
      const then = s["then"] === undefined ? undefined : this.compile(s["then"], `${where}/then`);
      const otherwise = s["else"] === undefined ? undefined : this.compile(s["else"], `${where}/else`);
      checks.push((v, path, out) => {
        const branch = test(v, path, undefined) ? then : otherwise;
        return branch ? branch(v, path, out) : true;
      });
    }
    return checks;
  }
}

/**
 * A schema's regular expression: with the Unicode flag where it compiles so (code points, as
 * JSON Schema means), else without it, since many patterns in use escape characters (`\-`) that
 * the Unicode flag refuses.
 */
function compilePattern(pattern: string, where: string): RegExp {
  for (const flags of ["u", ""])
    try {
      return new RegExp(pattern, flags);
    } catch {
      // Try the next reading.
    }
  throw new TypeError(`${where}: pattern ${JSON.stringify(pattern)} is not a regular expression`);
}

/** No member matched: report the member whose first issue lies deepest in the value. */
function closest(members: Check[], value: unknown, path: string, out: SchemaIssue[] | undefined): false {
  if (!out) return false;
  let best: SchemaIssue[] = [];
  for (const member of members) {
    const issues: SchemaIssue[] = [];
    member(value, path, issues);
    if (best.length === 0 || (issues[0]?.path.length ?? 0) > (best[0]?.path.length ?? 0)) best = issues;
  }
  out.push(...best);
  return false;
}

function typeCheck(type: unknown, where: string): Check {
  const types = Array.isArray(type) ? type : [type];
  for (const t of types)
    if (!["string", "number", "integer", "boolean", "null", "array", "object"].includes(t as string))
      throw new TypeError(`${where}: unknown type ${JSON.stringify(t)}`);
  const wanted = new Set(types as string[]);
  const text = [...wanted].join(" | ");
  return (v, path, out) => {
    const kind = kindOf(v);
    if (wanted.has(kind) || (kind === "integer" && wanted.has("number"))) {
      return typeof v !== "number" || Number.isFinite(v) || fail(out, path, `expected ${text}, got ${v}`);
    }
    return fail(out, path, `expected ${text}, got ${kind === "integer" ? "number" : kind}`);
  };
}

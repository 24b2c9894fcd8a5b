// A tool's or prompt's schema as the registry uses it, whatever it was written in: a Standard
// Schema that also gives its JSON Schema (Zod 4, Valibot through toStandardJsonSchema, ArkType),
// or a plain JSON Schema literal. Both become the JSON Schema to list and one check to run.
import { compileJsonSchema, type SchemaIssue } from "./json-schema-check.js";
import type { FromJsonSchema, JsonSchemaObject } from "./json-schema.js";
import type { StandardSchemaV1, StandardSchemaWithJSON } from "./standard-schema.js";

export type { SchemaIssue } from "./json-schema-check.js";

/** What a tool's `inputSchema` / `outputSchema` or a prompt's `argsSchema` may be. */
export type Schema = StandardSchemaWithJSON | JsonSchemaObject;

/** What a handler receives for a schema: the parsed value (a Standard Schema's output). */
export type Parsed<S> = S extends StandardSchemaWithJSON
  ? StandardSchemaV1.InferOutput<S>
  : S extends JsonSchemaObject
    ? FromJsonSchema<S>
    : never;

/** What a handler must give for a schema: a value it accepts (a Standard Schema's input). */
export type Accepted<S> = S extends StandardSchemaWithJSON
  ? StandardSchemaV1.InferInput<S>
  : S extends JsonSchemaObject
    ? FromJsonSchema<S>
    : never;

export type Verdict =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: SchemaIssue[] };

export interface CompiledSchema {
  /** The JSON Schema to list. */
  readonly json: { [key: string]: unknown };
  /** Synchronous where the schema is (JSON Schema literals, Zod, Valibot, ArkType without async parts). */
  check(value: unknown): Verdict | Promise<Verdict>;
}

const isStandard = (schema: Schema): schema is StandardSchemaWithJSON =>
  typeof (schema as StandardSchemaWithJSON)["~standard"] === "object";

/**
 * `side`: "input" for what arrives (arguments), "output" for what is sent (structured content),
 * the Standard JSON Schema side that describes the value on the wire.
 */
export function compileSchema(schema: Schema, side: "input" | "output", where: string): CompiledSchema {
  if (!isStandard(schema)) {
    let issuesOf: (value: unknown) => SchemaIssue[];
    try {
      issuesOf = compileJsonSchema(schema);
    } catch (error) {
      throw new TypeError(`${where}: ${(error as Error).message}`, { cause: error });
    }
    return {
      json: schema as { [key: string]: unknown },
      check(value) {
        const issues = issuesOf(value);
        return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
      },
    };
  }
  const standard = schema["~standard"];
  if (typeof standard.jsonSchema?.[side] !== "function")
    throw new TypeError(
      `${where}: this ${standard.vendor} schema does not give its JSON Schema (Standard JSON Schema)`,
    );
  // The 2020-12 dialect is the protocol's default since 2025-11-25; earlier clients assumed
  // draft-07 and some refuse a $schema they do not know, so the key is left out.
  const json = { ...standard.jsonSchema[side]({ target: "draft-2020-12" }) };
  delete json["$schema"];
  const verdict = (result: StandardSchemaV1.Result<unknown>): Verdict =>
    result.issues ? { ok: false, issues: result.issues.map(toIssue) } : { ok: true, value: result.value };
  return {
    json,
    check(value) {
      const result = standard.validate(value);
      return result instanceof Promise ? result.then(verdict) : verdict(result);
    },
  };
}

function toIssue(issue: StandardSchemaV1.Issue): SchemaIssue {
  const path = (issue.path ?? [])
    .map((segment) => String(typeof segment === "object" ? segment.key : segment))
    .map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`)
    .join("");
  return { path, message: issue.message };
}

/** Issues as one line: `/b: expected number, got string; /c: required property is missing`. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; ");
}

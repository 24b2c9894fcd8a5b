// Validators generated from arbitrary JSON Schemas (tool input and output schemas) agree with
// ajv on every instance, and report the keywords they cannot check.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTypeScript } from "../generators/emit/render.js";
import { schemaValidators, type NamedSchema } from "../generators/emit/schema-validators.js";
import { jsonSchemaToModel } from "../generators/parse/json-schema.js";
import { ProbeGenerator } from "./support/probes.js";

/** Schemas exercising every keyword the converter checks, in the shapes tools publish. */
const SCHEMAS: Record<string, Record<string, unknown>> = {
  Weather: {
    type: "object",
    properties: {
      city: { type: "string", minLength: 1, maxLength: 40 },
      days: { type: "integer", minimum: 1, maximum: 14 },
      units: { type: "string", enum: ["metric", "imperial"] },
      detailed: { type: "boolean" },
    },
    required: ["city"],
  },
  Closed: {
    type: "object",
    properties: { a: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5 } },
    additionalProperties: false,
  },
  MapOfCounts: { type: "object", additionalProperties: { type: "integer", minimum: 0 }, maxProperties: 3 },
  Tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, minItems: 1, uniqueItems: true },
  Nullable: { type: ["string", "null"], format: "uri" },
  Either: { anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] },
  Both: { allOf: [{ type: "object", required: ["x"] }, { properties: { x: { const: 3 } } }] },
  Untyped: { properties: { n: { type: "number" } }, required: ["n"] },
  Tree: {
    $defs: {
      node: {
        type: "object",
        properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["value"],
      },
    },
    $ref: "#/$defs/node",
  },
  Legacy: {
    definitions: {
      point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
    },
    type: "object",
    properties: { from: { $ref: "#/definitions/point" }, to: { $ref: "#/definitions/point" } },
  },
  Anything: {},
  Literal: { const: "fixed" },
  Mixed: { enum: ["a", 1, true, null] },
};

const named: NamedSchema[] = Object.entries(SCHEMAS).map(([name, schema]) => ({ name, schema }));

async function load(): Promise<Record<string, { validate(v: unknown): { ok: boolean }; is(v: unknown): boolean }>> {
  const { source } = schemaValidators(named);
  // Inside the repository so vitest can import it; git-ignored with node_modules.
  const dir = join(resolve("node_modules"), ".cache", "mcp-gen-tests");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "schema-validators.ts");
  writeFileSync(file, await formatTypeScript(source, file));
  return ((await import(/* @vite-ignore */ file)) as { validators: never }).validators;
}

function ajvFor(schema: Record<string, unknown>) {
  const draft2020 = schema.definitions === undefined;
  const ajv = draft2020 ? new Ajv2020Module.default({ strict: false }) : new AjvModule.default({ strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe("validators generated from JSON Schemas", async () => {
  const validators = await load();

  it.each(Object.keys(SCHEMAS))("%s: agrees with ajv on probes and random JSON", (name) => {
    const schema = SCHEMAS[name] as Record<string, unknown>;
    const ajv = ajvFor(schema);
    const ours = validators[name] as { validate(v: unknown): { ok: boolean }; is(v: unknown): boolean };
    const defs = (schema.$defs ?? schema.definitions ?? {}) as Record<string, Record<string, unknown>>;
    const probes = new ProbeGenerator(defs).probes(schema.$ref ? (defs.node as Record<string, unknown>) : schema);
    const random = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 300, seed: 42 });
    const disagreements = [...probes, ...random]
      .map((value) => JSON.parse(JSON.stringify(value ?? null)) as unknown)
      .filter((value) => ours.validate(value).ok !== ajv(value) || ours.is(value) !== ajv(value))
      .map((value) => JSON.stringify(value));
    expect(disagreements).toEqual([]);
  });

  it("reports what it cannot check, with where", () => {
    const { unsupported } = schemaValidators([
      {
        name: "Odd",
        schema: {
          type: "object",
          properties: { a: { not: { type: "string" } }, b: { type: "string", format: "email" } },
          if: {},
          then: {},
        },
      },
    ]);
    expect([...unsupported].sort()).toEqual(
      ["Odd: if at /", "Odd: not at /properties/a", "Odd: then at /", 'format "email"'].sort(),
    );
  });

  it("refuses a schema nested deeper than it can check, with a clear error", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 300; i++) deep = { type: "array", items: deep };
    expect(() => jsonSchemaToModel(deep, "Deep")).toThrow(/nested more than 256 levels deep at \/items\/items/);
    expect(() => jsonSchemaToModel({ type: "object", properties: { a: 5 } }, "Bad")).toThrow(
      "not a schema at /properties/a: 5",
    );
  });
});

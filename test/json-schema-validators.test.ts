// Validators generated from arbitrary JSON Schemas (tool input and output schemas) agree with
// ajv on every instance, and report the keywords they cannot check. The string formats that only
// tool schemas use are compared with ajv-formats (full mode) string by string, on generated and
// hand-picked strings, and checked on 50 MB strings.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTypeScript } from "../generators/emit/render.js";
import { schemaValidators, type NamedSchema } from "../generators/emit/schema-validators.js";
import { FORMATS } from "../generators/emit/validate/formats.js";
import { jsonSchemaToModel } from "../generators/parse/json-schema.js";
import { formatStrings } from "./support/arbitraries.js";
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

interface Validator {
  validate(v: unknown): { ok: boolean };
  is(v: unknown): boolean;
}

async function load(schemas: NamedSchema[], fileName: string): Promise<Record<string, Validator>> {
  const { source } = schemaValidators(schemas);
  // Inside the repository so vitest can import it; git-ignored with node_modules.
  const dir = join(resolve("node_modules"), ".cache", "mcp-gen-tests");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, fileName);
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
  const validators = await load(named, "schema-validators.ts");

  it.each(Object.keys(SCHEMAS))("%s: agrees with ajv on probes and random JSON", (name) => {
    const schema = SCHEMAS[name] as Record<string, unknown>;
    const ajv = ajvFor(schema);
    const ours = validators[name] as Validator;
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
          properties: {
            a: { not: { type: "string" } },
            b: { type: "string", format: "uri-reference" },
            c: { type: "string", format: "email" },
          },
          if: {},
          then: {},
        },
      },
    ]);
    expect([...unsupported].sort()).toEqual(
      ["Odd: if at /", "Odd: not at /properties/a", "Odd: then at /", 'format "uri-reference"'].sort(),
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

/** Compared on the protocol's own schemas, which use them (validators-differential.test.ts). */
const PROTOCOL_FORMATS = ["byte", "uri", "uri-template"];
const TOOL_FORMATS = Object.keys(FORMATS).filter((f) => !PROTOCOL_FORMATS.includes(f));
/** Generated strings compared per format. */
const STRINGS_PER_FORMAT = 3_000;
const MB = 1024 * 1024;

/**
 * Non-ASCII letters whose case maps onto an ASCII letter (long s, Kelvin sign, dotless i): the
 * case-insensitive patterns of ajv-formats do not match them (no u flag), so neither do we.
 */
const CASE_FOLDING = ["\u017f", "\u212a", "\u0131"];

/** Strings on the edge of each rule, compared besides the generated ones. */
const FORMAT_EDGES: Record<string, string[]> = {
  date: [
    ...["2020", "2021", "2000", "1900", "0000", "2400", "2100", "0004", "0100"].map((y) => `${y}-02-29`),
    ...["2020-02-30", "2020-01-31", "2020-04-31", "2020-06-30", "2020-11-31", "2020-12-31", "2020-12-32"],
    ...["2020-13-01", "2020-00-10", "2020-01-00", "2020-1-01", "20200-01-01", "2020-01-01 ", "2020/01/01", ""],
    "\uff12\uff10\uff12\uff10-01-01",
  ],
  time: [
    ...["23:59:60Z", "23:59:60.5Z", "23:59:60.999999z", "23:59:61Z", "12:00:60Z", "23:58:60Z", "24:00:00Z"],
    ...["00:59:60+01:00", "00:59:60+0100", "00:59:60+01", "23:59:60-00:01", "22:59:60-01:00", "00:00:60+00:01"],
    ...["24:59:30+01", "23:99:00+00:40", "12:00:59.99999999999999999Z", "12:00:59.9999999999999Z"],
    ...["12:00:00", "12:00:00+05:30", "12:00:00+0530", "12:00:00+05:3", "12:00:00+05:", "12:00:00.Z"],
    ...["12:00:00+24:00", "12:00:00+23:60", "12:00:00-23:59", "1:00:00Z", "12:00:00.123456789012Z"],
    ...["12:00:00ZZ", "12:00:00 Z", "12:00Z", "12:00:00+05:30:00"],
  ],
  "date-time": [
    ...["2020-02-29T23:59:60Z", "2021-02-29T00:00:00Z", "2020-01-01t00:00:00z", "2020-01-01 00:00:00Z"],
    ...["2020-01-01\u00a000:00:00Z", "2020-01-01\u200b00:00:00Z", "2020-01-01\ufeff00:00:00Z", "2020-01-01\n00:00:00Z"],
    ...["2020-01-01TT00:00:00Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00+01:00", "2020-01-01", "T00:00:00Z"],
    ...["2020-01-01T00:00:00Z ", "2020-01-01T24:59:60+01:00", "2020-01-01T00:00:00.1-00:00"],
  ],
  email: [
    ...["a@b.c", "a@b", "a.b@c.d", ".a@b.c", "a.@b.c", "a..b@c.d", "a@-b.c", "a@b-.c", "a@b..c", "a@@b.c"],
    ...["é@b.c", "a@é.c", "a@b.c.", '"a"@b.c', "a@[1.2.3.4]", "user+tag@example.co.uk", "!#$%&'*+/=?^_`{|}~-@x.y"],
    ...["a@1.2", "a@b_c.d", "a b@c.d", "@b.c", "a@", "a@b.c-d.e", `a@${"b".repeat(300)}.c`],
    ...CASE_FOLDING.flatMap((c) => [`${c}@b.c`, `a@${c}.c`]),
  ],
  uuid: [
    ...["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"],
    ...["urn:uuid:123e4567-e89b-12d3-a456-426614174000", "URN:UUID:123e4567-e89b-12d3-a456-426614174000"],
    ...["123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "urn:uuid:"],
    ...[
      "123e4567-e89b-12d3-a456-42661417400g",
      "123e4567-e89b-12d3-a456-4266141740000",
      "123e4567-e89b12d3-a456-426614174000",
    ],
    ...CASE_FOLDING.map((c) => `urn:uu${c}d:123e4567-e89b-12d3-a456-426614174000`),
  ],
  ipv4: [
    ...["0.0.0.0", "255.255.255.255", "256.0.0.0", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.04", "1..2.3"],
    ...["1.2.3.4 ", " 1.2.3.4", "1.2.3.4\n", "\u0661.\u0662.\u0663.\u0664", "192.168.1.1", "1.2.3.-4"],
  ],
  ipv6: [
    ...["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4"],
    ...["::ffff:1.2.3.4", "1::1.2.3.4", "1:2:3:4:5::1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4"],
    ...["1::2::3", ":::", "12345::", "1.2.3.4", "::01.2.3.4", "::ffff:256.1.1.1", "fe80::1%eth0", "[::1]"],
    ...["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::1:2:3:4:5:6:7:8", "1111:2222:3333:4444:5555:6666:123.123.123.123"],
    ...["::1 ", "ABCD:EF01::", "g::", ":1::2", "1::2:", "1:2:3:4:5:6:7:8:", "::1.2.3"],
    ...CASE_FOLDING.map((c) => `${c}::1`),
  ],
  hostname: [
    ...["a", "a.", "-a", "a-", "a-b", "a--b", "a".repeat(63), "a".repeat(64), `${"a".repeat(63)}.b`, ".", "a..b"],
    ...["a_b", "é.com", "xn--nxasmq6b.com", "localhost", "123", "1.2.3.4", "a.b.", "a.b..", "a.-b"],
    ...CASE_FOLDING.map((c) => `${c}.com`),
    ...[252, 253, 254, 255].flatMap((n) => {
      const name = `${"abcdefghi.".repeat(26).slice(0, n - 1)}x`;
      return [name, `${name}.`];
    }),
  ],
  duration: [
    ...["P", "PT", "P1Y", "PT1", "P1W", "P1Y1W", "PT1H", "P1DT", "P1M1Y", "PT1H1M1S", "P1Y2M3DT4H5M6S"],
    ...["P1.5Y", "PW", "PT1W", "P0D", "p1d", "P1D ", "P-1D", "PT36H", "P1H", "PT1D", "P1DT1H1H", "P1YT"],
  ],
  "json-pointer": [
    "",
    "/",
    "//",
    "/a~0b",
    "/a~1b",
    "/a~2b",
    "/a~",
    "~0",
    "a",
    "/~01",
    "/é",
    "#/a",
    "/a/b/c",
    "/\ud800",
  ],
};

/** 50 MB strings of each format, valid and not, with the verdict both sides give. */
const HUGE: Record<string, () => [string, boolean][]> = {
  date: () => [[`2024-02-29${"0".repeat(50 * MB)}`, false]],
  time: () => [
    [`00:00:00.${"9".repeat(50 * MB)}Z`, true],
    // The fraction rounds to 60 seconds: a leap second, valid only at 23:59 UTC.
    [`23:59:59.${"9".repeat(50 * MB)}+00:00`, true],
    [`12:59:59.${"9".repeat(50 * MB)}+00:00`, false],
    [`00:00:00${"0".repeat(50 * MB)}Z`, false],
  ],
  "date-time": () => [
    [`2024-02-29T23:59:60.${"0".repeat(50 * MB)}Z`, true],
    [`2024-02-29T${"0".repeat(50 * MB)}`, false],
  ],
  email: () => [
    [`${"a.".repeat(25 * MB)}a@example.com`, true],
    [`a@${"b.".repeat(25 * MB)}c`, true],
    [`a@${"a-".repeat(25 * MB)}`, false],
    [`${"a".repeat(50 * MB)}@`, false],
  ],
  uuid: () => [[`${"0".repeat(50 * MB)}`, false]],
  ipv4: () => [[`${"1.".repeat(25 * MB)}1`, false]],
  ipv6: () => [
    [`${"1:".repeat(25 * MB)}1`, false],
    [`::${"f".repeat(50 * MB)}`, false],
    [`${"1:".repeat(25 * MB)}:`, false],
  ],
  hostname: () => [
    ["a".repeat(50 * MB), false],
    [`${"a.".repeat(25 * MB)}`, false],
  ],
  duration: () => [
    [`P${"1".repeat(50 * MB)}D`, true],
    [`P${"1".repeat(50 * MB)}W`, true],
    [`PT${"1".repeat(50 * MB)}`, false],
  ],
  "json-pointer": () => [
    [`/${"~0".repeat(25 * MB)}`, true],
    [`/${"~0".repeat(25 * MB)}~`, false],
  ],
};

const formatSchemaName = (format: string) => `Format_${format.replaceAll("-", "_")}`;

describe("formats of tool schemas, against ajv-formats in full mode", async () => {
  const validators = await load(
    TOOL_FORMATS.map((format) => ({ name: formatSchemaName(format), schema: { type: "string", format } })),
    "format-validators.ts",
  );
  const ajv = new Ajv2020Module.default({ strict: false });
  addFormats.default(ajv); // full mode: ajv-formats' default

  it("has edge cases and 50 MB strings for every format", () => {
    expect(Object.keys(FORMAT_EDGES).sort()).toEqual([...TOOL_FORMATS].sort());
    expect(Object.keys(HUGE).sort()).toEqual([...TOOL_FORMATS].sort());
  });

  it.each(TOOL_FORMATS)(`%s: same verdict on ${STRINGS_PER_FORMAT} generated strings and the edge cases`, (format) => {
    const ours = validators[formatSchemaName(format)] as Validator;
    const theirs = ajv.compile({ type: "string", format });
    const { valid, broken, noise } = formatStrings(format);
    const generated = fc.sample(
      fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: broken, weight: 2 }, { arbitrary: noise, weight: 1 }),
      { seed: 20_250_611, numRuns: STRINGS_PER_FORMAT },
    );
    const all = [...(FORMAT_EDGES[format] ?? []), ...generated];
    const disagreements = all
      .filter((s) => ours.validate(s).ok !== theirs(s) || ours.is(s) !== theirs(s))
      .map((s) => `${JSON.stringify(s)}: ajv ${theirs(s) ? "accepts" : "rejects"}`);
    expect(disagreements).toEqual([]);
    // Both verdicts, in numbers, among the generated strings.
    const accepted = generated.filter((s) => theirs(s)).length;
    expect(accepted).toBeGreaterThan(STRINGS_PER_FORMAT / 4);
    expect(accepted).toBeLessThan((STRINGS_PER_FORMAT * 3) / 4);
  });

  it.each(TOOL_FORMATS)("%s: 50 MB strings get their verdict", (format) => {
    const ours = validators[formatSchemaName(format)] as Validator;
    for (const [s, expected] of HUGE[format]?.() ?? []) {
      expect(ours.validate(s).ok, `${s.slice(0, 40)}… (${s.length} chars)`).toBe(expected);
    }
  });
});

// The x-mcp-header rules a client enforces on a tool's input schema (runtime/http/header-annotations.ts)
// and the Mcp-Param-* headers a call's arguments give (runtime/http/headers.ts), case by case as the
// 2026-07-28 transport and tools pages state them.
import { describe, expect, it } from "vitest";
import { readAnnotations } from "../runtime/http/header-annotations.js";
import { decodeHeaderValue, paramHeaders } from "../runtime/http/headers.js";

const KEY = "x-mcp-header";
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("reading a tool's header annotations", () => {
  it("finds annotated properties, nested ones through properties alone, with their paths", () => {
    const schema = object({
      region: { type: "string", [KEY]: "Region" },
      deploy: object({
        replicas: { type: "integer", [KEY]: "Replicas" },
        dry: { type: ["boolean", "null"], [KEY]: "Dry" },
      }),
      query: { type: "string" },
    });
    // In the schema's own order.
    expect(readAnnotations(schema, KEY)).toEqual([
      { name: "Region", path: ["region"] },
      { name: "Replicas", path: ["deploy", "replicas"] },
      { name: "Dry", path: ["deploy", "dry"] },
    ]);
    expect(readAnnotations({ type: "object" }, KEY)).toEqual([]);
    expect(readAnnotations(undefined, KEY)).toEqual([]);
  });

  it.each([
    ["an empty name", object({ v: { type: "string", [KEY]: "" } }), /"" .* is not a header name/],
    ["a space", object({ v: { type: "string", [KEY]: "My Region" } }), /is not a header name/],
    ["a colon", object({ v: { type: "string", [KEY]: "Region:Primary" } }), /is not a header name/],
    ["non-ASCII", object({ v: { type: "string", [KEY]: "Région" } }), /is not a header name/],
    ["a control character", object({ v: { type: "string", [KEY]: "Region\t1" } }), /is not a header name/],
    ["a name that is not a string", object({ v: { type: "string", [KEY]: 7 } }), /7 .* is not a header name/],
    [
      "a name used twice, ignoring case",
      object({ a: { type: "string", [KEY]: "MyField" }, b: { type: "string", [KEY]: "myfield" } }),
      /"myfield" is used twice/,
    ],
    ["a number", object({ v: { type: "number", [KEY]: "V" } }), /not string, integer or boolean/],
    ["an object", object({ v: { type: "object", [KEY]: "V" } }), /not string, integer or boolean/],
    ["an array", object({ v: { type: "array", items: { type: "string" }, [KEY]: "V" } }), /not string/],
    ["null", object({ v: { type: "null", [KEY]: "V" } }), /not string, integer or boolean/],
    ["no type at all", object({ v: { enum: ["a"], [KEY]: "V" } }), /not string, integer or boolean/],
    ["the root", { type: "string", [KEY]: "Root" }, /not on a property reached through properties alone/],
    ["an array's items", object({ v: { type: "array", items: { type: "string", [KEY]: "V" } } }), /reached/],
    ["a oneOf branch", object({ v: { oneOf: [{ type: "string", [KEY]: "V" }] } }), /› v › oneOf\[0\]/],
    ["a definition", object({}, { $defs: { d: { type: "string", [KEY]: "V" } } }), /› \$defs › d/],
    ["a conditional", object({}, { if: object({ v: { type: "string", [KEY]: "V" } }) }), /› if › v/],
  ])("refuses %s", (_label, schema, reason) => {
    const found = readAnnotations(schema, KEY);
    expect(typeof found).toBe("string");
    expect(found).toMatch(reason);
  });

  it("reads keyword-named properties and data keywords as what they are", () => {
    const schema = object(
      { [KEY]: { type: "string" }, properties: { type: "string", [KEY]: "Properties" } },
      { default: { [KEY]: "not an annotation" }, examples: [{ [KEY]: 1 }], enum: [{ [KEY]: {} }] },
    );
    expect(readAnnotations(schema, KEY)).toEqual([{ name: "Properties", path: ["properties"] }]);
  });

  it("reads a schema nested 100,000 levels deep without running out of stack", () => {
    let schema: Record<string, unknown> = { type: "string", [KEY]: "Deep" };
    for (let i = 0; i < 100_000; i++) schema = object({ n: schema });
    const found = readAnnotations(schema, KEY);
    expect(Array.isArray(found) && found[0]?.path.length).toBe(100_000);
  });
});

describe("the headers of a call's arguments", () => {
  const annotations = [
    { name: "Region", path: ["region"] },
    { name: "Priority", path: ["priority"] },
    { name: "Verbose", path: ["verbose"] },
    { name: "Replicas", path: ["deploy", "replicas"] },
  ];

  it("writes strings as they are, integers in decimal, booleans in lower case", () => {
    expect(
      paramHeaders(annotations, { region: "us-west1", priority: 42, verbose: false, deploy: { replicas: -7 } }),
    ).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Verbose": "false",
      "Mcp-Param-Replicas": "-7",
    });
  });

  it("leaves out null, missing, unsafe and mistyped values", () => {
    expect(
      paramHeaders(annotations, { region: null, priority: 2 ** 53, verbose: "yes", deploy: { replicas: 1.5 } }),
    ).toEqual({ "Mcp-Param-Verbose": "yes" });
    expect(paramHeaders(annotations, { deploy: "flat" })).toEqual({});
    expect(paramHeaders(annotations, undefined)).toEqual({});
  });

  it.each([
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ["us west 1", "us west 1"],
    ["", "=?base64??="],
  ])("encodes %j as the value-encoding table says", (value, header) => {
    const sent = paramHeaders([{ name: "V", path: ["v"] }], { v: value })["Mcp-Param-V"];
    expect(sent).toBe(header);
    expect(decodeHeaderValue(sent ?? "")).toBe(value);
  });
});

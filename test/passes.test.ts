// Unit tests of the model passes and the emit helpers, each on a minimal hand-made model.
import { describe, expect, it } from "vitest";
import { docComment, ImportList, propertyKey, valueLiteral } from "../generators/emit/code.js";
import { printDeclaration, printType } from "../generators/emit/print-type.js";
import { buildEnvelopes } from "../generators/model/envelopes.js";
import type { MethodInferences } from "../generators/model/inference-table.js";
import { unionNumberType } from "../generators/model/json-numbers.js";
import { buildMethodMap, inferResult } from "../generators/model/method-map.js";
import type { Declaration, Property, TypeNode } from "../generators/model/model.js";
import { resolveShapes } from "../generators/model/resolve-shapes.js";

const str: TypeNode = { kind: "primitive", name: "string" };
const num: TypeNode = { kind: "primitive", name: "number" };
const ref = (name: string): TypeNode => ({ kind: "ref", name });
const lit = (value: string): TypeNode => ({ kind: "literal", value });
const prop = (name: string, type: TypeNode, optional = false): Property => ({ name, type, optional });
const iface = (
  name: string,
  properties: Property[],
  bases: TypeNode[] = [],
  extra: Partial<Declaration> = {},
): Declaration => ({ kind: "interface", name, line: 1, extends: bases, properties, ...extra }) as Declaration;
const alias = (name: string, type: TypeNode, extra: Partial<Declaration> = {}): Declaration =>
  ({ kind: "alias", name, line: 1, type, ...extra }) as Declaration;

function shape(decls: Declaration[], name: string): string[] | undefined {
  return resolveShapes(decls)
    .find((d) => d.name === name)
    ?.resolved?.properties.map((p) => `${p.name}${p.optional ? "?" : ""}:${p.from}`);
}

describe("resolveShapes", () => {
  it("merges several bases in order and lets own properties override", () => {
    const decls = [
      iface("A", [prop("a", str), prop("kind", str)]),
      iface("B", [prop("b", num, true)]),
      iface("C", [prop("kind", lit("c"))], [ref("A"), ref("B")]),
    ];
    expect(shape(decls, "C")).toEqual(["a:A", "kind:C", "b?:B"]);
  });

  it("applies Omit<> and keeps the base's index signature", () => {
    const decls = [
      iface("Base", [prop("error", str), prop("id", num, true)], [], {
        indexSignature: { keyName: "key", keyType: "string", type: { kind: "primitive", name: "unknown" } },
      } as Partial<Declaration>),
      iface("Err", [prop("error", num)], [{ kind: "omit", type: ref("Base"), keys: ["error"] }]),
    ];
    const resolved = resolveShapes(decls).find((d) => d.name === "Err")?.resolved;
    expect(resolved?.properties.map((p) => `${p.name}:${p.from}`)).toEqual(["id:Base", "error:Err"]);
    expect(resolved?.indexSignature?.keyType).toBe("string");
  });

  it("intersects: a property in both sides gets both types and is required if either requires it", () => {
    const decls = [
      iface("X", [prop("code", num), prop("data", str, true)]),
      alias("Y", {
        kind: "intersection",
        members: [ref("X"), { kind: "object", properties: [prop("code", lit("1")), prop("data", str)] }],
      }),
    ];
    const resolved = resolveShapes(decls).find((d) => d.name === "Y")?.resolved;
    expect(resolved?.properties.map((p) => [p.name, p.optional, p.type.kind])).toEqual([
      ["code", false, "intersection"],
      ["data", false, "primitive"],
    ]);
  });

  it("turns Record<string, V> into an index signature and leaves unions without a shape", () => {
    const decls = [
      alias("Meta", { kind: "record", key: str, value: num }),
      alias("U", { kind: "union", members: [str, num] }),
      alias("J", { kind: "union", members: [str, ref("J")] }),
    ];
    const resolved = resolveShapes(decls);
    expect(resolved[0]?.resolved).toEqual({
      properties: [],
      indexSignature: { keyName: "key", keyType: "string", type: num },
    });
    expect(resolved[1]?.resolved).toBeUndefined();
    expect(resolved[2]?.resolved).toBeUndefined();
  });

  it("rejects an interface that extends itself", () => {
    expect(() => resolveShapes([iface("Loop", [], [ref("Loop")])])).toThrow("Loop extends itself");
  });
});

describe("method map rules", () => {
  const request = (name: string, method: string, category?: string) =>
    iface(
      name,
      [prop("method", lit(method)), prop("params", { kind: "object", properties: [] }, true)],
      [],
      category ? { category } : {},
    );

  it("reads the result from a JSON-RPC result response in the request's category first", () => {
    const decls = resolveShapes([
      request("CallToolRequest", "tools/call", "`tools/call`"),
      iface("CallToolResult", [], [], { category: "`tools/call`" }),
      iface(
        "CallToolResultResponse",
        [prop("jsonrpc", str), prop("id", num), prop("result", ref("CallToolResult"))],
        [],
        {
          category: "`tools/call`",
        },
      ),
    ]);
    expect(inferResult(decls[0] as Declaration, "tools/call", decls)).toEqual({
      type: ref("CallToolResult"),
      source: "responseType",
    });
  });

  it("then the one *Result of the category, then FooRequest → FooResult, then EmptyResult", () => {
    const decls = resolveShapes([
      request("InitRequest", "init", "`init`"),
      iface("InitOutcomeResult", [], [], { category: "`init`" }),
      request("ListThingsRequest", "things/list"),
      iface("ListThingsResult", []),
      request("PingRequest", "ping"),
      alias("EmptyResult", { kind: "object", properties: [] }),
    ]);
    const [init, , list, , ping] = decls as Declaration[];
    expect(inferResult(init as Declaration, "init", decls).source).toBe("category");
    expect(inferResult(list as Declaration, "things/list", decls)).toEqual({
      type: ref("ListThingsResult"),
      source: "name",
    });
    expect(inferResult(ping as Declaration, "ping", decls)).toEqual({
      type: ref("EmptyResult"),
      source: "emptyDefault",
    });
  });

  it("refuses an ambiguous category", () => {
    const decls = resolveShapes([
      request("GetRequest", "get", "`get`"),
      iface("GetResult", [], [], { category: "`get`" }),
      iface("OtherResult", [], [], { category: "`get`" }),
    ]);
    expect(() => inferResult(decls[0] as Declaration, "get", decls)).toThrow("several *Result types");
  });

  const inferences = (
    capabilities: Record<string, string | null>,
  ): Pick<MethodInferences, "unions" | "capabilities"> => ({
    unions: [{ union: "ClientRequest", kind: "request", direction: "clientToServer", delivery: "message" }],
    capabilities: { clientToServer: capabilities, serverToClient: {} },
  });
  const base = [
    request("ListThingsRequest", "things/list"),
    iface("ListThingsResult", []),
    alias("ClientRequest", ref("ListThingsRequest")),
    iface("ServerCapabilities", [
      prop("things", { kind: "object", properties: [prop("listChanged", str, true)] }, true),
    ]),
  ];

  it("resolves the gating capability from the table against the revision's capabilities", () => {
    const decls = resolveShapes(base);
    expect(buildMethodMap(decls, inferences({ "things/list": "server:things.listChanged" }))[0]?.capability).toEqual({
      side: "server",
      path: ["things", "listChanged"],
    });
    // A capability the revision does not have yet leaves the method ungated.
    expect(buildMethodMap(decls, inferences({ "things/list": "server:gadgets" }))[0]?.capability).toBeNull();
    expect(() => buildMethodMap(decls, inferences({ "things/list": "server:things.nope" }))).toThrow("no nope");
    expect(() => buildMethodMap(decls, inferences({}))).toThrow("not in spec/method-inferences.json");
  });
});

describe("envelopes", () => {
  const jsonrpc = prop("jsonrpc", lit("2.0"));
  const decls = resolveShapes([
    iface("Req", [jsonrpc, prop("id", num), prop("method", str)]),
    iface("Note", [jsonrpc, prop("method", str)]),
    iface("Ok", [jsonrpc, prop("id", num), prop("result", { kind: "object", properties: [] })]),
    iface("Fail", [jsonrpc, prop("id", num), prop("error", { kind: "object", properties: [] })]),
    alias("Response", { kind: "union", members: [ref("Ok"), ref("Fail")] }),
    alias("Batch", { kind: "array", items: { kind: "union", members: [ref("Req"), ref("Note")] } }),
    alias("Message", { kind: "union", members: [ref("Batch"), ref("Req"), ref("Note"), ref("Response")] }),
  ]);

  it("classifies the message union's members by shape, following aliases, and finds batches", () => {
    expect(buildEnvelopes(decls, "Message")).toEqual({
      union: "Message",
      request: "Req",
      notification: "Note",
      resultResponse: "Ok",
      errorResponse: "Fail",
      batchRequest: "Batch",
    });
    expect(buildEnvelopes(decls, "Missing")).toBeUndefined();
  });

  it("rejects a union without a response envelope", () => {
    const partial = [...decls, alias("Half", { kind: "union", members: [ref("Req"), ref("Note")] })];
    expect(() => buildEnvelopes(partial, "Half")).toThrow("no resultResponse envelope");
  });
});

describe("JSON numbers", () => {
  const bool: TypeNode = { kind: "primitive", name: "boolean" };
  const nul: TypeNode = { kind: "primitive", name: "null" };

  it("a union of string, number and boolean (any JSON scalar) reads its number as any number", () => {
    expect(unionNumberType([str, num, bool, nul, ref("JSONObject"), ref("JSONArray")], undefined)).toBe("number");
    expect(unionNumberType([str, num, bool, { kind: "array", items: str }], undefined)).toBe("number");
  });

  it("other unions keep the convention (ids, nullable counts), and @TJS-type always wins", () => {
    expect(unionNumberType([str, num], undefined)).toBeUndefined();
    expect(unionNumberType([num, nul], undefined)).toBeUndefined();
    expect(unionNumberType([num, bool], undefined)).toBeUndefined();
    expect(unionNumberType([str, num, bool], "integer")).toBe("integer");
  });
});

describe("printing types", () => {
  it("prints `any` index signatures as open objects and never prints any", () => {
    const anyIndex: TypeNode = {
      kind: "object",
      properties: [],
      indexSignature: { keyName: "key", keyType: "string", type: { kind: "primitive", name: "any" } },
    };
    expect(printType(anyIndex)).toBe("object");
    expect(printType({ kind: "object", properties: [] })).toBe("{}");
    expect(printType({ kind: "array", items: { kind: "primitive", name: "any" } })).toBe("unknown[]");
  });

  it("parenthesises unions inside arrays and intersections", () => {
    const union: TypeNode = { kind: "union", members: [ref("A"), ref("B")] };
    expect(printType({ kind: "array", items: union })).toBe("(A | B)[]");
    expect(printType({ kind: "intersection", members: [union, ref("C")] })).toBe("(A | B) & C");
  });

  it("quotes property keys that are not identifiers and keeps constraint tags", () => {
    const decl = iface("Meta", [
      { ...prop("io.modelcontextprotocol/protocolVersion", str), deprecated: true },
      prop("__proto__", str, true),
      { ...prop("size", num), constraints: { minimum: 0, jsonType: "number" } },
    ]);
    const text = printDeclaration(decl);
    expect(text).toContain('/** @deprecated */\n"io.modelcontextprotocol/protocolVersion": string;');
    expect(text).toContain("__proto__?: string;");
    expect(text).toContain("@TJS-type number\n * @minimum 0");
  });
});

describe("code helpers", () => {
  it("escapes keys, strings and comment terminators", () => {
    expect(propertyKey("a-b")).toBe('"a-b"');
    expect(propertyKey("_meta")).toBe("_meta");
    expect(valueLiteral({ "a b": ['x"y', null, 1], ok: true })).toBe('{ "a b": ["x\\"y", null, 1], ok: true }');
    expect(docComment(["@see https://x/*/y */ z"])).toBe("/** @see https://x/*\\/y *\\/ z */\n");
  });

  it("sorts and merges imports, type-only where possible", () => {
    const imports = new ImportList();
    imports.add("./types.js", "Tool", true);
    imports.add("./types.js", "JSONRPC_VERSION", false);
    imports.add("./types.js", "Tool", true);
    imports.addTypes("./methods.js", ["B", "A"]);
    expect(imports.render()).toBe(
      'import type { A, B } from "./methods.js";\nimport { JSONRPC_VERSION, type Tool } from "./types.js";',
    );
  });
});

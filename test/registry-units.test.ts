// The registry's parts on their own: JSON Schema literals checked at run time (runtime/server/
// json-schema-check.ts), RFC 6570 templates matched (uri-template.ts), the error a revision
// prescribes for wrong tool arguments, and multi round-trip input at 2026-07-28.
import { describe, expect, it } from "vitest";
import * as v2025_06 from "../generated/2025-06-18/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createInMemoryTransportPair, RpcError, type JsonRpcMessage } from "../runtime/index.js";
import { compileJsonSchema } from "../runtime/server/json-schema-check.js";
import type { JsonSchemaObject } from "../runtime/server/json-schema.js";
import { UriTemplate } from "../runtime/server/uri-template.js";

describe("JSON Schema literals at run time", () => {
  const issues = (schema: JsonSchemaObject, value: unknown) => compileJsonSchema(schema)(value);

  it("checks types, bounds, enums and nested objects, with JSON Pointer paths", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", minLength: 2, pattern: "^[a-z]+$" },
        age: { type: "integer", minimum: 0, exclusiveMaximum: 150 },
        tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true, maxItems: 2 },
        "a/b": { type: "object", properties: { "x~y": { const: 1 } } },
      },
      required: ["name"],
      additionalProperties: false,
    };
    expect(issues(schema, { name: "ab", age: 3, tags: ["a"], "a/b": { "x~y": 1 } })).toEqual([]);
    expect(issues(schema, { age: 1.5, tags: ["a", "a", "c"], "a/b": { "x~y": 2 }, extra: true })).toEqual([
      { path: "/name", message: "required property is missing" },
      { path: "/age", message: "expected integer, got number" },
      { path: "/tags/2", message: 'expected "a" | "b"' },
      { path: "/tags", message: "expected at most 2 items" },
      { path: "/tags", message: "expected unique items" },
      { path: "/a~1b/x~0y", message: "expected 1" },
      { path: "/extra", message: "no value is allowed here" },
    ]);
    expect(issues({ type: "number" }, Number.NaN)).toEqual([{ path: "", message: "expected number, got NaN" }]);
    // Patterns count code points where they can, and still compile where the Unicode flag refuses them.
    expect(issues({ pattern: "^.$" }, "😀")).toEqual([]);
    expect(issues({ pattern: "^[a-z\\-]+$" }, "a-b")).toEqual([]);
    expect(issues({ pattern: "^[a-z\\-]+$" }, "a_b")[0]?.message).toMatch(/^expected to match /);
  });

  it("follows $ref (also recursive), $anchor, combinators and conditionals", () => {
    const tree = {
      $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
      $ref: "#/$defs/node",
    };
    expect(issues(tree, { children: [{ children: [] }] })).toEqual([]);
    expect(issues(tree, { children: [{ children: [1] }] })).toEqual([
      { path: "/children/0/children/0", message: "expected object, got number" },
    ]);
    const contact = {
      $defs: { address: { $anchor: "addr", type: "object", required: ["city"] } },
      properties: { home: { $ref: "#addr" }, method: { enum: ["phone", "email"] } },
      anyOf: [{ required: ["phone"] }, { required: ["email"] }],
      if: { properties: { method: { const: "phone" } }, required: ["method"] },
      then: { required: ["phone"] },
      not: { required: ["fax"] },
    };
    expect(issues(contact, { email: "x", home: { city: "Oslo" } })).toEqual([]);
    expect(issues(contact, { method: "phone", email: "x" })).toEqual([
      { path: "/phone", message: "required property is missing" },
    ]);
    expect(issues(contact, { phone: "1", fax: "2", home: {} })).toEqual([
      { path: "/home/city", message: "required property is missing" },
      { path: "", message: "expected not to match a schema" },
    ]);
    expect(issues({ oneOf: [{ type: "string" }, { type: "string", minLength: 1 }] }, "x")[0]?.message).toMatch(
      /exactly one/,
    );
  });

  it("refuses keywords it cannot check, and references that do not resolve, when the schema is compiled", () => {
    expect(() => compileJsonSchema({ unevaluatedProperties: false })).toThrow(/unevaluatedProperties is not supported/);
    expect(() => compileJsonSchema({ $ref: "https://example.com/schema" })).toThrow(/does not resolve/);
    expect(() => compileJsonSchema({ type: "text" })).toThrow(/unknown type "text"/);
    // Annotations, format included (an annotation in JSON Schema 2020-12), are not checks.
    expect(issues({ type: "string", format: "email", title: "t", "x-mcp-header": "H" }, "not an email")).toEqual([]);
  });
});

describe("RFC 6570 templates, matched", () => {
  it("reverses simple, reserved, path, label, query and fragment expansions", () => {
    expect(new UriTemplate("file:///{path}").match("file:///notes.txt")).toEqual({ path: "notes.txt" });
    expect(new UriTemplate("file:///{path}").match("file:///a/b.txt")).toBeUndefined();
    expect(new UriTemplate("file:///{+path}").match("file:///a/b%20c.txt")).toEqual({ path: "a/b c.txt" });
    expect(new UriTemplate("repo://{owner}/{repo}{/path*}").match("repo://me/mcp/src/a.ts")).toEqual({
      owner: "me",
      repo: "mcp",
      path: ["src", "a.ts"],
    });
    expect(new UriTemplate("db://{table}/rows{?limit,order}").match("db://users/rows?order=name&limit=5")).toEqual({
      table: "users",
      limit: "5",
      order: "name",
    });
    expect(new UriTemplate("db://{table}/rows{?limit}").match("db://users/rows")).toEqual({ table: "users" });
    expect(new UriTemplate("doc://{id}{#section}").match("doc://7#intro")).toEqual({ id: "7", section: "intro" });
    expect(new UriTemplate("file:///{path}").match("file:///%E0%A4%A")).toBeUndefined();
    expect(new UriTemplate("a://{x}.{y}").variables).toEqual(["x", "y"]);
    expect(() => new UriTemplate("a://{x")).toThrow(/unclosed/);
  });
});

describe("the registry per revision", () => {
  it("at 2025-06-18, wrong tool arguments are invalid params naming the path, and the handler never runs", async () => {
    const mcp = v2025_06.createMcpServer({ serverInfo: { name: "s", version: "1" } });
    let ran = 0;
    mcp.registerTool(
      "square",
      { inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
      ({ n }) => {
        ran++;
        return { content: [{ type: "text", text: String(n * n) }] };
      },
    );
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await mcp.connect(serverSide);
    const client = v2025_06.createClient({ transport: clientSide, clientInfo: { name: "c", version: "1" } });
    await client.connect();
    const error = await client.callTool({ name: "square", arguments: { n: "3" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32602);
    expect((error as RpcError).message).toBe("Invalid arguments for tool square: /n: expected number, got string");
    expect((error as RpcError).data).toEqual({ issues: [{ path: "/n", message: "expected number, got string" }] });
    expect(ran).toBe(0);
    const unknown = await client.callTool({ name: "cube", arguments: {} }).catch((e: unknown) => e);
    expect((unknown as RpcError).message).toBe("Unknown tool: cube");
    expect(() => mcp.registerTool("square", {}, () => ({ content: [] }))).toThrow(/already registered/);
    expect(() =>
      mcp.registerTool("list", { outputSchema: { type: "array" } }, () => ({ structuredContent: [] })),
    ).toThrow(/outputSchema must be of type "object"/);
    await client.close();
  });

  it("at 2026-07-28, context.input asks, reads typed answers, and keeps its state sealed", async () => {
    const mcp = v2026.createMcpServer({ serverInfo: { name: "s", version: "1" } });
    const states: (string | undefined)[] = [];
    mcp.registerTool("greet", {}, (_args, { input }) => {
      states.push(input.state);
      const answer = input.response("who", "elicitation/create");
      if (answer?.action !== "accept")
        return input.ask(
          {
            who: {
              method: "elicitation/create",
              params: {
                message: "Name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } } },
              },
            },
          },
          "round-1",
        );
      return { content: [{ type: "text", text: `hello ${String(answer.content?.["name"])}` }] };
    });
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await mcp.connect(serverSide);
    // What the client sends back as requestState, and, once `tamper` is set, changed on the way.
    const carried: unknown[] = [];
    let tamper: ((state: string) => string) | undefined;
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      const params = "method" in message ? (message.params as { requestState?: unknown } | undefined) : undefined;
      if (typeof params?.requestState !== "string") return send(message, options);
      carried.push(params.requestState);
      const requestState = tamper ? tamper(params.requestState) : params.requestState;
      return send({ ...message, params: { ...params, requestState } } as JsonRpcMessage, options);
    };
    const client = v2026.createClient({
      transport: clientSide,
      clientInfo: { name: "c", version: "1" },
      handlers: { elicit: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    await client.connect();
    const result = await client.callTool({ name: "greet", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
    // The handler saw its own state back; the client carried only the sealed form.
    expect(states).toEqual([undefined, "round-1"]);
    expect(carried).toHaveLength(1);
    expect(carried[0]).not.toBe("round-1");

    // The state rewritten under its seal, its seal changed in any one character, or the handler's
    // own state sent in clear: refused before the handler runs again.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const rewritten = (state: string) => {
      const [body = "", mac = ""] = state.split(".");
      const opened = JSON.parse(atob(body.replace(/-/g, "+").replace(/_/g, "/"))) as { s: string };
      const forged = btoa(JSON.stringify({ ...opened, s: "round-2" }));
      return `${forged.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.${mac}`;
    };
    const lastCharacter = (state: string) =>
      `${state.slice(0, -1)}${alphabet[alphabet.indexOf(state.slice(-1)) ^ 1] ?? ""}`;
    for (const change of [rewritten, lastCharacter, () => "round-1"]) {
      tamper = change;
      states.length = 0;
      const refused = await client.callTool({ name: "greet", arguments: {} }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RpcError);
      expect((refused as RpcError).code).toBe(-32602);
      expect((refused as RpcError).message).toMatch(/requestState failed its integrity check/);
      expect(states).toEqual([undefined]);
    }
    await client.close();
    await mcp.close();
  });
});

// The registry's parts on their own: JSON Schema literals checked at run time (runtime/server/
// json-schema-check.ts), RFC 6570 templates matched (uri-template.ts); Valibot and ArkType
// schemas checking arguments and structured content; and each revision's registry in memory
// against our client of that revision: the error it prescribes for wrong tool arguments, the
// 2024-11-05 and 2025-03-26 registries on their own, prompt argument completion, page sizes,
// cache fields and multi round-trip input at 2026-07-28.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v2024 from "../generated/2024-11-05/index.js";
import * as v2025_03 from "../generated/2025-03-26/index.js";
import * as v2025_06 from "../generated/2025-06-18/index.js";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createInMemoryTransportPair, RpcError, type JsonRpcMessage, type Transport } from "../runtime/index.js";
import { compileJsonSchema } from "../runtime/server/json-schema-check.js";
import type { JsonSchemaObject } from "../runtime/server/json-schema.js";
import { UriTemplate } from "../runtime/server/uri-template.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Our client of a revision, connected in memory to `server`; closed after the test. */
async function connected<C extends { connect(): Promise<void>; close(): Promise<void> }>(
  server: { connect(transport: Transport): Promise<void>; close(): Promise<void> },
  createClient: (transport: Transport) => C,
): Promise<C> {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const client = createClient(clientSide);
  await client.connect();
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return client;
}

const errorOf = (promise: Promise<unknown>): Promise<RpcError> =>
  promise.then(
    (result) => {
      throw new Error(`expected an error, got ${JSON.stringify(result)}`);
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(RpcError);
      return error as RpcError;
    },
  );

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

describe("Valibot and ArkType schemas at run time", () => {
  // The same tool in each library: `{ a: number, point: { x: number } }` in, `{ sum: number }` out.
  const libraries = {
    valibot: {
      input: toStandardJsonSchema(v.object({ a: v.number(), point: v.object({ x: v.number() }) })),
      output: toStandardJsonSchema(v.object({ sum: v.number() })),
      // How the library says that a string is not a number (its message is passed on).
      notANumber: /Expected number but received "\d"$/,
    },
    arktype: {
      input: type({ a: "number", point: { x: "number" } }),
      output: type({ sum: "number" }),
      notANumber: /must be a number \(was a string\)$/,
    },
  };

  for (const [library, schemas] of Object.entries(libraries))
    it(`${library}: listed as JSON Schema; wrong arguments are the revision's error naming the path, wrong structured content an error`, async () => {
      let ran = 0;
      const serve = (mcp: v2025.McpServer) => {
        mcp.registerTool("sum", { inputSchema: schemas.input, outputSchema: schemas.output }, ({ a, point }) => {
          ran++;
          return { structuredContent: { sum: a + point.x } };
        });
        mcp.registerTool("wrong", { outputSchema: schemas.output }, () => ({
          structuredContent: { sum: "3" } as never,
        }));
        return mcp;
      };
      const serverInfo = { name: library, version: "1" };
      const clientInfo = { name: "c", version: "1" };
      // 2025-06-18: invalid params; 2025-11-25: a tool result with isError, for the model to read.
      // The two registries take the same calls; the 2025-11-25 one's types stand for both.
      const early = await connected(
        serve((v2025_06 as unknown as typeof v2025).createMcpServer({ serverInfo })),
        (transport) => v2025_06.createClient({ transport, clientInfo }),
      );
      const late = await connected(serve(v2025.createMcpServer({ serverInfo })), (transport) =>
        v2025.createClient({ transport, clientInfo }),
      );

      const [listed] = (await late.listTools()).tools;
      expect(listed?.inputSchema).toMatchObject({
        type: "object",
        properties: { a: { type: "number" }, point: { type: "object", properties: { x: { type: "number" } } } },
      });
      expect([...(listed?.inputSchema.required ?? [])].sort()).toEqual(["a", "point"]);
      expect(listed?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
      expect((await late.callTool({ name: "sum", arguments: { a: 1, point: { x: 2 } } })).structuredContent).toEqual({
        sum: 3,
      });
      expect(ran).toBe(1);

      const wrong = { name: "sum", arguments: { a: 1, point: { x: "2" } } };
      const refused = await errorOf(early.callTool(wrong));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toMatch(/^Invalid arguments for tool sum: \/point\/x: \S/);
      expect(refused.message).toMatch(schemas.notANumber);
      expect((refused.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual(["/point/x"]);
      const result = await late.callTool(wrong);
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: "text", text: refused.message }]);
      const missing = await late.callTool({ name: "sum", arguments: { point: {} } });
      expect(missing.content[0]).toMatchObject({
        text: expect.stringMatching(/^Invalid arguments for tool sum: \/a: .*; \/point\/x: /),
      });
      expect(ran).toBe(1);

      for (const client of [early, late]) {
        const broken = await errorOf(client.callTool({ name: "wrong" }));
        expect(broken.code).toBe(-32603);
        expect(broken.message).toMatch(
          /^Tool wrong returned structuredContent that does not match its outputSchema: \/sum: \S/,
        );
        expect(broken.message).toMatch(schemas.notANumber);
      }
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

  // The two earliest revisions: no structured output, wrong tool arguments are invalid params,
  // completion without its capability at 2024-11-05 (it came with 2025-03-26).
  for (const [revision, module, completions] of [
    ["2024-11-05", v2024, false],
    // The two registries take the same calls; the 2024-11-05 one's types stand for both.
    ["2025-03-26", v2025_03 as unknown as typeof v2024, true],
  ] as const)
    it(`at ${revision}, on its own: lists, calls, refuses wrong arguments with invalid params, completes, announces changes`, async () => {
      let ran = 0;
      const mcp = module.createMcpServer({ serverInfo: { name: "s", version: "1" } });
      mcp.registerTool("square", { description: "n²", inputSchema: z.object({ n: z.number() }) }, ({ n }) => {
        ran++;
        return { content: [{ type: "text", text: String(n * n) }] };
      });
      mcp.registerResource(
        "files",
        "file:///{path}",
        { complete: { path: (value) => ["a.txt", "b.txt", "ab.md"].filter((file) => file.startsWith(value)) } },
        (uri, { path }) => ({ contents: [{ uri, text: `contents of ${path}` }] }),
      );
      mcp.registerPrompt(
        "review",
        {
          argsSchema: z.object({ code: z.string(), language: z.string().optional() }),
          complete: { language: (value) => ["go", "python", "perl"].filter((name) => name.startsWith(value)) },
        },
        ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: code } }] }),
      );
      const client = await connected(mcp, (transport) =>
        module.createClient({ transport, clientInfo: { name: "c", version: "1" } }),
      );
      expect(client.server.serverCapabilities).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true },
        ...(completions ? { completions: {} } : {}),
      });

      expect((await client.listTools()).tools).toEqual([
        {
          name: "square",
          description: "n²",
          inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        },
      ]);
      expect((await client.callTool({ name: "square", arguments: { n: 3 } })).content).toEqual([
        { type: "text", text: "9" },
      ]);
      const wrong = await errorOf(client.callTool({ name: "square", arguments: { n: "3" } }));
      expect(wrong.code).toBe(-32602);
      expect(wrong.message).toMatch(/^Invalid arguments for tool square: \/n: /);
      expect((wrong.data as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual(["/n"]);
      expect(ran).toBe(1);

      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
        { name: "files", uriTemplate: "file:///{path}" },
      ]);
      expect((await client.readResource({ uri: "file:///a.txt" })).contents).toEqual([
        { uri: "file:///a.txt", text: "contents of a.txt" },
      ]);
      expect((await errorOf(client.readResource({ uri: "other:///a.txt" }))).code).toBe(-32002);
      const path = await client.complete({
        ref: { type: "ref/resource", uri: "file:///{path}" },
        argument: { name: "path", value: "a" },
      });
      expect(path.completion).toEqual({ values: ["a.txt", "ab.md"], total: 2, hasMore: false });
      const language = await client.complete({
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "language", value: "p" },
      });
      expect(language.completion).toEqual({ values: ["python", "perl"], total: 2, hasMore: false });
      expect((await client.getPrompt({ name: "review", arguments: { code: "x" } })).messages).toHaveLength(1);
      const missing = await errorOf(client.getPrompt({ name: "review", arguments: {} }));
      expect([missing.code, missing.message]).toEqual([
        -32602,
        expect.stringMatching(/^Invalid arguments for prompt review: \/code: /),
      ]);

      const changed = new Promise<void>((done) => client.on("notifications/tools/list_changed", () => done()));
      const late = mcp.registerTool("late", {}, () => ({ content: [] }));
      await changed;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["square", "late"]);
      const removed = new Promise<void>((done) => client.on("notifications/prompts/list_changed", () => done()));
      late.remove();
      mcp.registerPrompt("other", {}, () => ({ messages: [] }));
      await removed;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["square"]);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["review", "other"]);
    });

  it("at 2025-11-25, prompt arguments are completed with the arguments already given, at most 100 values", async () => {
    const seen: unknown[] = [];
    const mcp = v2025.createMcpServer({ serverInfo: { name: "s", version: "1" } });
    mcp.registerPrompt(
      "translate",
      {
        argsSchema: z.object({ from: z.string(), to: z.string(), text: z.string() }),
        complete: {
          to: (value, args) => {
            seen.push(args);
            return ["de", "en", "fr"].filter((code) => code.startsWith(value) && code !== args.from);
          },
          text: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`),
        },
      },
      ({ from, to, text }) => ({
        messages: [{ role: "user", content: { type: "text", text: `${from}→${to}: ${text}` } }],
      }),
    );
    const client = await connected(mcp, (transport) =>
      v2025.createClient({ transport, clientInfo: { name: "c", version: "1" } }),
    );
    const ref = { type: "ref/prompt", name: "translate" } as const;
    const to = await client.complete({
      ref,
      argument: { name: "to", value: "" },
      context: { arguments: { from: "en" } },
    });
    expect(to.completion).toEqual({ values: ["de", "fr"], total: 2, hasMore: false });
    expect(seen).toEqual([{ from: "en" }]);
    const text = await client.complete({ ref, argument: { name: "text", value: "t" } });
    expect(text.completion.values).toHaveLength(100);
    expect(text.completion.values.slice(0, 2)).toEqual(["t0", "t1"]);
    expect([text.completion.total, text.completion.hasMore]).toEqual([150, true]);
    // An argument without a completer has no values; a prompt that is not registered is invalid params.
    const from = await client.complete({ ref, argument: { name: "from", value: "e" } });
    expect(from.completion).toEqual({ values: [], total: 0, hasMore: false });
    const unknown = await errorOf(
      client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "to", value: "" } }),
    );
    expect([unknown.code, unknown.message]).toEqual([-32602, "Unknown prompt: nope"]);
  });

  it("at 2026-07-28, a custom page size pages every list, and the server's cache fields fill results where a resource gives none", async () => {
    expect(() => v2026.createMcpServer({ serverInfo: { name: "s", version: "1" }, pageSize: 0 })).toThrow(
      /pageSize must be at least 1/,
    );
    const mcp = v2026.createMcpServer({
      serverInfo: { name: "s", version: "1" },
      pageSize: 2,
      cache: { ttlMs: 60_000, cacheScope: "public" },
    });
    for (const name of ["a", "b", "c"]) mcp.registerTool(name, {}, () => ({ content: [] }));
    mcp.registerPrompt("p", {}, () => ({ messages: [] }));
    const text = (uri: string) => ({ contents: [{ uri, text: "" }] });
    mcp.registerResource("readme", "file:///readme.md", { cache: { ttlMs: 1000 } }, text);
    mcp.registerResource("changelog", "file:///changelog.md", {}, text);
    mcp.registerResource("secret", "file:///secret.md", { cache: { cacheScope: "private" } }, text);
    mcp.registerResource("own", "file:///own.md", {}, (uri) => ({ ...text(uri), ttlMs: 7 }));
    mcp.registerResource("files", "file:///{path}", { cache: { ttlMs: 5 } }, text);
    const client = await connected(mcp, (transport) =>
      v2026.createClient({ transport, clientInfo: { name: "c", version: "1" }, cache: false }),
    );
    const cached = { ttlMs: 60_000, cacheScope: "public" };

    const first = await client.listTools();
    expect(first).toMatchObject({ ...cached, tools: [{ name: "a" }, { name: "b" }] });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listTools({ cursor: first.nextCursor ?? "" });
    expect(second).toMatchObject({ ...cached, tools: [{ name: "c" }] });
    expect(second.nextCursor).toBeUndefined();
    const resources = await client.listResources();
    expect(resources).toMatchObject(cached);
    expect(resources.resources.map((resource) => resource.name)).toEqual(["readme", "changelog"]);
    const rest = await client.listResources({ cursor: resources.nextCursor ?? "" });
    expect(rest.resources.map((resource) => resource.name)).toEqual(["secret", "own"]);
    expect(rest.nextCursor).toBeUndefined();
    expect(await client.listResourceTemplates()).toMatchObject({ ...cached, resourceTemplates: [{ name: "files" }] });
    expect(await client.listPrompts()).toMatchObject({ ...cached, prompts: [{ name: "p" }] });

    const read = async (uri: string) => {
      const { ttlMs, cacheScope } = await client.readResource({ uri });
      return { ttlMs, cacheScope };
    };
    expect(await read("file:///readme.md")).toEqual({ ttlMs: 1000, cacheScope: "public" });
    expect(await read("file:///changelog.md")).toEqual(cached);
    expect(await read("file:///secret.md")).toEqual({ ttlMs: 60_000, cacheScope: "private" });
    expect(await read("file:///own.md")).toEqual({ ttlMs: 7, cacheScope: "public" });
    expect(await read("file:///notes.txt")).toEqual({ ttlMs: 5, cacheScope: "public" });
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

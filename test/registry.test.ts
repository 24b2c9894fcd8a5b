// The registry (createMcpServer) at run time, against real clients: ours and the official SDK v2
// client, over stdio (a child process) and Streamable HTTP. Wrong arguments get the revision's
// error naming the path and never reach the handler; wrong structured content is an error; a
// tool registered while clients are connected reaches them as list_changed (2025-11-25) or on
// their listen stream (2026-07-28); the server's 505 tools come to every client and transport in
// pages, in registration order, each once (500 tools changing while listed: in memory); the
// template `file:///{path}` is read and completed; behind the endpoint's `auth`, each handler
// sees the authInfo its request's token was verified as.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { createInMemoryTransportPair, RpcError, type Transport } from "../runtime/index.js";
import { REGISTRY } from "../runtime/server/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { createRegistryServer, FILES, TOOLS } from "./fixtures/registry/server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const stdioServer = (revision: string) => ({
  command: process.execPath,
  args: ["--import", tsx, resolve("test/fixtures/registry/stdio.ts"), revision],
});

const textOf = (result: { content?: unknown }) =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? "").join("");

type ToolPage = { tools: { name: string }[]; nextCursor?: string | undefined };

/** The names on every page of tools/list, each page asked for with the cursor the last one gave. */
async function pagesOf(page: (cursor: string | undefined) => Promise<ToolPage>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  // A bound, so that a server whose cursors never end fails the test instead of hanging it.
  for (let i = 0; i === 0 || (cursor !== undefined && i < 20); i++) {
    const next = await page(cursor);
    pages.push(next.tools.map((tool) => tool.name));
    cursor = next.nextCursor;
  }
  return pages;
}

/** The fixture's tools (and those registered after it), in pages of 100, in order, each once. */
function expectEveryToolInOrder(pages: string[][], late: string[] = []) {
  expect(pages.map((page) => page.length)).toEqual([100, 100, 100, 100, 100, 5 + late.length]);
  expect(pages.flat()).toEqual([...TOOLS, ...late]);
}

/** Our client's listTools, page by page. */
const ourPages = (client: { listTools(params?: { cursor?: string }): Promise<ToolPage> }) =>
  pagesOf((cursor) => client.listTools(cursor === undefined ? undefined : { cursor }));

async function ourClient2025(transport: Transport) {
  const client = v2025.createClient({ transport, clientInfo: { name: "ours", version: "1" } });
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

/** What every client must see from the registry server, by calls the test makes through `call`. */
async function expectRegistryBehaviour(client: Awaited<ReturnType<typeof ourClient2025>>) {
  expectEveryToolInOrder(await ourPages(client));
  const add = (await client.listTools()).tools[0];
  expect(add?.inputSchema).toEqual({
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  });

  const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
  expect(sum.structuredContent).toEqual({ sum: 42 });
  expect(sum.content).toEqual([{ type: "text", text: '{"sum":42}' }]);

  // 2025-11-25: a tool execution error the model can read, naming the path; the handler never ran.
  const wrong = await client.callTool({ name: "add", arguments: { a: 2, b: "40" } });
  expect(wrong.isError).toBe(true);
  expect(textOf(wrong)).toMatch(/^Invalid arguments for tool add: \/b: /);
  const literal = await client.callTool({ name: "repeat", arguments: { text: "ab", times: 5 } });
  expect(textOf(literal)).toBe("Invalid arguments for tool repeat: /times: expected <= 3");
  expect(textOf(await client.callTool({ name: "calls" }))).toBe("1");

  const broken = await client.callTool({ name: "broken" }).catch((error: unknown) => error);
  expect(broken).toBeInstanceOf(RpcError);
  expect((broken as RpcError).code).toBe(-32603);
  expect((broken as RpcError).message).toMatch(/structuredContent that does not match its outputSchema: \/sum: /);

  const templates = (await client.listResourceTemplates()).resourceTemplates;
  expect(templates).toEqual([{ name: "files", uriTemplate: "file:///{path}", mimeType: "text/plain" }]);
  const read = await client.readResource({ uri: "file:///notes.txt" });
  expect(read.contents).toEqual([{ uri: "file:///notes.txt", mimeType: "text/plain", text: "contents of notes.txt" }]);
  const unknown = await client.readResource({ uri: "other:///notes.txt" }).catch((error: unknown) => error);
  expect((unknown as RpcError).code).toBe(-32002);
  const completed = await client.complete({
    ref: { type: "ref/resource", uri: "file:///{path}" },
    argument: { name: "path", value: "notes" },
  });
  expect(completed.completion).toEqual({ values: ["notes.txt", "notes-2.txt"], total: 2, hasMore: false });

  const prompt = await client.getPrompt({ name: "review", arguments: { code: "x = 1" } });
  expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Review this code: x = 1" });
  const missing = await client.getPrompt({ name: "review", arguments: {} }).catch((error: unknown) => error);
  expect((missing as RpcError).code).toBe(-32602);
  expect((missing as RpcError).message).toMatch(/^Invalid arguments for prompt review: \/code: /);
  expect((await client.listPrompts()).prompts).toEqual([
    {
      name: "review",
      arguments: [
        { name: "code", required: true },
        { name: "language", required: false },
      ],
    },
  ]);
}

describe("the registry at 2025-11-25, our client", () => {
  it("over stdio: checked arguments and output, the template, the prompt, list_changed from the server", async () => {
    const client = await ourClient2025(new StdioClientTransport({ ...stdioServer("2025-11-25"), stderr: "pipe" }));
    expect(client.server.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    await expectRegistryBehaviour(client);
    const changed = new Promise<void>((done) => client.on("notifications/tools/list_changed", () => done()));
    await client.callTool({ name: "grow" });
    await changed;
    expectEveryToolInOrder(await ourPages(client), ["late-1"]);
  });

  it("over HTTP: one registry for every session; registering and removing reach each of them", async () => {
    const mcp = createRegistryServer("2025-11-25");
    const http = await serveStreamableHttp({ onSession: (session) => mcp.connect(session) });
    cleanups.push(() => http.close());
    const first = await ourClient2025(new StreamableHttpClientTransport(http.url));
    const second = await ourClient2025(new StreamableHttpClientTransport(http.url));
    await expectRegistryBehaviour(first);
    const heard = [first, second].map(
      (client) => new Promise<void>((done) => client.on("notifications/tools/list_changed", () => done())),
    );
    const late = mcp.registerTool("late", { inputSchema: z.object({ x: z.string() }) }, ({ x }) => ({
      content: [{ type: "text", text: x }],
    }));
    await Promise.all(heard);
    expectEveryToolInOrder(await ourPages(second), ["late"]);
    const again = new Promise<void>((done) => first.on("notifications/tools/list_changed", () => done()));
    late.remove();
    await again;
    expectEveryToolInOrder(await ourPages(first));
  });

  it("resources/updated reaches the sessions that subscribed, and log levels filter log messages", async () => {
    const mcp = createRegistryServer("2025-11-25");
    mcp.registerTool("chatty", {}, async (_args, context) => {
      await context.log("debug", "details");
      await context.log("error", "trouble");
      return { content: [] };
    });
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await mcp.connect(serverSide);
    const client = await ourClient2025(clientSide);
    const logged: unknown[] = [];
    client.on("notifications/message", (params) => void logged.push(params.data));
    await client.setLevel({ level: "warning" });
    await client.callTool({ name: "chatty" });
    const updated = new Promise<string>((done) =>
      client.on("notifications/resources/updated", (params) => done(params.uri)),
    );
    await client.subscribe({ uri: "file:///todo.md" });
    await mcp.resourceUpdated("file:///elsewhere.md");
    await mcp.resourceUpdated("file:///todo.md");
    expect(await updated).toBe("file:///todo.md");
    expect(logged).toEqual(["trouble"]);
  });

  it("a server sharing another's registrations shares its change events: notify and resourceUpdated of either reach both", async () => {
    const mcp = createRegistryServer("2025-11-25");
    const sharing = v2025.createMcpServer({
      serverInfo: { name: "sharing", version: "1" },
      registrations: { registry: mcp[REGISTRY], invoke: (run, context) => run(context) },
    });
    const clients = [];
    for (const server of [mcp, sharing]) {
      const [clientSide, serverSide] = createInMemoryTransportPair();
      await server.connect(serverSide);
      clients.push(await ourClient2025(clientSide));
    }
    const updated = clients.map(
      (client) => new Promise<string>((done) => client.on("notifications/resources/updated", (p) => done(p.uri))),
    );
    const logged = clients.map(
      (client) => new Promise<unknown>((done) => client.on("notifications/message", (p) => done(p.data))),
    );
    for (const client of clients) await client.subscribe({ uri: "file:///todo.md" });
    await mcp.resourceUpdated("file:///todo.md");
    expect(await Promise.all(updated)).toEqual(["file:///todo.md", "file:///todo.md"]);
    await sharing.notify("notifications/message", { level: "info", data: "from the sharing one" });
    expect(await Promise.all(logged)).toEqual(["from the sharing one", "from the sharing one"]);
  });

  it("lists 500 tools in pages of 100, in registration order, with nothing skipped while tools come and go", async () => {
    const mcp = v2025.createMcpServer({ serverInfo: { name: "many", version: "1" } });
    const registered = Array.from({ length: 500 }, (_, i) =>
      mcp.registerTool(`tool-${String(i).padStart(3, "0")}`, {}, () => ({ content: [] })),
    );
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await mcp.connect(serverSide);
    const client = await ourClient2025(clientSide);
    const pages: string[][] = [];
    for await (const page of client.listToolsPages()) {
      pages.push(page.tools.map((t) => t.name));
      // Removing a tool already listed, and adding one, shifts nothing the client has yet to see.
      if (pages.length === 1) {
        registered[0]?.remove();
        mcp.registerTool("tool-new", {}, () => ({ content: [] }));
      }
    }
    expect(pages.map((p) => p.length)).toEqual([100, 100, 100, 100, 100, 1]);
    expect(pages.flat()).toEqual([
      ...Array.from({ length: 500 }, (_, i) => `tool-${String(i).padStart(3, "0")}`),
      "tool-new",
    ]);
    const invalid = await client.listTools({ cursor: "not-ours" }).catch((error: unknown) => error);
    expect((invalid as RpcError).code).toBe(-32602);
  });
});

describe("the registry behind the HTTP endpoint's auth", () => {
  it("hands each handler the authInfo that the verify hook gave for the request's token, at 2025-11-25 and 2026-07-28", async () => {
    const legacy = v2025.createMcpServer({ serverInfo: { name: "legacy", version: "1" } });
    legacy.registerTool("whoami", {}, (_args, context) => ({
      content: [{ type: "text", text: JSON.stringify(context.authInfo ?? null) }],
    }));
    const modern = v2026.createMcpServer({ serverInfo: { name: "modern", version: "1" } });
    modern.registerTool("whoami", {}, (_args, context) => ({
      content: [{ type: "text", text: JSON.stringify(context.authInfo ?? null) }],
    }));
    const who = (subject: string) => ({
      subject,
      clientId: `${subject}-app`,
      scopes: ["mcp"],
      audience: http.url,
      extra: { tenant: `${subject}-tenant` },
    });
    const http = await serveStreamableHttp({
      server: modern,
      onSession: (session) => legacy.connect(session),
      auth: {
        authorizationServers: ["https://auth.example.com"],
        verify: (token) => (token.startsWith("token-") ? who(token.slice("token-".length)) : undefined),
      },
    });
    cleanups.push(
      () => http.close(),
      () => modern.close(),
    );
    const headers = (subject: string) => ({ headers: { Authorization: `Bearer token-${subject}` } });
    const whoami = async (client: { callTool(params: { name: string }): Promise<{ content?: unknown }> }) =>
      JSON.parse(textOf(await client.callTool({ name: "whoami" }))) as unknown;

    // Two sessions of one registry, each with its own token: each call sees its own.
    const ada = await ourClient2025(new StreamableHttpClientTransport(http.url, headers("ada")));
    const bob = await ourClient2025(new StreamableHttpClientTransport(http.url, headers("bob")));
    expect(await whoami(ada)).toEqual(who("ada"));
    expect(await whoami(bob)).toEqual(who("bob"));
    expect(await whoami(ada)).toEqual(who("ada"));

    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url, headers("cy")),
      clientInfo: { name: "ours", version: "1" },
      cache: false,
    });
    await client.connect();
    cleanups.push(() => client.close());
    expect(await whoami(client)).toEqual(who("cy"));

    // No valid token: the endpoint refuses the request, no handler runs.
    const refused = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url, { headers: { Authorization: "Bearer forged" } }),
      clientInfo: { name: "ours", version: "1" },
    });
    cleanups.push(() => refused.close());
    await expect(refused.connect()).rejects.toThrow(/^Unauthorized: /);
  });
});

describe("the registry at 2026-07-28, our client over HTTP", () => {
  it("answers like at 2025-11-25 (invalid params for unknown resources), and registrations reach the listen stream", async () => {
    const mcp = createRegistryServer("2026-07-28");
    const http = await serveStreamableHttp({ server: mcp });
    cleanups.push(
      () => http.close(),
      () => mcp.close(),
    );
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url),
      clientInfo: { name: "ours", version: "1" },
      cache: false,
    });
    await client.connect();
    cleanups.push(() => client.close());
    const wrong = await client.callTool({ name: "add", arguments: { a: "2", b: 40 } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Invalid arguments for tool add: \/a: /);
    const unknown = await client.readResource({ uri: "other:///x" }).catch((error: unknown) => error);
    expect((unknown as RpcError).code).toBe(-32602);
    const list = await client.listTools();
    expect(list.ttlMs).toBe(0);

    const stop = new AbortController();
    const subscription = await client.listen({ toolsListChanged: true }, { signal: stop.signal });
    expect(subscription.notifications).toEqual({ toolsListChanged: true });
    const changed = new Promise<void>((done) => client.on("notifications/tools/list_changed", () => done()));
    mcp.registerTool("late", {}, () => ({ content: [] }));
    await changed;
    expectEveryToolInOrder(await ourPages(client), ["late"]);
    stop.abort();
    await subscription.ended;
  });
});

describe("the registry, the official SDK v2 client", () => {
  function sdkClient(mode: "legacy" | "auto") {
    const client = new Client({ name: "sdk-v2", version: "2.4.0" }, { versionNegotiation: { mode } });
    cleanups.push(() => client.close());
    return client;
  }

  async function expectSdkBehaviour(client: Client) {
    // Page by page (without a cursor the SDK's listTools walks every page itself, so the first
    // page is asked for as a plain request), and the SDK's own walk.
    const pages = await pagesOf((cursor) =>
      cursor === undefined ? client.request({ method: "tools/list" }) : client.listTools({ cursor }),
    );
    expectEveryToolInOrder(pages);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    const wrong = await client.callTool({ name: "add", arguments: { a: 1, b: [] } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Invalid arguments for tool add: \/b: /);
    expect(textOf(await client.callTool({ name: "calls", arguments: {} }))).toBe("1");
    await expect(client.callTool({ name: "broken", arguments: {} })).rejects.toThrow(/\/sum: /);
    const completed = await client.complete({
      ref: { type: "ref/resource", uri: "file:///{path}" },
      argument: { name: "path", value: "" },
    });
    expect(completed.completion.values).toEqual(FILES);
    expect((await client.readResource({ uri: "file:///todo.md" })).contents[0]).toMatchObject({
      text: "contents of todo.md",
    });
  }

  it("over stdio at 2025-11-25, with list_changed", async () => {
    const client = sdkClient("legacy");
    await client.connect(new SdkStdioClientTransport({ ...stdioServer("2025-11-25"), stderr: "pipe" }));
    await expectSdkBehaviour(client);
    const changed = new Promise<void>((done) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => done()),
    );
    await client.callTool({ name: "grow", arguments: {} });
    await changed;
  });

  it("over HTTP at 2025-11-25 (sessions) and at 2026-07-28 (stateless, listen stream)", async () => {
    const legacy = createRegistryServer("2025-11-25");
    const modern = createRegistryServer("2026-07-28");
    const http = await serveStreamableHttp({ server: modern, onSession: (session) => legacy.connect(session) });
    cleanups.push(
      () => http.close(),
      () => modern.close(),
    );
    const old = sdkClient("legacy");
    await old.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await expectSdkBehaviour(old);

    const client = sdkClient("auto");
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await expectSdkBehaviour(client);
    const changed = new Promise<void>((done) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => done()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    modern.registerTool("late", {}, () => ({ content: [] }));
    await changed;
    await subscription.close();
  });
});

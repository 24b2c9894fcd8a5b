// The generated 2026-07-28 client on the stateless Streamable HTTP transport (runtime/http/), over
// loopback: against the runtime's own 2026 endpoint (discovery, the lists, mirrored headers,
// Mcp-Param-* headers, multi round-trip input, subscriptions, cancellation by closing the stream,
// the response cache) and against scripted servers that misbehave (broken streams, which re-issue
// the request once under a new id; wrong ids, garbage, huge bodies, refusals without JSON-RPC).
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createHost, NegotiationError, ServerTimeoutError } from "../host/index.js";
import { ConnectionClosedError, MemoryCacheStore, RpcError } from "../runtime/index.js";
import { StreamableHttpClientTransport, StreamableHttpError } from "../runtime/http/client/client.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";

const complete = { resultType: "complete" as const };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Every HTTP request the client made, as it made it. */
interface Sent {
  method: string;
  headers: Record<string, string>;
  body: { id?: unknown; method?: string; params?: Record<string, unknown> } | undefined;
}

function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    sent.push({ method: init?.method ?? "GET", headers, body });
    return fetch(input, init);
  };
}

interface Counts {
  listTools: number;
  readResource: number;
  slow: number;
  cancelled: number;
}

function server2026(counts: Counts, ttlMs = 0, cacheScope: "public" | "private" = "private") {
  const server = v2026.createServer({
    serverInfo: { name: "http-client-2026", version: "1.0.0" },
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
    handlers: {
      listTools: () => {
        counts.listTools += 1;
        return {
          ...complete,
          ttlMs,
          cacheScope,
          tools: [
            {
              name: "deploy",
              inputSchema: {
                type: "object",
                properties: {
                  region: { type: "string", "x-mcp-header": "Region" },
                  target: { type: "object", properties: { replicas: { type: "integer", "x-mcp-header": "Replicas" } } },
                  note: { type: "string" },
                },
              },
            },
            { name: "slow", inputSchema: { type: "object" } },
            { name: "book", inputSchema: { type: "object" } },
            {
              name: "bad-number",
              inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
            },
            {
              name: "bad-items",
              inputSchema: {
                type: "object",
                properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } },
              },
            },
          ],
        };
      },
      callTool: async (params, context) => {
        if (params.name === "slow") {
          counts.slow += 1;
          await new Promise<void>((resolve) =>
            context.signal.addEventListener("abort", () => {
              counts.cancelled += 1;
              resolve();
            }),
          );
          return { content: [] };
        }
        if (params.name === "book") {
          if (!params.inputResponses)
            return {
              resultType: "input_required",
              inputRequests: {
                confirm: {
                  method: "elicitation/create",
                  params: {
                    message: "Book it?",
                    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
                  },
                },
              },
              requestState: "opaque-1",
            };
          const answer = params.inputResponses["confirm"] as { action?: string };
          return { content: [{ type: "text", text: `${params.requestState} ${answer.action}` }] };
        }
        await context.progress({ progress: 1, total: 1 });
        return { content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }] };
      },
      listResources: () => ({ ...complete, ttlMs, cacheScope, resources: [{ uri: "file:///a.txt", name: "a" }] }),
      readResource: (params) => {
        counts.readResource += 1;
        return { ...complete, ttlMs, cacheScope, contents: [{ uri: params.uri, text: `read ${counts.readResource}` }] };
      },
      listPrompts: () => ({ ...complete, ttlMs, cacheScope, prompts: [{ name: "hello" }] }),
      getPrompt: (params) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${params.name}` } }] }),
    },
  });
  cleanups.push(() => server.close());
  return server;
}

async function setup(
  options: { ttlMs?: number; cacheScope?: "public" | "private"; cache?: v2026.ClientOptions["cache"] } = {},
) {
  const counts: Counts = { listTools: 0, readResource: 0, slow: 0, cancelled: 0 };
  const server = server2026(counts, options.ttlMs, options.cacheScope);
  const http = await serveStreamableHttp({ server });
  cleanups.push(() => http.close());
  const sent: Sent[] = [];
  const errors: string[] = [];
  const open = (cache = options.cache) => {
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url, { fetch: recordingFetch(sent) }),
      clientInfo: { name: "test-client", version: "1.0.0" },
      handlers: { elicit: () => ({ action: "accept", content: { ok: true } }) },
      ...(cache !== undefined ? { cache } : {}),
      onError: (error) => errors.push(error.message),
    });
    cleanups.push(() => client.close());
    return client;
  };
  return { server, http, counts, sent, errors, open, client: open() };
}

describe("the 2026-07-28 client over Streamable HTTP", () => {
  it("discovers, lists, calls, reads and gets, each request a POST whose headers mirror its body", async () => {
    const { client, sent } = await setup();
    await client.connect();
    expect(client.server.serverInfo).toEqual({ name: "http-client-2026", version: "1.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["deploy", "slow", "book"]);
    const progress: unknown[] = [];
    const called = await client.callTool(
      { name: "deploy", arguments: { region: "eu-west-1", target: { replicas: 3 }, note: "x" } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(called.content).toEqual([
      { type: "text", text: JSON.stringify({ region: "eu-west-1", target: { replicas: 3 }, note: "x" }) },
    ]);
    expect(progress).toHaveLength(1);
    expect((await client.readResource({ uri: "file:///a.txt" })).contents).toEqual([
      { uri: "file:///a.txt", text: "read 1" },
    ]);
    expect((await client.getPrompt({ name: "hello" })).messages).toHaveLength(1);

    // One POST per message; no session, no GET stream, no DELETE.
    expect(sent.every((s) => s.method === "POST" && s.headers["Mcp-Session-Id"] === undefined)).toBe(true);
    for (const { headers, body } of sent) {
      expect(headers["MCP-Protocol-Version"]).toBe("2026-07-28");
      expect(headers["Mcp-Method"]).toBe(body?.method);
      expect(headers["Accept"]).toBe("application/json, text/event-stream");
    }
    const call = sent.find((s) => s.body?.method === "tools/call");
    expect(call?.headers).toMatchObject({
      "Mcp-Name": "deploy",
      "Mcp-Param-Region": "eu-west-1",
      "Mcp-Param-Replicas": "3",
    });
    expect(Object.keys(call?.headers ?? {}).filter((h) => h.startsWith("Mcp-Param-"))).toHaveLength(2);
    expect(sent.find((s) => s.body?.method === "resources/read")?.headers["Mcp-Name"]).toBe("file:///a.txt");
    expect(sent.find((s) => s.body?.method === "prompts/get")?.headers["Mcp-Name"]).toBe("hello");
  });

  it("leaves out tools whose header annotations break the rules, and says which and why", async () => {
    const { client, errors } = await setup();
    await client.connect();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("bad-number");
    expect(errors).toEqual([
      expect.stringMatching(/tool "bad-number" left out: .*not string, integer or boolean/),
      expect.stringMatching(/tool "bad-items" left out: .*not on a property reached through properties alone/),
    ]);
  });

  it("encodes argument values as the header rules say, and leaves out null and missing ones", async () => {
    const { client, sent } = await setup();
    await client.connect();
    await client.listTools();
    await client.callTool({ name: "deploy", arguments: { region: " Zürich ", target: { replicas: null } } });
    await client.callTool({ name: "deploy", arguments: { region: "=?base64?x?=" } });
    const calls = sent.filter((s) => s.body?.method === "tools/call").map((s) => s.headers);
    const base64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;
    expect(calls[0]?.["Mcp-Param-Region"]).toBe(base64(" Zürich "));
    expect(calls[0]?.["Mcp-Param-Replicas"]).toBeUndefined();
    expect(calls[1]?.["Mcp-Param-Region"]).toBe(base64("=?base64?x?="));
  });

  it("answers input requests and retries with their responses and the exact requestState, under new ids", async () => {
    const { client, sent } = await setup();
    await client.connect();
    const result = await client.callTool({ name: "book", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "opaque-1 accept" }]);
    const rounds = sent.filter((s) => s.body?.method === "tools/call");
    expect(rounds).toHaveLength(2);
    expect(rounds[0]?.body?.id).not.toBe(rounds[1]?.body?.id);
    expect(rounds[1]?.body?.params).toMatchObject({
      requestState: "opaque-1",
      inputResponses: { confirm: { action: "accept" } },
    });
  });

  it("delivers the server's refusals as the errors they are", async () => {
    const { client } = await setup();
    await client.connect();
    // The server declares resources but serves no templates: its refusal comes back as is.
    const error = await client.request("resources/templates/list", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32601);
  });

  it("cancels by closing the request's stream: the handler sees it, no notification is posted", async () => {
    const { client, counts, sent } = await setup();
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, { signal: controller.signal });
    await until(() => counts.slow === 1);
    controller.abort(new Error("the user gave up"));
    await expect(call).rejects.toThrow("the user gave up");
    await until(() => counts.cancelled === 1);
    // A timeout cancels the same way (long enough for the server to have started on the request).
    const timedOut = client.callTool({ name: "slow", arguments: {} }, { timeoutMs: 2000 });
    await expect(timedOut).rejects.toMatchObject({ code: -32001 });
    await until(() => counts.cancelled === counts.slow);
    expect(sent.filter((s) => s.body?.method === "notifications/cancelled")).toEqual([]);
  });

  it("holds a subscriptions/listen stream open: acknowledged filter, notifications to on(), ended by abort", async () => {
    const { client, server } = await setup();
    await client.connect();
    const changed: unknown[] = [];
    client.on("notifications/tools/list_changed", (params) => changed.push(params));
    const controller = new AbortController();
    const subscription = await client.listen(
      { toolsListChanged: true, promptsListChanged: true },
      { signal: controller.signal },
    );
    // The server offers no prompts: its acknowledgement leaves them out.
    expect(subscription.notifications).toEqual({ toolsListChanged: true });
    await server.notify("notifications/tools/list_changed");
    await until(() => changed.length === 1);
    controller.abort();
    expect(await subscription.ended).toBeUndefined();
  });

  it("ends a subscription with the error when the connection closes", async () => {
    const { client } = await setup();
    await client.connect();
    const subscription = await client.listen({ toolsListChanged: true });
    await client.close();
    expect(await subscription.ended).toBeInstanceOf(ConnectionClosedError);
  });
});

describe("the response cache", () => {
  it("serves fresh results again, and a list_changed notification makes them stale", async () => {
    const { client, counts, server } = await setup({ ttlMs: 60_000 });
    await client.connect();
    await client.listTools();
    await client.listTools();
    expect(counts.listTools).toBe(1);
    const subscription = await client.listen({ toolsListChanged: true });
    const refreshed = new Promise<unknown>((resolve) =>
      client.on("notifications/tools/list_changed", () => resolve(client.listTools())),
    );
    await server.notify("notifications/tools/list_changed");
    await refreshed;
    expect(counts.listTools).toBe(2);
    void subscription;
  });

  it("drops a read resource when the server says it was updated, and only that one", async () => {
    const { client, counts, server } = await setup({ ttlMs: 60_000 });
    await client.connect();
    await client.readResource({ uri: "file:///a.txt" });
    await client.readResource({ uri: "file:///b.txt" });
    await client.listen({ resourceSubscriptions: ["file:///a.txt"] });
    const updated = new Promise<void>((resolve) => client.on("notifications/resources/updated", () => resolve()));
    await server.notify("notifications/resources/updated", { uri: "file:///a.txt" });
    await updated;
    expect((await client.readResource({ uri: "file:///a.txt" })).contents).toEqual([
      { uri: "file:///a.txt", text: "read 3" },
    ]);
    await client.readResource({ uri: "file:///b.txt" });
    expect(counts.readResource).toBe(3);
  });

  it("keeps private results to their identity and shares public ones through a common store", async () => {
    const store = new MemoryCacheStore();
    const privately = await setup({ ttlMs: 60_000, cacheScope: "private" });
    const alice = privately.open({ store, server: "s", identity: "alice" });
    const bob = privately.open({ store, server: "s", identity: "bob" });
    await Promise.all([alice.connect(), bob.connect()]);
    privately.counts.listTools = 0;
    await alice.listTools();
    await alice.listTools();
    await bob.listTools();
    expect(privately.counts.listTools).toBe(2);

    const publicly = await setup({ ttlMs: 60_000, cacheScope: "public" });
    const carol = publicly.open({ store, server: "t", identity: "carol" });
    const dave = publicly.open({ store, server: "t", identity: "dave" });
    await Promise.all([carol.connect(), dave.connect()]);
    await carol.listTools();
    await dave.listTools();
    expect(publicly.counts.listTools).toBe(1);
  });

  it("refetches once the time to live is over, and not at all for a ttl of 0 or with the cache off", async () => {
    let now = 1_000;
    const fresh = await setup({ ttlMs: 500 });
    const client = fresh.open({ now: () => now });
    await client.connect();
    await client.listTools();
    now += 499;
    await client.listTools();
    now += 1;
    await client.listTools();
    expect(fresh.counts.listTools).toBe(2);

    const off = fresh.open(false);
    await off.connect();
    await off.listTools();
    expect(fresh.counts.listTools).toBe(3);

    const stale = await setup({ ttlMs: 0 });
    await stale.client.connect();
    await stale.client.listTools();
    await stale.client.listTools();
    expect(stale.counts.listTools).toBe(2);
  });
});

describe("the host over Streamable HTTP at 2026-07-28", () => {
  it("negotiates 2026-07-28 and cancels a timed-out call by closing its stream, through its views", async () => {
    const { http, counts } = await setup();
    const sent: Sent[] = [];
    const host = createHost({
      servers: { mcpServers: { s: { url: http.url } } },
      restart: false,
      transport: (spec) =>
        spec.kind === "url" ? new StreamableHttpClientTransport(spec.url, { fetch: recordingFetch(sent) }) : undefined,
    });
    cleanups.push(() => host.close());
    await host.connect();
    expect(host.servers.map((s) => [s.state, s.revision])).toEqual([["up", "2026-07-28"]]);
    const call = host.callTool("s__slow", {}, { timeoutMs: 2000 });
    await expect(call).rejects.toBeInstanceOf(ServerTimeoutError);
    await until(() => counts.slow === 1 && counts.cancelled === 1);
    expect(sent.map((s) => s.body?.method)).not.toContain("notifications/cancelled");
    // The probe travelled under a trial's id; every request after it under the client's own.
    expect(sent[0]?.body?.id).toMatch(/^mcp-gen-host-trial-1:/);
  });

  it("does not take a server that refuses discovery with a 2026-07-28 error for an older one", async () => {
    const { url, bodies } = await scriptedServer((body, _n, res) =>
      json(res, { jsonrpc: "2.0", id: body.id, error: { code: -32021, message: "Missing capability" } }, 400),
    );
    const host = createHost({ servers: { mcpServers: { s: { url } } }, restart: false });
    cleanups.push(() => host.close());
    await host.connect();
    expect(host.servers[0]?.error).toBeInstanceOf(NegotiationError);
    expect(bodies.map((b) => b.method)).toEqual(["server/discover"]);
  });
});

type Script = (body: { id: unknown; method: string }, n: number, res: ServerResponse, req: IncomingMessage) => void;

/** A server that answers each POST as `script` says, given the request's body and its number. */
async function scriptedServer(script: Script) {
  let n = 0;
  const bodies: { id: unknown; method: string }[] = [];
  const server = createHttpServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as { id: unknown; method: string };
      bodies.push(body);
      script(body, ++n, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/mcp`, bodies };
}

/** A scripted server that answers discovery itself, and a 2026-07-28 client connected to it. */
async function scripted(script: Script) {
  let n = 0;
  const { url, bodies } = await scriptedServer((body, _n, res, req) => {
    if (body.method !== "server/discover") return script(body, ++n, res, req);
    json(res, {
      jsonrpc: "2.0",
      id: body.id,
      result: {
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        supportedVersions: ["2026-07-28"],
        // What the scripts send: log messages and tool list changes.
        capabilities: { tools: { listChanged: true }, logging: {} },
      },
    });
  });
  const errors: string[] = [];
  const client = v2026.createClient({
    transport: new StreamableHttpClientTransport(url, { maxMessageBytes: 1024 * 1024 }),
    clientInfo: { name: "test-client", version: "1.0.0" },
    onError: (error) => errors.push(error.message),
    timeoutMs: 10_000,
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, bodies, errors };
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse, ...messages: unknown[]): void {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.flushHeaders();
  for (const message of messages)
    res.write(`data: ${typeof message === "string" ? message : JSON.stringify(message)}\n\n`);
}

const listed = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: { ...complete, ttlMs: 0, cacheScope: "private", tools: [] },
});

describe("the transport against servers that misbehave", () => {
  it("re-issues a request whose stream broke before its answer, once, under a new id", async () => {
    const { client, bodies } = await scripted((body, n, res) => {
      if (n === 1) {
        sse(res, { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
        setTimeout(() => res.destroy(), 20);
        return;
      }
      json(res, listed(body.id));
    });
    const logged: unknown[] = [];
    client.on("notifications/message", (params) => logged.push(params));
    expect((await client.listTools()).tools).toEqual([]);
    const [first, second] = bodies.filter((b) => b.method === "tools/list");
    expect(first?.id).not.toEqual(second?.id);
    expect(typeof second?.id).toBe("string");
    expect(logged).toHaveLength(1);
  });

  it("shows a re-issued subscription's notifications under the id the client knows", async () => {
    const { client, bodies } = await scripted((body, n, res) => {
      if (n === 1) {
        sse(res);
        setTimeout(() => res.destroy(), 20);
        return;
      }
      const tag = { "io.modelcontextprotocol/subscriptionId": body.id };
      sse(
        res,
        {
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: tag, notifications: { toolsListChanged: true } },
        },
        { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } },
      );
    });
    const tags: unknown[] = [];
    client.on("notifications/tools/list_changed", (params) => tags.push(params?._meta));
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.notifications).toEqual({ toolsListChanged: true });
    await until(() => tags.length === 1);
    const [first, second] = bodies.filter((b) => b.method === "subscriptions/listen");
    expect(second?.id).not.toEqual(first?.id);
    expect(tags).toEqual([{ "io.modelcontextprotocol/subscriptionId": first?.id }]);
  });

  it("re-issues a request whose JSON answer broke off", async () => {
    const { client, bodies } = await scripted((body, n, res) => {
      if (n > 1) return json(res, listed(body.id));
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "1000" });
      res.write('{"jsonrpc":"2.0",');
      setTimeout(() => res.destroy(), 20);
    });
    expect((await client.listTools()).tools).toEqual([]);
    expect(bodies.filter((b) => b.method === "tools/list")).toHaveLength(2);
  });

  it("re-issues a request whose connection closed before any answer, and names the cause when it fails twice", async () => {
    const { client, bodies } = await scripted((body, n, res) => {
      if (n === 1 || n > 2) return void res.socket?.destroy();
      json(res, listed(body.id));
    });
    expect((await client.listTools()).tools).toEqual([]);
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(bodies.filter((b) => b.method === "tools/list")).toHaveLength(4);
  });

  it("gives up when the re-issued request's stream breaks too", async () => {
    const { client, bodies } = await scripted((_body, _n, res) => {
      sse(res);
      res.end();
    });
    await expect(client.listTools()).rejects.toThrow(/the stream of tools\/list ended without its answer/);
    expect(bodies.filter((b) => b.method === "tools/list")).toHaveLength(2);
  });

  it("reports garbage and answers to other ids on a stream, and still takes the answer", async () => {
    const { client, errors } = await scripted((body, _n, res) => {
      sse(
        res,
        "{not json",
        { jsonrpc: "2.0", id: "someone-else", result: {} },
        { jsonrpc: "2.0", id: 99, method: "roots/list" },
        listed(body.id),
      );
      // The answer ends the exchange even though the server keeps the stream open.
    });
    expect((await client.listTools()).tools).toEqual([]);
    expect(errors).toEqual([
      expect.stringMatching(/not JSON/),
      expect.stringMatching(/an answer to "someone-else" came on the stream of tools\/list/),
      expect.stringMatching(/the server sent a request \(roots\/list\) on the stream of tools\/list/),
    ]);
  });

  it("fails a request with a clear error, never a hang, for wrong ids, huge bodies, 202s and bare refusals", async () => {
    const replies: ((body: { id: unknown }, res: ServerResponse) => void)[] = [
      (body, res) => json(res, listed(`not-${String(body.id)}`)),
      (body, res) => json(res, { ...listed(body.id), padding: "x".repeat(2 * 1024 * 1024) }),
      (_body, res) => {
        res.writeHead(202);
        res.end();
      },
      (_body, res) => {
        res.writeHead(400, { "Content-Type": "text/plain" });
        res.end("no");
      },
      (_body, res) => {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html>");
      },
      (_body, res) => sse(res, "x".repeat(2 * 1024 * 1024)),
    ];
    const { client } = await scripted((body, n, res) => replies[n - 1]?.(body, res));
    await expect(client.listTools()).rejects.toThrow(/the JSON answer to tools\/list carries no response to it/);
    await expect(client.listTools()).rejects.toThrow(/the answer to tools\/list is over 1048576 bytes/);
    await expect(client.listTools()).rejects.toThrow(/accepted tools\/list without answering it/);
    const refused = await client.listTools().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StreamableHttpError);
    expect(refused).toMatchObject({ status: 400, body: "no" });
    await expect(client.listTools()).rejects.toThrow(/unexpected Content-Type "text\/html"/);
    await expect(client.listTools()).rejects.toThrow(/an SSE event longer than 1048576 characters/);
  });

  it("takes a refusal's JSON-RPC error body as the answer, also without an id", async () => {
    const { client } = await scripted((body, n, res) =>
      json(
        res,
        { jsonrpc: "2.0", ...(n === 1 ? { id: body.id } : {}), error: { code: -32020, message: "Header mismatch" } },
        400,
      ),
    );
    await expect(client.listTools()).rejects.toMatchObject({ code: -32020, message: "Header mismatch" });
    await expect(client.listTools()).rejects.toMatchObject({ code: -32020 });
  });

  it("says in words what a load balancer's error page means, and what the page says", async () => {
    // The pages nginx and HAProxy answer when the node behind them died or timed out.
    const pages = [
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>" +
        "\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n",
      "<html><body><h1>504 Gateway Time-out</h1>\nThe server didn't respond in time.\n</body></html>\n",
    ];
    const { client } = await scripted((_body, n, res) => {
      res.writeHead(n === 1 ? 502 : 504, { "Content-Type": "text/html" });
      res.end(pages[n - 1]);
    });
    const proxy = "a proxy or load balancer in front of the MCP server";
    const badGateway = await client.listTools().catch((e: unknown) => e);
    expect(badGateway).toBeInstanceOf(StreamableHttpError);
    expect(badGateway).toMatchObject({
      status: 502,
      body: pages[0],
      message: `HTTP 502 (${proxy} got no valid answer from it): 502 Bad Gateway nginx/1.22.1`,
    });
    await expect(client.listTools()).rejects.toThrow(
      `HTTP 504 (${proxy} got no answer from it in time): 504 Gateway Time-out The server didn't respond in time.`,
    );
  });

  it("tries again once when the server refuses the version but lists it, else names the versions it speaks", async () => {
    const refusal = (id: unknown, supported: string[]) => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested: "2026-07-28" } },
    });
    const { client } = await scripted((body, n, res) => {
      if (n === 1) return json(res, refusal(body.id, ["2026-07-28"]), 400);
      if (n === 2) return json(res, listed(body.id));
      json(res, refusal(body.id, ["2027-01-01"]), 400);
    });
    expect((await client.listTools()).tools).toEqual([]);
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(v2026.ProtocolVersionError);
    expect((error as v2026.ProtocolVersionError).offered).toEqual(["2027-01-01"]);
  });

  it("close() aborts what is in flight", async () => {
    const { client, bodies } = await scripted((_body, _n, res) => sse(res));
    const pending = client.listTools();
    await until(() => bodies.some((b) => b.method === "tools/list"));
    await client.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

// The Streamable HTTP transports of 2025-era sessions (runtime/http/) on
// loopback: generated client and server with each other and with the official SDK's HTTP
// transports, resumption after the server closes a stream, and the HTTP answers the transport
// specification asks for (sessions, headers, DNS rebinding).
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkHttpClient } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport as SdkHttpServer } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer as createHttpServer, request, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createClient, createServer, type Server } from "../generated/2025-11-25/index.js";
import { createServer as createServer0618 } from "../generated/2025-06-18/index.js";
import { StreamableHttpClientTransport, StreamableHttpError } from "../runtime/http/client/client.js";
import {
  serveStreamableHttp,
  type StreamableHttpServer,
  type StreamableHttpSession,
} from "../runtime/http/server/server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A generated server per session: an echo tool, a tool that asks the client, one that polls. */
function exampleServer(session: StreamableHttpSession, servers: Server[] = []): Server {
  const server = createServer({
    serverInfo: { name: "http-test", version: "1.0.0" },
    // It announces tool list changes (the GET stream test), which needs the capability.
    capabilities: { tools: { listChanged: true } },
    handlers: {
      listTools: () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
      callTool: async (params, context) => {
        if (params.name === "echo") return { content: [{ type: "text", text: String(params.arguments?.["text"]) }] };
        if (params.name === "ask") {
          await context.progress({ progress: 1, total: 2 });
          await context.notify("notifications/message", { level: "info", data: "asking" });
          const sampled = await context.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
            maxTokens: 5,
          });
          return { content: [sampled.content as { type: "text"; text: string }] };
        }
        // "poll": the answer comes after the client had to reconnect for it.
        await context.notify("notifications/message", { level: "info", data: "before the break" });
        session.closeSSEStream(context.requestId);
        await context.notify("notifications/message", { level: "info", data: "while away" });
        return { content: [{ type: "text", text: "after the break" }] };
      },
      setLevel: () => ({}),
    },
  });
  servers.push(server);
  return server;
}

async function serve(options: Partial<Parameters<typeof serveStreamableHttp>[0]> = {}, servers: Server[] = []) {
  const http = await serveStreamableHttp({
    onSession: (session) => exampleServer(session, servers).connect(session),
    retryMs: 5,
    ...options,
  });
  cleanups.push(() => http.close());
  return http;
}

function generatedClient(url: string, options: { openStream?: boolean } = {}) {
  const errors: Error[] = [];
  const transport = new StreamableHttpClientTransport(url, { reconnect: { initialDelayMs: 5 }, ...options });
  const client = createClient({
    transport,
    clientInfo: { name: "http-test-client", version: "1.0.0" },
    handlers: {
      createMessage: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "test" }),
    },
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => client.close());
  return { client, transport, errors };
}

/** Calls "echo", then "ask" (progress, a log message and a sampling request while it runs). */
async function echoAndAsk(client: ReturnType<typeof generatedClient>["client"]) {
  const echoed = await client.callTool({ name: "echo", arguments: { text: "hi" } });
  const logs: unknown[] = [];
  client.on("notifications/message", (params) => logs.push(params.data));
  const progress: unknown[] = [];
  const asked = await client.callTool({ name: "ask" }, { onProgress: (update) => progress.push(update["progress"]) });
  return { echoed: echoed.content, asked: asked.content, progress, logs };
}

const ECHOED_AND_ASKED = {
  echoed: [{ type: "text", text: "hi" }],
  asked: [{ type: "text", text: "4" }],
  progress: [1],
  logs: ["asking"],
};

/** A raw request to the endpoint, for the HTTP-level answers. */
async function raw(http: StreamableHttpServer, init: RequestInit & { headers?: Record<string, string> }) {
  const response = await fetch(http.url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const postHeaders = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

async function rawSession(http: StreamableHttpServer): Promise<string> {
  const response = await raw(http, { method: "POST", headers: postHeaders, body: initialize });
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id") as string;
}

describe("generated client and server over Streamable HTTP", () => {
  it("runs the handshake, requests, progress, logging and a server→client request on the request's stream", async () => {
    const http = await serve();
    const { client, transport, errors } = generatedClient(http.url);
    await client.connect();
    expect(transport.sessionId).toBe([...http.handler.sessions.keys()][0]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(await echoAndAsk(client)).toEqual(ECHOED_AND_ASKED);
    expect(errors).toEqual([]);
  });

  it("answers with one JSON body in jsonResponse mode; what a handler sends meanwhile takes the GET stream", async () => {
    const http = await serve({ jsonResponse: true });
    const handshake = await raw(http, { method: "POST", headers: postHeaders, body: initialize });
    expect(handshake.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(handshake.text)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });

    const { client, transport, errors } = generatedClient(http.url);
    await client.connect();
    // The GET stream opens after the handshake: wait until the session has it.
    const session = http.handler.sessions.get(transport.sessionId as string);
    for (let i = 0; i < 500 && !session?.busy; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(await echoAndAsk(client)).toEqual(ECHOED_AND_ASKED);
    expect(errors).toEqual([]);

    // Without a GET stream a handler's request to the client fails at once, and so does the call.
    const { client: streamless } = generatedClient(http.url, { openStream: false });
    await streamless.connect();
    await expect(streamless.callTool({ name: "ask" })).rejects.toMatchObject({ code: -32603 });
  });

  it("delivers server-initiated notifications on the GET stream", async () => {
    const servers: Server[] = [];
    const http = await serve({}, servers);
    const { client } = generatedClient(http.url);
    const changed = new Promise<void>((resolve) => client.on("notifications/tools/list_changed", () => resolve()));
    await client.connect();
    // The GET stream opens after the handshake; keep notifying until it has carried one.
    const timer = setInterval(() => void servers[0]?.notify("notifications/tools/list_changed").catch(() => {}), 10);
    await changed.finally(() => clearInterval(timer));
  });

  it("resumes a stream the server closed mid-call: the client reconnects with Last-Event-ID and gets the rest", async () => {
    const http = await serve();
    const { client, errors } = generatedClient(http.url);
    const logs: unknown[] = [];
    client.on("notifications/message", (params) => logs.push(params.data));
    await client.connect();
    expect(await client.callTool({ name: "poll" })).toEqual({ content: [{ type: "text", text: "after the break" }] });
    expect(logs).toEqual(["before the break", "while away"]);
    expect(errors).toEqual([]);
  });

  it("sends MCP-Protocol-Version after the handshake and ends the session with DELETE on close", async () => {
    const seen: (string | undefined)[] = [];
    const http = await serve();
    const { client } = generatedClient(http.url, { openStream: false });
    const original = http.handler.handle;
    Object.assign(http.handler, {
      handle: (req: Parameters<typeof original>[0], res: Parameters<typeof original>[1]) => {
        seen.push(req.headers["mcp-protocol-version"] as string | undefined);
        return original(req, res);
      },
    });
    await client.connect();
    await client.ping();
    expect(http.handler.sessions.size).toBe(1);
    await client.close();
    expect(http.handler.sessions.size).toBe(0);
    expect(seen[0]).toBeUndefined();
    expect(seen.slice(1).every((version) => version === "2025-11-25")).toBe(true);
  });

  it("closing the server ends its session", async () => {
    const servers: Server[] = [];
    const http = await serve({}, servers);
    const { client } = generatedClient(http.url);
    await client.connect();
    await servers[0]?.close();
    expect(http.handler.sessions.size).toBe(0);
    await expect(client.ping()).rejects.toBeInstanceOf(StreamableHttpError);
  });
});

describe("interoperability with the official SDK's Streamable HTTP transports", () => {
  it("the SDK client talks to a generated server over our server transport", async () => {
    const http = await serve();
    const client = new SdkClient({ name: "sdk", version: "1.0.0" });
    await client.connect(new SdkHttpClient(new URL(http.url)));
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "sdk" } })).toEqual({
      content: [{ type: "text", text: "sdk" }],
    });
    expect(await client.callTool({ name: "poll" })).toMatchObject({ content: [{ text: "after the break" }] });
  });

  it("a generated client talks to an SDK McpServer over the SDK's server transport", async () => {
    const transports = new Map<string, SdkHttpServer>();
    const httpServer: HttpServer = createHttpServer(async (req, res) => {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? transports.get(id) : undefined;
      if (!transport) {
        const mcp = new McpServer({ name: "sdk-server", version: "1.0.0" });
        mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
          content: [{ type: "text", text: String(a + b) }],
        }));
        const created = new SdkHttpServer({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
        });
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      for (const transport of transports.values()) await transport.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    });
    const { port } = httpServer.address() as AddressInfo;
    const { client, errors } = generatedClient(`http://127.0.0.1:${port}/mcp`);
    await client.connect();
    expect(client.server.serverInfo?.name).toBe("sdk-server");
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: "text", text: "5" }],
    });
    expect(errors).toEqual([]);
  });
});

describe("HTTP answers of the server transport", () => {
  it("refuses a foreign Host or Origin (DNS rebinding) and accepts the loopback names", async () => {
    const http = await serve();
    const port = new URL(http.url).port;
    const post = (headers: Record<string, string>) =>
      raw(http, { method: "POST", headers: { ...postHeaders, ...headers }, body: initialize });
    // fetch sets Host itself, so a foreign Host is sent through node:http.
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const outgoing = request(http.url, {
        method: "POST",
        headers: { ...postHeaders, Host: `evil.example.com:${port}` },
      });
      outgoing.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on("error", reject);
      outgoing.end(initialize);
    });
    expect(foreignHost).toBe(403);
    expect((await post({ Origin: "http://evil.example.com" })).status).toBe(403);
    expect((await post({ Origin: "null" })).status).toBe(403);
    expect((await post({ Origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it("answers bad requests with the status the transport specification names", async () => {
    const http = await serve();
    const session = await rawSession(http);
    const withSession = { ...postHeaders, "Mcp-Session-Id": session };
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
    const cases: [RequestInit & { headers?: Record<string, string> }, number, number | undefined][] = [
      [{ method: "POST", headers: { ...withSession, Accept: "application/json" }, body: ping }, 406, -32000],
      [{ method: "POST", headers: { ...withSession, "Content-Type": "text/plain" }, body: ping }, 415, -32000],
      [{ method: "POST", headers: withSession, body: "{not json" }, 400, -32700],
      [{ method: "POST", headers: withSession, body: `[${ping}]` }, 400, -32600],
      [{ method: "POST", headers: withSession, body: '{"jsonrpc":"2.0","id":3}' }, 400, -32600],
      [{ method: "POST", headers: postHeaders, body: ping }, 400, -32000],
      [{ method: "POST", headers: { ...postHeaders, "Mcp-Session-Id": "nope" }, body: ping }, 404, -32001],
      [{ method: "POST", headers: { ...withSession, "MCP-Protocol-Version": "latest" }, body: ping }, 400, -32000],
      [{ method: "PUT", headers: withSession, body: ping }, 405, -32000],
      [{ method: "GET", headers: { ...withSession, Accept: "application/json" } }, 406, -32000],
    ];
    for (const [init, status, code] of cases) {
      const response = await raw(http, init);
      expect({ init, status: response.status }).toEqual({ init, status });
      expect((JSON.parse(response.text) as { error: { code: number } }).error.code).toBe(code);
    }
  });

  it("takes notifications with 202, allows one GET stream per session, and forgets a DELETEd session", async () => {
    const http = await serve();
    const session = await rawSession(http);
    const headers = { ...postHeaders, "Mcp-Session-Id": session };
    const note = await raw(http, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(note.status).toBe(202);
    const controller = new AbortController();
    const stream = await fetch(http.url, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": session },
      signal: controller.signal,
    });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect((await raw(http, { headers: { Accept: "text/event-stream", "Mcp-Session-Id": session } })).status).toBe(409);
    controller.abort();
    expect((await raw(http, { method: "DELETE", headers: { "Mcp-Session-Id": session } })).status).toBe(200);
    expect(http.handler.sessions.size).toBe(0);
    expect(
      (await raw(http, { method: "POST", headers, body: '{"jsonrpc":"2.0","id":4,"method":"ping"}' })).status,
    ).toBe(404);
  });

  it("expires unfinished handshakes and idle sessions (open stream or not), and at maxSessions closes the unfinished, then the least recently active", async () => {
    // Only the expiry clock is faked; sockets and undici's own timers run for real.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    try {
      const http = await serve({ sessionIdleMs: 60_000, handshakeTimeoutMs: 10_000, maxSessions: 2 });
      const ping = (session: string) =>
        raw(http, {
          method: "POST",
          headers: { ...postHeaders, "Mcp-Session-Id": session },
          body: '{"jsonrpc":"2.0","id":9,"method":"ping"}',
        });
      const finished = async () => {
        const session = await rawSession(http);
        const note = await raw(http, {
          method: "POST",
          headers: { ...postHeaders, "Mcp-Session-Id": session },
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        });
        expect(note.status).toBe(202);
        return session;
      };

      // A client that never comes back after the handshake loses its session fast.
      const abandoned = await rawSession(http);
      vi.advanceTimersByTime(10_000);
      expect(http.handler.sessions.size).toBe(0);
      expect((await ping(abandoned)).status).toBe(404);

      const older = await finished();
      vi.advanceTimersByTime(1_000);
      const watched = await finished();
      const controller = new AbortController();
      await fetch(http.url, {
        headers: { Accept: "text/event-stream", "Mcp-Session-Id": watched },
        signal: controller.signal,
      });
      // At the cap the least recently active session makes room; then an unfinished one goes first.
      const third = await rawSession(http);
      expect([...http.handler.sessions.keys()]).toEqual([watched, third]);
      expect((await ping(older)).status).toBe(404);
      const fourth = await rawSession(http);
      expect([...http.handler.sessions.keys()]).toEqual([watched, fourth]);

      // An open GET stream does not keep a session no request names (expiry runs every 10 s here).
      vi.advanceTimersByTime(70_000);
      expect(http.handler.sessions.size).toBe(0);
      expect((await ping(watched)).status).toBe(404);
      controller.abort();
      expect((await raw(http, { method: "POST", headers: postHeaders, body: initialize })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("primes each stream with an event id and a retry, and numbers its events for resumption", async () => {
    const http = await serve({ retryMs: 1234 });
    const response = await raw(http, { method: "POST", headers: postHeaders, body: initialize });
    const events = response.text.split("\n\n").filter(Boolean);
    expect(events[0]).toBe("id: 1_0\nretry: 1234\ndata: ");
    expect(events[1]).toMatch(/^event: message\nid: 1_1\ndata: \{"jsonrpc":"2\.0","id":1,"result":/);
  });

  it("does not prime streams of servers of revisions before 2025-11-25 (their binding says so)", async () => {
    const http = await serve({
      onSession: (session) =>
        createServer0618({ serverInfo: { name: "older", version: "1.0.0" }, handlers: {} }).connect(session),
    });
    const older = initialize.replace("2025-11-25", "2025-06-18");
    const response = await raw(http, { method: "POST", headers: postHeaders, body: older });
    expect(response.text.startsWith("event: message\ndata: ")).toBe(true);
    expect(response.text).not.toContain("id: ");
  });
});

// A generated 2026-07-28 server behind the MCP endpoint (runtime/http/), driven over loopback with
// raw HTTP as a 2026 client (or a hostile one) would: the answers and statuses the 2026-07-28
// transport page names, streams for request-scoped notifications, subscriptions/listen,
// cancellation by closing the response, 2025-era sessions on the same URL, the fetch face, and
// hostile traffic (bad headers, floods, a listener that never reads).
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkV1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { serveStreamableHttp, type ServeOptions } from "../runtime/http/server/server.js";

const REV = "2026-07-28";
const meta = {
  "io.modelcontextprotocol/protocolVersion": REV,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const complete = { resultType: "complete" as const };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Seen {
  cancelled: number;
}

function server2026(seen: Seen = { cancelled: 0 }) {
  const server = v2026.createServer({
    serverInfo: { name: "http-2026", version: "1.0.0" },
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
      logging: {},
    },
    handlers: {
      listTools: () => ({
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        tools: [{ name: "echo", inputSchema: { type: "object" } }],
      }),
      callTool: async (params, context) => {
        if (params.name === "slow") {
          await new Promise<void>((resolve) =>
            context.signal.addEventListener("abort", () => {
              seen.cancelled += 1;
              resolve();
            }),
          );
          return { content: [] };
        }
        if (params.name === "chatty") {
          await context.progress({ progress: 1, total: 2 });
          await context.notify("notifications/message", { level: "debug", data: "debug detail" });
          await context.notify("notifications/message", { level: "warning", data: "careful" });
        }
        return { content: [{ type: "text", text: `echo ${JSON.stringify(params.arguments ?? {})}` }] };
      },
      listPrompts: () => ({ ...complete, ttlMs: 0, cacheScope: "private", prompts: [] }),
      getPrompt: () => ({ messages: [] }),
      readResource: (params) => ({
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        contents: [{ uri: params.uri, text: "x" }],
      }),
    },
  });
  cleanups.push(() => server.close());
  return server;
}

async function serve(options: Partial<ServeOptions> = {}) {
  const http = await serveStreamableHttp({ server: server2026(), ...options });
  cleanups.push(() => http.close());
  return http;
}

interface Answer {
  status: number;
  type: string;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  events: { method?: string; params?: Record<string, unknown>; id?: unknown }[];
  text: string;
}

/** Standard 2026 headers for a request, with `overrides` (undefined removes one). */
function headersFor(method: string, name: string | undefined, overrides: Record<string, string | undefined> = {}) {
  const headers: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": REV,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
}

function parseAnswer(status: number, type: string, text: string): Answer {
  if (!type.startsWith("text/event-stream"))
    return { status, type, body: text ? JSON.parse(text) : {}, events: [], text };
  const events = text
    .split("\n\n")
    .map((event) =>
      event
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n"),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
  const body = events.find((e) => "result" in e || "error" in e) ?? {};
  return { status, type, body, events: events.filter((e) => "method" in e), text };
}

async function post(
  url: string,
  method: string,
  params: Record<string, unknown>,
  overrides: Record<string, string | undefined> = {},
  id: number | string = 1,
): Promise<Answer> {
  const name =
    typeof params["name"] === "string" ? params["name"] : typeof params["uri"] === "string" ? params["uri"] : undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor(method, name, overrides),
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  return parseAnswer(response.status, response.headers.get("content-type") ?? "", await response.text());
}

/** Opens a subscriptions/listen stream and collects its messages until `stop()`. */
async function listen(url: string, notifications: Record<string, unknown>, id: number | string = 99) {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor("subscriptions/listen", undefined),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { _meta: meta, notifications },
    }),
    signal: controller.signal,
  });
  const messages: { method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> }[] = [];
  const waiters: (() => void)[] = [];
  const reading = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const data = buffer
            .slice(0, cut)
            .split("\n")
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6))
            .join("");
          buffer = buffer.slice(cut + 2);
          if (data) messages.push(JSON.parse(data));
          for (const wake of waiters.splice(0)) wake();
        }
      }
    } catch {
      // Aborted by stop().
    }
  })();
  const next = async (count: number) => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages;
  };
  return { response, messages, next, reading, stop: () => controller.abort() };
}

describe("2026-07-28 over HTTP: answers", () => {
  it("answers with JSON, the request's id, and the status the transport page names", async () => {
    const http = await serve();
    const discover = await post(http.url, "server/discover", { _meta: meta }, {}, "d-1");
    expect(discover.status).toBe(200);
    expect(discover.type).toMatch(/^application\/json/);
    expect(discover.body.id).toBe("d-1");
    expect(discover.body.result?.["supportedVersions"]).toEqual([REV]);

    const noMeta = await post(http.url, "server/discover", {}, {}, 101);
    expect([noMeta.status, noMeta.body.id, noMeta.body.error?.code]).toEqual([400, 101, -32602]);

    const old = { ...meta, "io.modelcontextprotocol/protocolVersion": "2025-11-25" };
    const unsupported = await post(
      http.url,
      "tools/list",
      { _meta: old },
      { "mcp-protocol-version": "2025-11-25" },
      102,
    );
    expect([unsupported.status, unsupported.body.error?.code]).toEqual([400, -32022]);
    expect(unsupported.body.error?.data).toEqual({ supported: [REV], requested: "2025-11-25" });

    for (const method of ["initialize", "ping", "logging/setLevel", "no/such/method"]) {
      const gone = await post(http.url, method, { _meta: meta }, {}, 103);
      expect([method, gone.status, gone.body.id, gone.body.error?.code]).toEqual([method, 404, 103, -32601]);
    }
  });

  it("refuses requests whose headers do not mirror the body with 400 and HeaderMismatch", async () => {
    const http = await serve();
    const call = { name: "echo", arguments: {}, _meta: meta };
    const cases: [string, Record<string, unknown>, Record<string, string | undefined>][] = [
      ["no MCP-Protocol-Version", call, { "mcp-protocol-version": undefined }],
      ["another MCP-Protocol-Version", call, { "mcp-protocol-version": "2025-11-25" }],
      ["no Mcp-Method", call, { "mcp-method": undefined }],
      ["another Mcp-Method", call, { "mcp-method": "tools/list" }],
      ["no Mcp-Name", call, { "mcp-name": undefined }],
      ["another Mcp-Name", call, { "mcp-name": "other" }],
      ["a malformed Base64 Mcp-Name", call, { "mcp-name": "=?base64?***?=" }],
      ["a resource's other uri", { uri: "file:///a", _meta: meta }, { "mcp-name": "file:///b" }],
    ];
    for (const [label, params, overrides] of cases) {
      const method = "uri" in params ? "resources/read" : "tools/call";
      const answer = await post(http.url, method, params, overrides, 7);
      expect([label, answer.status, answer.body.id, answer.body.error?.code]).toEqual([label, 400, 7, -32020]);
    }
    // The Base64 sentinel form of the right name is the name.
    const encoded = `=?base64?${Buffer.from("echo").toString("base64")}?=`;
    expect((await post(http.url, "tools/call", call, { "mcp-name": encoded })).status).toBe(200);
  });

  it("streams request-scoped notifications before the answer, log messages only at the level asked for", async () => {
    const http = await serve();
    const quiet = await post(http.url, "tools/call", { name: "chatty", arguments: {}, _meta: meta });
    // No progress token and no log level: nothing to stream, a JSON answer.
    expect(quiet.type).toMatch(/^application\/json/);
    const loud = await post(http.url, "tools/call", {
      name: "chatty",
      arguments: {},
      _meta: { ...meta, progressToken: "p", "io.modelcontextprotocol/logLevel": "info" },
    });
    expect(loud.status).toBe(200);
    expect(loud.type).toMatch(/^text\/event-stream/);
    expect(loud.events.map((e) => [e.method, e.params?.["level"] ?? e.params?.["progressToken"]])).toEqual([
      ["notifications/progress", "p"],
      ["notifications/message", "warning"],
    ]);
    expect(loud.body.result?.["content"]).toBeDefined();
  });

  it("cancels a request whose client closes the response", async () => {
    const seen: Seen = { cancelled: 0 };
    const server = server2026(seen);
    const http = await serveStreamableHttp({ server });
    cleanups.push(() => http.close());
    const controller = new AbortController();
    const pending = fetch(http.url, {
      method: "POST",
      headers: headersFor("tools/call", "slow"),
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: meta } }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await pending;
    for (let i = 0; i < 100 && seen.cancelled === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.cancelled).toBe(1);
  });
});

describe("2026-07-28 over HTTP: Mcp-Param headers", () => {
  it("checks a listed tool's annotated arguments against their headers", async () => {
    const server = v2026.createServer({
      serverInfo: { name: "params", version: "1.0.0" },
      handlers: {
        listTools: () => ({
          ttlMs: 0,
          cacheScope: "private",
          tools: [
            {
              name: "sql",
              inputSchema: {
                type: "object",
                properties: {
                  region: { type: "string", "x-mcp-header": "Region" },
                  shard: { type: "integer", "x-mcp-header": "Shard" },
                  query: { type: "string" },
                },
              },
            },
          ],
        }),
        callTool: () => ({ content: [] }),
      },
    });
    cleanups.push(() => server.close());
    const http = await serveStreamableHttp({ server });
    cleanups.push(() => http.close());
    const call = (args: Record<string, unknown>, headers: Record<string, string | undefined> = {}) =>
      post(http.url, "tools/call", { name: "sql", arguments: args, _meta: meta }, headers, 9);
    // Not listed yet: nothing says which headers the tool expects.
    expect((await call({ region: "eu" })).status).toBe(200);
    await post(http.url, "tools/list", { _meta: meta });
    const b64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;
    const cases: [string, Record<string, unknown>, Record<string, string | undefined>, number][] = [
      ["header matches", { region: "eu", query: "q" }, { "mcp-param-region": "eu" }, 200],
      ["Base64 form", { region: "日本" }, { "mcp-param-region": b64("日本") }, 200],
      ["integer compared as a number", { shard: 42 }, { "mcp-param-shard": "42.0" }, 200],
      ["no value, no header", { query: "q" }, {}, 200],
      ["null value, no header", { region: null }, {}, 200],
      ["missing header", { region: "eu" }, {}, 400],
      ["another value", { region: "eu" }, { "mcp-param-region": "us" }, 400],
      ["bad Base64 padding", { region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }, 400],
      ["bad Base64 characters", { region: "Hello" }, { "mcp-param-region": "=?base64?SGV*bG8=?=" }, 400],
      ["another integer", { shard: 42 }, { "mcp-param-shard": "41" }, 400],
    ];
    for (const [label, args, headers, status] of cases) {
      const answer = await call(args, headers);
      expect([label, answer.status, answer.status === 400 ? answer.body.error?.code : undefined]).toEqual([
        label,
        status,
        status === 400 ? -32020 : undefined,
      ]);
    }
  });
});

describe("2026-07-28 over HTTP: subscriptions/listen", () => {
  it("acknowledges first, tags every notification with the listen id, and honours the filter", async () => {
    const server = server2026();
    const http = await serveStreamableHttp({ server });
    cleanups.push(() => http.close());
    const tools = await listen(http.url, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }, 41);
    const prompts = await listen(http.url, { promptsListChanged: true, resourcesListChanged: true }, "p-1");
    cleanups.push(async () => {
      tools.stop();
      prompts.stop();
    });
    const [ack] = await tools.next(1);
    expect(ack).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      // The server declared no resources.listChanged: it does not agree to carry that.
      params: {
        _meta: { "io.modelcontextprotocol/subscriptionId": 41 },
        notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] },
      },
    });
    const [promptsAck] = await prompts.next(1);
    expect(promptsAck?.params?.["notifications"]).toEqual({ promptsListChanged: true });

    await server.notify("notifications/tools/list_changed");
    await server.notify("notifications/resources/updated", { uri: "file:///b" });
    await server.notify("notifications/resources/updated", { uri: "file:///a" });
    await server.notify("notifications/prompts/list_changed");
    const toolMessages = await tools.next(3);
    expect(toolMessages.slice(1).map((m) => [m.method, m.params?.["uri"], m.params?.["_meta"]])).toEqual([
      ["notifications/tools/list_changed", undefined, { "io.modelcontextprotocol/subscriptionId": 41 }],
      ["notifications/resources/updated", "file:///a", { "io.modelcontextprotocol/subscriptionId": 41 }],
    ]);
    const promptMessages = await prompts.next(2);
    expect(promptMessages.map((m) => m.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/prompts/list_changed",
    ]);
    expect(promptMessages[1]?.params?.["_meta"]).toEqual({ "io.modelcontextprotocol/subscriptionId": "p-1" });
  });

  it("ends each subscription with its closing answer when the server closes", async () => {
    const server = server2026();
    const http = await serveStreamableHttp({ server });
    cleanups.push(() => http.close());
    const stream = await listen(http.url, { toolsListChanged: true }, 5);
    await stream.next(1);
    await server.close();
    await stream.reading;
    expect(stream.messages.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { _meta: { "io.modelcontextprotocol/subscriptionId": 5 }, resultType: "complete" },
    });
  });
});

describe("one endpoint for both eras", () => {
  it("serves 2026-07-28 requests and a 2025-11-25 session on the same URL", async () => {
    const http = await serveStreamableHttp({
      server: server2026(),
      onSession: (session) =>
        v2025
          .createServer({
            serverInfo: { name: "legacy", version: "1.0.0" },
            handlers: { listTools: () => ({ tools: [{ name: "old", inputSchema: { type: "object" } }] }) },
          })
          .connect(session),
    });
    cleanups.push(() => http.close());
    const legacy = v2025.createClient({
      transport: new StreamableHttpClientTransport(http.url),
      clientInfo: { name: "legacy-client", version: "1.0.0" },
    });
    await legacy.connect();
    cleanups.push(() => legacy.close());
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(["old"]);
    expect(http.handler.sessions.size).toBe(1);
    const modern = await post(http.url, "tools/list", { _meta: meta });
    expect(modern.body.result?.["tools"]).toEqual([{ name: "echo", inputSchema: { type: "object" } }]);
    // A modern request without `_meta` is still the stateless server's to refuse, not a session's.
    expect((await post(http.url, "tools/list", {})).body.error?.code).toBe(-32602);
  });

  it("tells a client of another era what it serves: -32022 with supported, not a missing header", async () => {
    const http = await serve();
    const initialize = {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "old", version: "1" },
    };
    const old = await post(http.url, "initialize", initialize, {
      "mcp-protocol-version": undefined,
      "mcp-method": undefined,
    });
    expect([old.status, old.body.id, old.body.error?.code, old.body.error?.data]).toEqual([
      400,
      1,
      -32022,
      { supported: [REV] },
    ]);
    // A 2025 client after its handshake names its revision in the header; nothing in _meta.
    const later = await post(http.url, "tools/list", {}, { "mcp-protocol-version": "2025-06-18" });
    expect(later.body.error).toMatchObject({ code: -32022, data: { supported: [REV], requested: "2025-06-18" } });
    // The SDK v1 client (2025-era) is refused with that error, not a header complaint.
    const client = new SdkV1Client({ name: "old", version: "1" });
    const refused = await client.connect(new SdkV1Transport(new URL(http.url))).catch((e: unknown) => e);
    expect(String(refused)).toMatch(/-32022|Unsupported protocol version/);
  });

  it("answers GET and DELETE with 405 when it has no sessions", async () => {
    const http = await serve();
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await fetch(http.url, { method, headers: { accept: "text/event-stream" } });
      expect([method, response.status, response.headers.get("allow")]).toEqual([method, 405, "POST"]);
    }
  });
});

describe("the Web-standard face", () => {
  it("serves a Request with a Response, streaming when notifications come first", async () => {
    const http = await serve();
    const request = (params: Record<string, unknown>) =>
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: headersFor("tools/call", "chatty"),
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params }),
      });
    const json = await http.handler.fetch(request({ name: "chatty", _meta: meta }));
    expect(json.status).toBe(200);
    expect(((await json.json()) as { id: number }).id).toBe(3);
    const streamed = await http.handler.fetch(
      request({ name: "chatty", _meta: { ...meta, "io.modelcontextprotocol/logLevel": "debug" } }),
    );
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    expect(streamed.headers.get("x-accel-buffering")).toBe("no");
    const answer = parseAnswer(200, "text/event-stream", await streamed.text());
    expect(answer.events.map((e) => e.params?.["level"])).toEqual(["debug", "warning"]);
    const foreign = await http.handler.fetch(
      new Request("http://evil.example/mcp", {
        method: "POST",
        headers: headersFor("tools/list", undefined),
        body: "{}",
      }),
    );
    expect(foreign.status).toBe(403);
  });
});

describe("hostile traffic at 2026-07-28", () => {
  it("gives every malformed request its status and error, and keeps answering", async () => {
    const http = await serve({ maxBodyBytes: 1024 });
    const raw = async (body: string, headers: Record<string, string> = headersFor("tools/list", undefined)) => {
      const response = await fetch(http.url, { method: "POST", headers, body });
      return [response.status, ((await response.json()) as { error?: { code: number } }).error?.code];
    };
    expect(await raw("{")).toEqual([400, -32700]);
    expect(await raw("[]")).toEqual([400, -32600]);
    expect(await raw(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }))).toEqual([400, -32600]);
    expect(await raw(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" }))).toEqual([400, -32600]);
    expect(await raw("x".repeat(2048))).toEqual([413, -32000]);
    const wrongType = { ...headersFor("tools/list", undefined), "content-type": "text/plain" };
    expect(await raw("{}", wrongType)).toEqual([415, -32000]);
    expect((await post(http.url, "tools/list", { _meta: meta })).status).toBe(200);
  });

  it("serves 10,000 requests with 32 in flight through the node adapter, memory bounded", async () => {
    const http = await serve();
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const round = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const i = next++;
          const answer =
            i % 4 === 3
              ? await post(
                  http.url,
                  "tools/call",
                  { name: "echo", arguments: {}, _meta: meta },
                  { "mcp-name": "wrong" },
                  i,
                )
              : await post(http.url, "tools/call", { name: "echo", arguments: { i }, _meta: meta }, {}, i);
          expect(answer.body.id).toBe(i);
          expect(answer.status).toBe(i % 4 === 3 ? 400 : 200);
        }
      };
      await Promise.all(Array.from({ length: 32 }, worker));
    };
    await round(1000);
    gc();
    const before = process.memoryUsage().heapUsed;
    await round(10_000);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Per-request state would grow with the count (10,000 × a few KB); a bounded server does not.
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  }, 60_000);

  it("drops a subscriber that never reads, and the others keep their streams", async () => {
    const server = server2026();
    const http = await serveStreamableHttp({ server, maxBufferedBytes: 256 * 1024 });
    cleanups.push(() => http.close());
    const reader = await listen(http.url, { toolsListChanged: true }, 1);
    cleanups.push(async () => reader.stop());
    await reader.next(1);
    // A raw client that sends a listen request and never reads a byte of the answer.
    const url = new URL(http.url);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "subscriptions/listen",
      params: { _meta: meta, notifications: { toolsListChanged: true } },
    });
    const socket: Socket = connect(Number(url.port), url.hostname);
    socket.pause();
    const headers = Object.entries({
      ...headersFor("subscriptions/listen", undefined),
      host: url.host,
      "content-length": String(Buffer.byteLength(body)),
    });
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n${body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let received = 0;
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    // 12.8 MB of notifications: far past what the stalled stream may hold, while the reading
    // subscriber (given a turn of the event loop after each) keeps up.
    const padding = "x".repeat(64 * 1024);
    const rounds = 200;
    for (let i = 0; i < rounds; i++) {
      await server.notify("notifications/tools/list_changed", { _meta: { padding } });
      await new Promise((resolve) => setImmediate(resolve));
    }
    socket.on("data", (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await ended;
    // The server cut the stalled stream short: it got a fraction of what the reader got.
    expect(received).toBeLessThan((rounds * padding.length) / 2);
    await reader.next(1 + rounds);
    expect(reader.messages.filter((m) => m.method === "notifications/tools/list_changed")).toHaveLength(rounds);
    expect((await post(http.url, "tools/list", { _meta: meta })).status).toBe(200);
  }, 60_000);
});

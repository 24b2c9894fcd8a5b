// The MCP endpoint under abuse, over real loopback HTTP against the multi-revision example server
// (examples/multi-revision-server, every revision on one URL): each way a peer could make the
// server spend memory, sessions, connections or time without bound, and the Host/Origin parsing
// a hostile page could use. Each case checks the refusal (status, JSON-RPC error) and that valid
// requests are still answered afterwards; memory where a bound applies. No case asserts a timing:
// the time limits are set small and the test waits for their effect.
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createMultiRevisionConformanceServer } from "../examples/multi-revision-server/server.js";
import type { AuthInfo } from "../runtime/auth/auth-info.js";
import { trusted } from "../runtime/http/server/request.js";
import { serveStreamableHttp, type ServeOptions, type StreamableHttpServer } from "../runtime/http/server/server.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The multi-revision example server on loopback, as its main.ts serves it, with `options` on top. */
async function serve(options: Partial<ServeOptions> = {}): Promise<StreamableHttpServer> {
  const { server, inSession } = createMultiRevisionConformanceServer();
  const http = await serveStreamableHttp({
    server: server.stateless,
    onSession: (session) => server.connect(inSession(session)),
    ...options,
  });
  cleanups.push(
    () => server.close(),
    () => http.close(),
  );
  return http;
}

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

interface Answer {
  status: number;
  headers: Headers;
  /** The JSON-RPC messages of the body, JSON or SSE. */
  messages: { id?: unknown; result?: unknown; error?: { code: number; message: string } }[];
}

async function post(http: StreamableHttpServer, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(http.url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").startsWith("text/event-stream")
    ? text.split("\n").flatMap((line) => (line.startsWith("data: ") && line.length > 6 ? [line.slice(6)] : []))
    : text === ""
      ? []
      : [text];
  return { status: response.status, headers: response.headers, messages: json.flatMap((m) => JSON.parse(m) as never) };
}

/** Opens a 2025-era session at `revision`; `finish` sends notifications/initialized too. */
async function openSession(
  http: StreamableHttpServer,
  revision: string,
  { finish = true, token }: { finish?: boolean; token?: string } = {},
): Promise<string> {
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const answer = await post(
    http,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "probe", version: "1" } },
    },
    auth,
  );
  expect(answer.messages[0]).toMatchObject({ result: { protocolVersion: revision } });
  const id = answer.headers.get("mcp-session-id") as string;
  if (finish) {
    const note = await post(
      http,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      inSession(id, revision, auth),
    );
    expect(note.status).toBe(202);
  }
  return id;
}

const inSession = (id: string, revision: string, more: Record<string, string> = {}) => ({
  "Mcp-Session-Id": id,
  "MCP-Protocol-Version": revision,
  ...more,
});

const pings = (count: number) => Array.from({ length: count }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }));

/** A client of the SDK v1 at 2025-06-18 that lists the tools: the new client that must be served. */
async function sdkClientLists(http: StreamableHttpServer): Promise<number> {
  const client = new SdkClient({ name: "newcomer", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  try {
    return (await client.listTools()).tools.length;
  } finally {
    await client.close();
  }
}

/** A raw TCP connection to the endpoint's port, with everything it receives until it closes. */
function socketTo(http: StreamableHttpServer): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(Number(new URL(http.url).port), "127.0.0.1");
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  cleanups.push(() => void socket.destroy());
  return { socket, received: () => text, closed };
}

/** The heap in use after a full collection, in MB. */
function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe("batches", () => {
  it("refuses a batch longer than maxBatchLength whole with one error, before any member runs; the largest accepted is answered", async () => {
    const http = await serve();
    const session = await openSession(http, "2025-03-26");
    const headers = inSession(session, "2025-03-26");

    // The probe: 90,000 pings in 4 MB, three at once. Refused whole; the heap stays where it was.
    const before = heapAfterGc();
    const flood = JSON.stringify(pings(90_000));
    expect(flood.length).toBeLessThan(4 * 1024 * 1024);
    const refused = await Promise.all([1, 2, 3].map(() => post(http, flood, headers)));
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.messages).toEqual([
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid Request: a batch of 90000 messages; at most 100 per POST" },
        },
      ]);
    }
    expect(heapAfterGc() - before).toBeLessThan(16);
    expect(http.handler.sessions.get(session)?.answering).toBe(false);

    // The longest batch accepted is answered in full, and the session is still good.
    const largest = await post(http, pings(100), headers);
    expect(largest.status).toBe(200);
    expect(largest.messages.map((m) => m.id)).toEqual(pings(100).map((p) => p.id));
    expect((await post(http, pings(101), headers)).status).toBe(400);
    expect((await post(http, { jsonrpc: "2.0", id: "after", method: "ping" }, headers)).messages).toEqual([
      { jsonrpc: "2.0", id: "after", result: {} },
    ]);
  });

  it("maxBatchLength is an option", async () => {
    const http = await serve({ maxBatchLength: 3 });
    const headers = inSession(await openSession(http, "2025-03-26"), "2025-03-26");
    expect((await post(http, pings(3), headers)).messages).toHaveLength(3);
    const refused = await post(http, pings(4), headers);
    expect([refused.status, refused.messages[0]?.error?.message]).toEqual([
      400,
      "Invalid Request: a batch of 4 messages; at most 3 per POST",
    ]);
  });
});

describe("sessions", () => {
  it("a flood of handshakes that never finish, then of sessions holding GET streams, does not lock a new client out", async () => {
    const http = await serve({ maxSessions: 40 });
    // Unfinished handshakes at every session revision.
    const revisions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    for (let i = 0; i < 160; i++) await openSession(http, revisions[i % 4] as string, { finish: false });
    expect(http.handler.sessions.size).toBe(40);
    expect(await sdkClientLists(http)).toBeGreaterThan(0);

    // Finished sessions that each hold a GET stream open and do nothing else.
    const streams: AbortController[] = [];
    cleanups.push(() => streams.forEach((controller) => controller.abort()));
    for (let i = 0; i < 60; i++) {
      const id = await openSession(http, "2025-11-25");
      const controller = new AbortController();
      streams.push(controller);
      const stream = await fetch(http.url, {
        headers: { Accept: "text/event-stream", ...inSession(id, "2025-11-25") },
        signal: controller.signal,
      });
      expect(stream.status).toBe(200);
    }
    expect(http.handler.sessions.size).toBe(40);
    expect(await sdkClientLists(http)).toBeGreaterThan(0);
    // The evicted sessions' next request gets 404, which tells their clients to start over.
    const evicted = await post(http, { jsonrpc: "2.0", id: 1, method: "ping" }, inSession("gone", "2025-11-25"));
    expect(evicted.status).toBe(404);
  });

  it("an evicted session gets 404; with auth, one subject's sessions make room among themselves (maxSessionsPerSubject)", async () => {
    const verify = (token: string): AuthInfo => ({ subject: token, scopes: [], audience: "http://127.0.0.1/mcp" });
    const http = await serve({
      maxSessionsPerSubject: 2,
      auth: { resource: "http://127.0.0.1/mcp", authorizationServers: ["https://as.example"], verify },
    });
    const bob = await openSession(http, "2025-11-25", { token: "bob" });
    const alice = [];
    for (let i = 0; i < 5; i++) alice.push(await openSession(http, "2025-11-25", { token: "alice" }));
    expect(new Set(http.handler.sessions.keys())).toEqual(new Set([bob, alice[3], alice[4]]));
    const ping = (id: string, token: string) =>
      post(
        http,
        { jsonrpc: "2.0", id: 1, method: "ping" },
        inSession(id, "2025-11-25", { Authorization: `Bearer ${token}` }),
      );
    expect((await ping(alice[0] as string, "alice")).status).toBe(404);
    expect((await ping(alice[4] as string, "alice")).messages[0]).toMatchObject({ result: {} });
    expect((await ping(bob, "bob")).messages[0]).toMatchObject({ result: {} });
  });
});

describe("streams", () => {
  it("closes a 2025 GET stream whose client stops reading, keeps its events for Last-Event-ID, and leaves other streams alone", async () => {
    const http = await serve({ maxBufferedBytes: 256 * 1024 });
    const stalled = await openSession(http, "2025-11-25");
    const reader = await openSession(http, "2025-11-25");

    // A GET stream from a client that reads its first bytes (the priming event), then nothing.
    const raw = socketTo(http);
    raw.socket.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${stalled}\r\n` +
        "MCP-Protocol-Version: 2025-11-25\r\n\r\n",
    );
    await new Promise((resolve) => raw.socket.once("data", resolve));
    raw.socket.pause();
    const streamId = /id: (\w+)_0/.exec(raw.received())?.[1];
    expect(streamId).toBeDefined();

    const listening = new AbortController();
    cleanups.push(() => listening.abort());
    const other = await fetch(http.url, {
      headers: { Accept: "text/event-stream", ...inSession(reader, "2025-11-25") },
      signal: listening.signal,
    });
    const otherReader = (other.body as ReadableStream<Uint8Array>).getReader();

    // 64 KiB log messages until the server gives up on the reader that does not read.
    const session = http.handler.sessions.get(stalled);
    const data = "x".repeat(64 * 1024);
    let sent = 0;
    while (session?.busy && sent < 2000) {
      await session.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
      sent++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(session?.busy).toBe(false);
    // Far less than the 2000 messages (125 MB) it would otherwise have held.
    expect(sent).toBeLessThan(200);
    // The connection ends: once the client reads again, it reaches the end of what was sent.
    raw.socket.resume();
    await raw.closed;

    // The other session's stream still carries what its server sends.
    await http.handler.sessions.get(reader)?.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    let seen = "";
    while (!seen.includes("notifications/tools/list_changed")) {
      const { value, done } = await otherReader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain("notifications/tools/list_changed");

    // The closed stream's events are replayed to the client that comes back with Last-Event-ID.
    const resumed = new AbortController();
    cleanups.push(() => resumed.abort());
    const again = await fetch(http.url, {
      headers: { Accept: "text/event-stream", "Last-Event-ID": `${streamId}_0`, ...inSession(stalled, "2025-11-25") },
      signal: resumed.signal,
    });
    expect(again.status).toBe(200);
    const first = await (again.body as ReadableStream<Uint8Array>).getReader().read();
    expect(new TextDecoder().decode(first.value)).toMatch(new RegExp(`^event: message\\nid: ${streamId}_\\d+\\n`));
  });
});

describe("HTTP limits", () => {
  it("cuts a body announced larger than sent with 408 and closes the connection; the endpoint still answers", async () => {
    const http = await serve({ bodyTimeoutMs: 200 });
    const raw = socketTo(http);
    raw.socket.write(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n" +
        '{"jsonrpc":"2.0",',
    );
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(raw.received()).toContain("Request Timeout: the body did not arrive within 200 ms");
    expect((await post(http, { jsonrpc: "2.0", id: 1, method: "ping", params: {} })).status).toBe(400);
    expect(await sdkClientLists(http)).toBeGreaterThan(0);
  });

  it("cuts headers dribbled past headersTimeoutMs", async () => {
    const http = await serve({ headersTimeoutMs: 300 });
    const raw = socketTo(http);
    raw.socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await sdkClientLists(http)).toBeGreaterThan(0);
  });

  it("closes connections past maxConnections at once, and serves again once one ends", async () => {
    const http = await serve({ maxConnections: 3 });
    const held = [socketTo(http), socketTo(http), socketTo(http)];
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once("connect", resolve))));
    // Each held connection is accepted: a request on it is answered.
    for (const { socket, received } of held) {
      socket.write("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      while (!received().includes("\r\n\r\n")) await new Promise((resolve) => socket.once("data", resolve));
      expect(received()).toMatch(/^HTTP\/1\.1 404 /);
    }
    const refused = socketTo(http);
    refused.socket.write("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await refused.closed;
    expect(refused.received()).toBe("");

    const first = held[0] as ReturnType<typeof socketTo>;
    first.socket.destroy();
    await first.closed;
    const served = socketTo(http);
    served.socket.write("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    await served.closed;
    expect(served.received()).toMatch(/^HTTP\/1\.1 404 /);
  });
});

describe("Host and Origin", () => {
  const loopback = { allowedHosts: ["localhost", "127.0.0.1", "[::1]"] };
  const check = (headers: Record<string, string>, policy: Parameters<typeof trusted>[1] = loopback) =>
    trusted({ headers, [Symbol.asyncIterator]: async function* () {} }, policy);

  it.each([
    // [Host, Origin, trusted]
    ["localhost:3000", undefined, true],
    ["127.0.0.1", "http://127.0.0.1:3000", true],
    ["[::1]:3000", "http://[::1]:3000", true],
    ["[0:0:0:0:0:0:0:1]:3000", "https://[::1]", true],
    ["LOCALHOST:3000", "HTTP://LocalHost:3000", true],
    ["localhost", "http://localhost:1@evil.example", false],
    ["localhost", "http://evil.example@localhost", false],
    ["localhost", "http://localhost.evil.example", false],
    ["localhost", "http://evil.example#localhost", false],
    ["localhost", "http://localhost/path", false],
    ["localhost", "null", false],
    ["localhost", "file://localhost", false],
    ["localhost", "", false],
    ["localhost", "http://[::1", false],
    ["localhost", "http://localhost:99999", false],
    ["localhost:1@evil.example", undefined, false],
    ["evil.example", undefined, false],
    ["localhost.evil.example", undefined, false],
    ["localhost/x", undefined, false],
    ["", undefined, false],
  ])("Host %j, Origin %j: trusted %s", (host, origin, expected) => {
    expect(check({ host, ...(origin === undefined ? {} : { origin }) })).toBe(expected);
  });

  it('with allowedHosts "any", only a same-origin Origin is trusted', () => {
    const any = { allowedHosts: "any" as const };
    expect(check({ host: "mcp.example:8080", origin: "http://mcp.example:8080" }, any)).toBe(true);
    expect(check({ host: "mcp.example", origin: "https://mcp.example" }, any)).toBe(true);
    expect(check({ host: "mcp.example", origin: "http://mcp.example:1@evil.example" }, any)).toBe(false);
    expect(check({ host: "mcp.example", origin: "http://evil.example" }, any)).toBe(false);
  });

  it("over HTTP: 403 for the user-info Origin of the probe, the loopback origin served", async () => {
    const http = await serve();
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const evil = await post(http, ping, { Origin: "http://localhost:1@evil.example" });
    expect([evil.status, evil.messages[0]?.error?.message]).toEqual([403, "Forbidden: Host or Origin not allowed"]);
    const session = await openSession(http, "2025-11-25");
    const own = await post(http, ping, { Origin: new URL(http.url).origin, ...inSession(session, "2025-11-25") });
    expect(own.messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });
});

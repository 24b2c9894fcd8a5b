// Per-request cancellation in the client transports and what a cancelled request leaves behind
// (issue 19): each HTTP request has a signal of its own, let go when it ends, and close() aborts
// those in flight (Streamable HTTP in both bindings, HTTP+SSE); a cancelled 2025-era request's
// stream is closed by the client and ended by the server; an abandoned 2026-07-28 stream lets go
// of its response; a caller's signal shared by many requests gets one listener.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import * as v2024 from "../generated/2024-11-05/index.js";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createInMemoryTransportPair, type JsonRpcMessage, type Transport } from "../runtime/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { mirroredHeaders } from "../runtime/http/headers.js";
import { LegacySseClientTransport } from "../runtime/http/client/legacy-sse-client.js";
import { createStreamableHttpHandler, serveStreamableHttp } from "../runtime/http/server/server.js";
import { collectGarbage, settle } from "../scripts/soak/detector.js";
import { sessionServer, statelessServer, type ServerStats } from "../scripts/soak/server.js";
import { startEverything } from "./support/everything-2024-process.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const clientInfo = { name: "cancellation-test", version: "1.0.0" };

/** A fetch that notes the signal of every request, weakly, and keeps the latest one. */
function signalsOf() {
  const seen: { method: string; signal: WeakRef<AbortSignal> }[] = [];
  const distinct = new WeakSet<AbortSignal>();
  let reused = 0;
  let latest: AbortSignal | undefined;
  const watching: typeof fetch = (input, init) => {
    const signal = init?.signal as AbortSignal;
    if (distinct.has(signal)) reused++;
    distinct.add(signal);
    seen.push({ method: init?.method ?? "GET", signal: new WeakRef(signal) });
    latest = signal;
    return fetch(input, init);
  };
  return {
    fetch: watching,
    get reused() {
      return reused;
    },
    get latest() {
      return latest;
    },
    /** The signal of the first request made with `method`, if it is still held. */
    first(method: string): AbortSignal | undefined {
      return seen.find((entry) => entry.method === method)?.signal.deref();
    },
    /**
     * The methods of the requests whose signals are still held once garbage is collected, given
     * time for `expected` (the last request may still be finishing when its call has settled).
     */
    async held(expected: number): Promise<string[]> {
      latest = undefined;
      let alive: string[] = [];
      for (let attempt = 0; attempt < 10 && (attempt === 0 || alive.length > expected); attempt++) {
        // Fetch lets go of a finished request's signal in a finalizer: collect, let it run, again.
        // (Nothing is dereferenced before: deref() keeps its target alive until the loop turns.)
        for (let round = 0; round < 3; round++) {
          collectGarbage();
          await settle(2);
        }
        alive = seen.filter((entry) => entry.signal.deref() !== undefined).map((entry) => entry.method);
      }
      return alive;
    },
  };
}

/** Calls the soak server's "hang" tool and resolves once it runs (its first progress report). */
async function hanging(call: (onProgress: () => void) => Promise<unknown>): Promise<{ settled: Promise<unknown> }> {
  let running!: () => void;
  const runs = new Promise<void>((resolve) => (running = resolve));
  const settled = call(() => running()).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await runs;
  return { settled };
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) await settle(1);
  expect(await check()).toBe(true);
}

describe("every client transport gives each HTTP request a signal of its own", () => {
  it("Streamable HTTP in a session: distinct signals, let go when each request ends; close() aborts what is in flight", async () => {
    const http = await serveStreamableHttp({
      onSession: (session) => sessionServer("2025-11-25", () => {}).server.connect(session),
    });
    cleanups.push(() => http.close());
    const signals = signalsOf();
    const client = v2025.createClient({
      transport: new StreamableHttpClientTransport(http.url, { fetch: signals.fetch }),
      clientInfo,
    });
    cleanups.push(() => client.close());
    await client.connect();
    for (let i = 0; i < 20; i++) await client.callTool({ name: "echo", arguments: { text: `${i}` } });
    expect(signals.reused).toBe(0);
    // Only the GET stream's request is still going on.
    expect(await signals.held(1)).toEqual(["GET"]);

    const { settled } = await hanging((onProgress) => client.callTool({ name: "hang" }, { onProgress }));
    const post = signals.latest as AbortSignal;
    expect(post.aborted).toBe(false);
    await client.close();
    expect(post.aborted).toBe(true);
    expect(await settled).toMatchObject({ error: { name: "ConnectionClosedError" } });
  });

  it("Streamable HTTP at 2026-07-28: distinct signals, let go when each request ends; close() aborts what is in flight", async () => {
    const { server } = statelessServer(() => {});
    const http = await serveStreamableHttp({ server });
    cleanups.push(() => http.close());
    const signals = signalsOf();
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url, { fetch: signals.fetch }),
      clientInfo,
    });
    cleanups.push(() => client.close());
    await client.connect();
    for (let i = 0; i < 20; i++) await client.callTool({ name: "echo", arguments: { text: `${i}` } });
    expect(signals.reused).toBe(0);
    expect(await signals.held(0)).toEqual([]);

    const { settled } = await hanging((onProgress) => client.callTool({ name: "hang" }, { onProgress }));
    const post = signals.latest as AbortSignal;
    await client.close();
    expect(post.aborted).toBe(true);
    expect(await settled).toMatchObject({ error: { name: "ConnectionClosedError" } });
  });

  it("HTTP+SSE (server-everything 0.6.2): distinct signals for the stream and each POST; close() aborts the stream", async () => {
    const everything = await startEverything();
    cleanups.push(() => everything.stop());
    const signals = signalsOf();
    const client = v2024.createClient({
      transport: new LegacySseClientTransport(everything.url, { fetch: signals.fetch }),
      clientInfo,
    });
    await client.connect();
    const stream = signals.first("GET") as AbortSignal;
    for (let i = 0; i < 20; i++) await client.callTool({ name: "echo", arguments: { message: `${i}` } });
    expect(signals.reused).toBe(0);
    expect(stream.aborted).toBe(false);
    // The stream lasts as long as the transport; every POST is over.
    expect(await signals.held(1)).toEqual(["GET"]);
    await client.close();
    expect(stream.aborted).toBe(true);
  });
});

describe("a cancelled request of a 2025-era session", () => {
  it("has its stream closed by the client, after the cancellation notification, when the server keeps it open", async () => {
    // A server that answers the handshake and keeps every call's stream open for good.
    const notifications: JsonRpcMessage[] = [];
    let streamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (streamClosed = resolve));
    const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk));
      req.on("end", () => {
        const message = JSON.parse(text) as JsonRpcMessage & {
          id?: number;
          params?: { _meta?: { progressToken?: number } };
        };
        if (!("id" in message)) {
          notifications.push(message);
          return void res.writeHead(202).end();
        }
        if ("method" in message && message.method === "initialize") {
          res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s" });
          const result = {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "open", version: "1" },
          };
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
        }
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        const progress = { progressToken: message.params?._meta?.progressToken, progress: 0 };
        res.write(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: progress })}\n\n`,
        );
        res.on("close", () => streamClosed());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const errors: Error[] = [];
    const client = v2025.createClient({
      transport: new StreamableHttpClientTransport(url, { openStream: false }),
      clientInfo,
      onError: (error) => errors.push(error),
    });
    cleanups.push(() => client.close());
    await client.connect();
    const cancel = new AbortController();
    const { settled } = await hanging((onProgress) =>
      client.callTool({ name: "hang" }, { onProgress, signal: cancel.signal }),
    );
    cancel.abort("enough");
    expect(await settled).toMatchObject({ error: { name: "AbortError" } });
    await closed;
    await until(() => notifications.some((n) => "method" in n && n.method === "notifications/cancelled"));
    expect(notifications.at(-1)).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "enough" },
    });
    // Closing it on purpose is no broken stream, and no reconnection is tried.
    expect(errors).toEqual([]);
  });

  it("has its stream ended by the server once the handler stops, with no answer on it", async () => {
    const stats: ServerStats[] = [];
    const http = await serveStreamableHttp({
      onSession: (session) => {
        const made = sessionServer("2025-11-25", () => {});
        stats.push(made.stats);
        return made.server.connect(session);
      },
    });
    cleanups.push(() => http.close());
    const post = (body: object, headers: Record<string, string> = {}) =>
      fetch(http.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", ...body }),
      });
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo };
    const opened = await post({ id: 1, method: "initialize", params });
    await opened.text();
    const session = {
      "Mcp-Session-Id": opened.headers.get("mcp-session-id") as string,
      "MCP-Protocol-Version": "2025-11-25",
    };
    await (await post({ method: "notifications/initialized" }, session)).text();

    const call = await post(
      { id: 7, method: "tools/call", params: { name: "hang", _meta: { progressToken: 7 } } },
      session,
    );
    const reader = (call.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("notifications/progress")) text += decoder.decode((await reader.read()).value);
    await (
      await post({ method: "notifications/cancelled", params: { requestId: 7, reason: "enough" } }, session)
    ).text();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    expect(text).not.toMatch(/"id":7/);
    expect(stats[0]).toMatchObject({ cancelled: 1, inflight: 0 });
    expect([...http.handler.sessions.values()][0]?.hasRequest(7)).toBe(false);
  });
});

it("an abandoned 2026-07-28 stream lets go of its response (its keep-alive timer stops)", async () => {
  const { server, stats } = statelessServer(() => {});
  cleanups.push(() => server.close());
  const handler = createStreamableHttpHandler({ server, keepAliveMs: 60_000 });
  const message: JsonRpcMessage = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "hang",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": clientInfo,
        "io.modelcontextprotocol/clientCapabilities": {},
        progressToken: 1,
      },
    },
  };
  const away = new AbortController();
  // The response's body, held weakly: once abandoned, nothing of the endpoint's may keep it.
  const body = await (async () => {
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...mirroredHeaders(message, server.http),
        },
        body: JSON.stringify(message),
        signal: away.signal,
      }),
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    reader.releaseLock();
    return new WeakRef(response.body as ReadableStream<Uint8Array>);
  })();
  away.abort();
  await until(() => stats.cancelled === 1);
  await until(() => {
    collectGarbage();
    return body.deref() === undefined;
  });
});

it("a caller's signal shared by many requests gets one listener, none once they end, and cancels them all", async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  cleanups.push(async () => void process.off("warning", onWarning));
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const { server, stats } = sessionServer("2025-11-25", () => {});
  await server.connect(serverSide as Transport);
  const client = v2025.createClient({ transport: clientSide, clientInfo });
  cleanups.push(() => client.close());
  await client.connect();
  const shutdown = new AbortController();
  const listeners = () => getEventListeners(shutdown.signal, "abort").length;

  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      client.callTool({ name: "echo", arguments: { text: `${i}` } }, { signal: shutdown.signal }),
    ),
  );
  expect(listeners()).toBe(0);

  const calls = await Promise.all(
    Array.from({ length: 50 }, () =>
      hanging((onProgress) => client.callTool({ name: "hang" }, { onProgress, signal: shutdown.signal })),
    ),
  );
  expect(listeners()).toBe(1);
  shutdown.abort(new Error("shutting down"));
  for (const { settled } of calls) expect(await settled).toMatchObject({ error: { message: "shutting down" } });
  await until(() => stats.cancelled === 50);
  expect(stats.inflight).toBe(0);
  expect(warnings).toEqual([]);
});

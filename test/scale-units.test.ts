// runtime/scale/'s in-memory implementations, createMcpServer's `events` in one process (two
// servers sharing a bus, as two processes share Redis: test/scale.test.ts), and a protected
// 2025-era session's stream replayed by another node once its owner is gone, to its subject only,
// over the in-memory store and directory and over Redis's.
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { connectRedis } from "../integrations/redis/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";
import { readSseBody, SseParser, type SseEvent } from "../runtime/http/sse.js";
import {
  InMemoryChangeEventBus,
  InMemoryEventStore,
  InMemorySessionDirectory,
  type ChangeEvent,
  type EventStore,
  type SessionDirectory,
} from "../runtime/scale/index.js";
import { freePort, startRedis } from "./support/redis.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("in-memory implementations", () => {
  it("the bus delivers each event to every subscriber, in order, until it unsubscribes; a throwing one fails no other", async () => {
    const errors: string[] = [];
    const bus = new InMemoryChangeEventBus({ onError: (error) => errors.push(error.message) });
    const first: ChangeEvent[] = [];
    const second: ChangeEvent[] = [];
    bus.subscribe(() => {
      throw new Error("listener broke");
    });
    const stop = bus.subscribe((event) => first.push(event));
    bus.subscribe((event) => second.push(event));
    await bus.publish({ method: "notifications/tools/list_changed" });
    stop();
    await bus.publish({ method: "notifications/resources/updated", params: { uri: "file:///a" } });
    expect(first.map((e) => e.method)).toEqual(["notifications/tools/list_changed"]);
    expect(second.map((e) => e.method)).toEqual([
      "notifications/tools/list_changed",
      "notifications/resources/updated",
    ]);
    expect(errors).toEqual(["listener broke", "listener broke"]);
  });

  it("the event store replays after a sequence number, and says 'unknown' rather than replay over a trimmed gap", async () => {
    const store = new InMemoryEventStore({ maxEventsPerStream: 3, maxStreams: 2 });
    for (let seq = 1; seq <= 5; seq++) store.append("s/1", { seq, text: `e${seq}` });
    expect(await store.replay("s/1", 3)).toEqual([
      { seq: 4, text: "e4" },
      { seq: 5, text: "e5" },
    ]);
    expect(await store.replay("s/1", 2)).toEqual([
      { seq: 3, text: "e3" },
      { seq: 4, text: "e4" },
      { seq: 5, text: "e5" },
    ]);
    // Events 2 and earlier were trimmed: replaying from 1 would skip event 2.
    expect(await store.replay("s/1", 1)).toBeUndefined();
    store.append("s/2", { seq: 1, text: "x" });
    store.append("s/3", { seq: 1, text: "y" });
    // Two streams at most: the least recently written went.
    expect(await store.replay("s/1", 4)).toBeUndefined();
    expect(await store.replay("s/3", 0)).toEqual([{ seq: 1, text: "y" }]);
  });

  it("the directory records owners until released or expired", async () => {
    const directory = new InMemorySessionDirectory();
    const owner = { node: "n1", url: "http://127.0.0.1:1/mcp" };
    await directory.claim("s1", owner, 60_000);
    await directory.claim("s2", owner, -1);
    expect(await directory.lookup("s1")).toEqual(owner);
    expect(await directory.lookup("s2")).toBeUndefined();
    await directory.release("s1");
    expect(await directory.lookup("s1")).toBeUndefined();
  });
});

describe("createMcpServer's events", () => {
  function server(bus: InMemoryChangeEventBus) {
    const mcp = v2026.createMcpServer({ serverInfo: { name: "s", version: "1" }, events: bus });
    mcp.registerTool("t", { inputSchema: { type: "object" } }, () => ({ content: [] }));
    mcp.registerResource("a", "file:///a.txt", {}, (uri) => ({ contents: [{ uri, text: "a" }] }));
    return mcp;
  }

  it("a change published on one server reaches the listen streams of another on the same bus, once", async () => {
    const bus = new InMemoryChangeEventBus();
    const [one, two] = [server(bus), server(bus)];
    const http = await serveStreamableHttp({ server: one });
    cleanups.push(() => http.close());
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url),
      clientInfo: { name: "c", version: "1" },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const heard: string[] = [];
    let resolveHeard: () => void = () => {};
    const both = new Promise<void>((done) => (resolveHeard = done));
    const hear = (what: string) => {
      heard.push(what);
      if (heard.length === 2) resolveHeard();
    };
    client.on("notifications/tools/list_changed", () => hear("tools"));
    client.on("notifications/resources/updated", (params) => hear(`updated ${params.uri}`));
    await client.listen({ toolsListChanged: true, resourceSubscriptions: ["file:///a.txt"] });
    await two.notify("notifications/tools/list_changed");
    await two.resourceUpdated("file:///a.txt");
    await both;
    expect(heard).toEqual(["tools", "updated file:///a.txt"]);
  });

  it("a server subscribes to the bus when made and unsubscribes when closed", async () => {
    class Counting extends InMemoryChangeEventBus {
      active = 0;
      override subscribe(listener: (event: ChangeEvent) => void): () => void {
        this.active++;
        const stop = super.subscribe(listener);
        return () => {
          this.active--;
          stop();
        };
      }
    }
    const bus = new Counting();
    const one = server(bus);
    expect(bus.active).toBe(1);
    await one.close();
    expect(bus.active).toBe(0);
  });
});

describe("a protected 2025-era session's stream, replayed on another node once its owner is gone", () => {
  interface Shared {
    directory: SessionDirectory;
    eventStore: EventStore;
  }

  /** A node of one protected endpoint: a bearer token is its subject's name. */
  async function node(name: string, shared: Shared) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const mcp = v2025.createMcpServer({ serverInfo: { name, version: "1" } });
    mcp.registerTool("t", { inputSchema: { type: "object" } }, () => ({ content: [] }));
    const http = await serveStreamableHttp({
      port,
      onSession: (session) => mcp.connect(session),
      cluster: { self: { node: name, url }, ...shared },
      auth: {
        authorizationServers: ["https://auth.example.com"],
        verify: (token) => ({ subject: token, scopes: [], audience: url }),
      },
    });
    let closed: Promise<void> | undefined;
    const close = () => (closed ??= http.close());
    cleanups.push(close);
    return { url, mcp, close };
  }

  const headers = (subject: string, sessionId?: string, extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${subject}`,
    Accept: "application/json, text/event-stream",
    "Content-Type": "application/json",
    ...(sessionId ? { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" } : {}),
    ...extra,
  });

  async function events(response: Response): Promise<SseEvent[]> {
    const read: SseEvent[] = [];
    await readSseBody(response.body, new SseParser((event) => read.push(event)));
    return read;
  }

  const stores: [string, () => Promise<Shared>][] = [
    ["in memory", async () => ({ directory: new InMemorySessionDirectory(), eventStore: new InMemoryEventStore() })],
    [
      "in Redis",
      async () => {
        const redis = await startRedis();
        cleanups.push(() => redis.dispose());
        const scale = await connectRedis({ url: redis.url, onError: (error) => expect.fail(error.message) });
        cleanups.push(() => scale.close());
        return scale;
      },
    ],
  ];

  it.each(stores)("%s: to the subject that opened the session, and to no other", async (_, share) => {
    const shared = await share();
    const [a, b] = [await node("A", shared), await node("B", shared)];
    // Alice opens a session on A and its standalone stream; the stream's first event names it.
    const opened = await fetch(a.url, {
      method: "POST",
      headers: headers("alice"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }),
    });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    const initialized = await fetch(a.url, {
      method: "POST",
      headers: headers("alice", sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    const away = new AbortController();
    const stream = await fetch(a.url, {
      headers: headers("alice", sessionId, { Accept: "text/event-stream" }),
      signal: away.signal,
    });
    const primed = new Promise<SseEvent>((resolve) => {
      void readSseBody(stream.body, new SseParser(resolve)).catch(() => undefined);
    });
    const priming = (await primed).id as string;
    away.abort();
    // Sent while alice is away: kept by A, and in the shared store.
    await a.mcp.notify("notifications/tools/list_changed");
    const kept = await shared.eventStore.replay(`${sessionId}/${priming.split("_")[0]}`, 0);
    expect(kept?.map((event) => event.subject)).toEqual(["alice"]);
    await a.close();

    const resume = (subject: string) =>
      fetch(b.url, { headers: headers(subject, sessionId, { Accept: "text/event-stream", "Last-Event-ID": priming }) });
    // Mallory has the session id and a valid token of her own: no such session, for her.
    const refused = await resume("mallory");
    expect(refused.status).toBe(404);
    await refused.text();
    const replayed = await resume("alice");
    expect(replayed.status).toBe(200);
    expect((await events(replayed)).map((event) => JSON.parse(event.data).method)).toEqual([
      "notifications/tools/list_changed",
    ]);
  });
});

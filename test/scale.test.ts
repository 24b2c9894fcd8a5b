// One service on three processes behind a round-robin load balancer, sharing change events,
// 2025-era session ownership and stream events through a real Redis (test/support/redis.ts):
// requests land on every node, a listen stream on one node hears what another publishes, a
// 2025-era session is served through any node and its stream resumes on another; then a node is
// killed and Redis restarted. Loopback only; every wait is bounded.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v2026 from "../generated/2026-07-28/index.js";
import { StreamableHttpClientTransport, StreamableHttpError } from "../runtime/http/client/client.js";
import { readSseBody, SseParser, type SseEvent } from "../runtime/http/sse.js";
import { freePort, startRedis, type TestRedis } from "./support/redis.js";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface Node {
  readonly name: string;
  readonly url: string;
  readonly stderr: string[];
  readonly child: ChildProcess;
}

async function startNode(name: string, redisUrl: string): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", tsx, resolve("test/support/scale-node.ts")], {
    env: { ...process.env, NODE_NAME: name, NODE_PORT: String(port), REDIS_URL: redisUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(...chunk.toString().split("\n").filter(Boolean)));
  const url = await new Promise<string>((done, fail) => {
    let out = "";
    const timer = setTimeout(
      () => fail(new Error(`node ${name} did not start in 60 s:\n${stderr.join("\n")}`)),
      60_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        done((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`node ${name} exited (${code}):\n${stderr.join("\n")}`));
    });
  });
  return { name, url, stderr, child };
}

async function kill(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise((done) => node.child.once("exit", done));
  node.child.kill("SIGKILL");
  await exited;
}

/** The error page nginx answers when the node behind it fails: what a real load balancer sends. */
const BAD_GATEWAY_PAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n" +
  "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** A round-robin load balancer: each request to the next node; a node that fails gets the client a 502 page. */
async function startProxy(nodes: readonly Node[]): Promise<{ url: string; hits: string[]; server: Server }> {
  let next = 0;
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const node = nodes[next++ % nodes.length] as Node;
    hits.push(node.name);
    const target = new URL(node.url);
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("aborted", () => res.destroy());
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end(BAD_GATEWAY_PAGE);
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/mcp`, hits, server };
}

/** Collected items, and a bounded wait for one that matches. */
class Inbox<T> {
  readonly items: T[] = [];
  private waiters: { match: (item: T) => boolean; done: (item: T) => void }[] = [];

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiters])
      if (waiter.match(item)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.done(item);
      }
  }

  next(match: (item: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
    const found = this.items.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, done: (item) => (clearTimeout(timer), done(item)) });
    });
  }
}

/** Polls `attempt` until it returns a value, at most `timeoutMs` (for reconnections). */
async function poll<T>(attempt: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((next) => setTimeout(next, 100));
  }
}

function client2026(url: string) {
  return v2026.createClient({
    transport: new StreamableHttpClientTransport(url),
    clientInfo: { name: "scale-test", version: "1.0.0" },
  });
}

/** A 2025-11-25 request's headers, in a session or opening one. */
const headers = (sessionId?: string, extra: Record<string, string> = {}) => ({
  Accept: "application/json, text/event-stream",
  "Content-Type": "application/json",
  ...(sessionId ? { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" } : {}),
  ...extra,
});
/** A 2025-11-25 POST; the JSON-RPC message answering it, if any. */
async function post2025(
  url: string,
  body: object,
  sessionId?: string,
): Promise<{ sessionId: string; answer: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(sessionId),
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  const events: SseEvent[] = [];
  if (response.headers.get("content-type")?.startsWith("text/event-stream"))
    await readSseBody(response.body, new SseParser((event) => events.push(event)));
  else await response.text();
  const answer = events.map((e) => (e.data ? JSON.parse(e.data) : undefined)).find((m) => m && "id" in m);
  return { sessionId: response.headers.get("mcp-session-id") ?? sessionId ?? "", answer };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

let redis: TestRedis;
let nodes: Node[] = [];
let proxy: Awaited<ReturnType<typeof startProxy>>;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all(["A", "B", "C"].map((name) => startNode(name, redis.url)));
  proxy = await startProxy(nodes);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  proxy?.server.closeAllConnections();
  await new Promise((done) => proxy?.server.close(done));
  await Promise.all(nodes.map(kill));
  await redis?.dispose();
});

describe("one service on three processes, through Redis", () => {
  it("a 2026-07-28 client's requests land on all three nodes and all succeed", async () => {
    const client = client2026(proxy.url);
    cleanups.push(() => client.close());
    await client.connect();
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect(result.isError).toBeFalsy();
      served.add(text(result) ?? "");
    }
    expect([...served].sort()).toEqual(["A", "B", "C"]);
  });

  it("a listen stream held by node A receives tools/list_changed and resources/updated published on node C", async () => {
    const listener = client2026(nodes[0]!.url);
    cleanups.push(() => listener.close());
    await listener.connect();
    const heard = new Inbox<string>();
    listener.on("notifications/tools/list_changed", () => heard.push("tools"));
    listener.on("notifications/resources/updated", (params) => heard.push(`updated ${params.uri}`));
    await listener.listen({ toolsListChanged: true, resourceSubscriptions: ["file:///a.txt"] });

    const publisher = client2026(nodes[2]!.url);
    cleanups.push(() => publisher.close());
    await publisher.connect();
    expect(text(await publisher.callTool({ name: "announce", arguments: { what: "tools" } }))).toBe("published by C");
    await heard.next((h) => h === "tools", "tools/list_changed on A");
    await publisher.callTool({ name: "announce", arguments: { what: "resource", uri: "file:///a.txt" } });
    await heard.next((h) => h === "updated file:///a.txt", "resources/updated on A");
    // Nothing the filter did not ask for: a resource it does not watch.
    await publisher.callTool({ name: "announce", arguments: { what: "resource", uri: "file:///other.txt" } });
    await publisher.callTool({ name: "announce", arguments: { what: "tools" } });
    await heard.next(() => heard.items.length >= 3, "the second tools/list_changed");
    expect(heard.items).toEqual(["tools", "updated file:///a.txt", "tools"]);
  });

  it("a 2025-11-25 session is served through every node, and its stream resumes with Last-Event-ID on another node", async () => {
    const post = (body: object, sessionId?: string) => post2025(proxy.url, body, sessionId);
    const first = proxy.hits.length;
    const { sessionId, answer: init } = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect((init as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-11-25");
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
    await post({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "file:///a.txt" } }, sessionId);
    const owners = new Set<string>();
    for (let id = 3; id < 6; id++) {
      const { answer } = await post(
        { jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami", arguments: {} } },
        sessionId,
      );
      owners.add(text((answer as { result: { content: unknown } }).result) ?? "");
    }
    // Every node took some of the session's requests; one node, its owner, answered them all.
    expect(new Set(proxy.hits.slice(first))).toEqual(new Set(["A", "B", "C"]));
    expect(owners.size).toBe(1);
    const owner = [...owners][0];
    const other = nodes.find((n) => n.name !== owner && n.child.exitCode === null)!;

    // The standalone stream, opened through the load balancer.
    const stream = new Inbox<SseEvent>();
    const abort = new AbortController();
    const get = await fetch(proxy.url, {
      headers: headers(sessionId, { Accept: "text/event-stream" }),
      signal: abort.signal,
    });
    expect(get.status).toBe(200);
    const reading = readSseBody(get.body, new SseParser((event) => stream.push(event))).catch(() => undefined);
    await stream.next((e) => e.id !== undefined && e.data === "", "the priming event");
    const announcer = client2026(nodes[2]!.url);
    cleanups.push(() => announcer.close());
    await announcer.connect();
    await announcer.callTool({ name: "announce", arguments: { what: "resource", uri: "file:///a.txt" } });
    const seen = await stream.next((e) => e.data.includes("resources/updated"), "resources/updated on the GET stream");
    abort.abort();
    await reading;
    // Published while the client is away: kept by the owner, replayed on return.
    await announcer.callTool({ name: "announce", arguments: { what: "resource", uri: "file:///a.txt" } });
    await announcer.callTool({ name: "announce", arguments: { what: "tools" } });

    // Resumed on a node that is not the owner, straight to it.
    const stop = new AbortController();
    const resumed = await poll(async () => {
      const response = await fetch(other.url, {
        headers: headers(sessionId, { Accept: "text/event-stream", "Last-Event-ID": seen.id ?? "" }),
        signal: stop.signal,
      });
      // The owner may not have seen the first connection close yet: 409 until it has.
      if (response.status === 409) return void (await response.text());
      return response;
    }, "resumption");
    expect(resumed.status).toBe(200);
    const replayed = new Inbox<SseEvent>();
    const replaying = readSseBody(resumed.body, new SseParser((event) => replayed.push(event))).catch(() => undefined);
    await replayed.next((e) => e.data.includes("list_changed"), "the replayed tools/list_changed");
    const methods = replayed.items.map((e) => (JSON.parse(e.data) as { method: string }).method);
    expect(methods).toEqual(["notifications/resources/updated", "notifications/tools/list_changed"]);
    const seqs = replayed.items.map((e) => Number(e.id?.split("_")[1]));
    expect(seqs).toEqual([Number(seen.id?.split("_")[1]) + 1, Number(seen.id?.split("_")[1]) + 2]);
    stop.abort();
    await replaying;
  });
});

/** Opens a 2025-11-25 session at `url`, subscribed to file:///a.txt. */
async function openSession(url: string): Promise<string> {
  const { sessionId } = await post2025(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
  });
  await post2025(url, { jsonrpc: "2.0", method: "notifications/initialized" }, sessionId);
  await post2025(
    url,
    { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "file:///a.txt" } },
    sessionId,
  );
  return sessionId;
}

/** What a generated client reports for BAD_GATEWAY_PAGE. */
const BAD_GATEWAY =
  "HTTP 502 (a proxy or load balancer in front of the MCP server got no valid answer from it): 502 Bad Gateway nginx";

describe("faults", () => {
  /** A 2026-07-28 client holding a listen stream on `node`, and what it hears. */
  async function listenOn(node: Node) {
    const client = client2026(node.url);
    cleanups.push(() => client.close());
    await client.connect();
    const heard = new Inbox<string>();
    client.on("notifications/tools/list_changed", () => heard.push("tools"));
    await client.listen({ toolsListChanged: true });
    return heard;
  }

  it("a node killed mid-run: its in-flight request fails with a clear error, re-issued requests succeed on the others, listen streams on the others keep receiving", async () => {
    const [a, b, c] = nodes as [Node, Node, Node];
    const onA = await listenOn(a);
    const onC = await listenOn(c);
    const client = client2026(proxy.url);
    cleanups.push(() => client.close());
    await client.connect();
    // Three requests in a row: one on each node, each held until cancelled.
    const before = proxy.hits.length;
    const outcomes = new Inbox<{ error?: Error }>();
    for (let i = 0; i < 3; i++)
      client.callTool({ name: "hold", arguments: {} }).then(
        () => outcomes.push({}),
        (error: Error) => outcomes.push({ error }),
      );
    await poll(async () => (proxy.hits.length >= before + 3 ? true : undefined), "three requests at the nodes");
    expect(new Set(proxy.hits.slice(before, before + 3))).toEqual(new Set(["A", "B", "C"]));
    await kill(b);
    const failed = await outcomes.next((o) => o.error !== undefined, "the killed node's request failing");
    // The load balancer's HTML page, as the generated client reports it: what failed, in words.
    expect(failed.error).toBeInstanceOf(StreamableHttpError);
    expect(failed.error?.message).toBe(BAD_GATEWAY);
    // Re-issued until answered: a turn that reaches B fails the same clear way, the others succeed.
    const served: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await poll(
        () =>
          client.callTool({ name: "whoami", arguments: {} }).catch((error: Error) => {
            expect([error.message, proxy.hits.at(-1)]).toEqual([BAD_GATEWAY, "B"]);
            return undefined;
          }),
        "a re-issued request",
      );
      served.push(text(result) ?? "");
    }
    expect(new Set(served)).toEqual(new Set(["A", "C"]));
    const publisher = client2026(c.url);
    cleanups.push(() => publisher.close());
    await publisher.connect();
    await publisher.callTool({ name: "announce", arguments: { what: "tools" } });
    await onA.next((h) => h === "tools", "tools/list_changed on A after B died");
    await onC.next((h) => h === "tools", "tools/list_changed on C after B died");
  });

  it("Redis restarted mid-run: nodes reconnect, nothing crashes, events published while it was down are reported as lost", async () => {
    const [a, , c] = nodes as [Node, Node, Node];
    const onA = await listenOn(a);
    const publisher = client2026(c.url);
    cleanups.push(() => publisher.close());
    await publisher.connect();
    await redis.stop();
    const lost = await publisher.callTool({ name: "announce", arguments: { what: "tools" } });
    expect(lost.isError).toBe(true);
    expect(text(lost)).toMatch(/change event notifications\/tools\/list_changed was lost: Redis did not take it/);
    // Stateless requests need no Redis: still answered.
    const direct = client2026(a.url);
    cleanups.push(() => direct.close());
    await direct.connect();
    expect(text(await direct.callTool({ name: "whoami", arguments: {} }))).toBe("A");
    await redis.start();
    // Published again until A hears it: both connections come back on their own.
    await poll(async () => {
      if (onA.items.length > 0) return true;
      await publisher.callTool({ name: "announce", arguments: { what: "tools" } });
      return undefined;
    }, "tools/list_changed on A after Redis came back");
    // A's subscription was down a while: it says what it may have missed.
    await poll(
      async () => (a.stderr.some((line) => line.includes("were lost on this node")) ? true : undefined),
      "A reporting the gap",
    );
    expect(a.child.exitCode).toBeNull();
    expect(c.child.exitCode).toBeNull();
  });

  it("the owner of a 2025-11-25 session killed: its stream's missed events are replayed from Redis on another node, then the session is gone", async () => {
    const [a, , c] = nodes as [Node, Node, Node];
    const sessionId = await openSession(a.url);
    const stream = new Inbox<SseEvent>();
    const abort = new AbortController();
    const get = await fetch(a.url, {
      headers: headers(sessionId, { Accept: "text/event-stream" }),
      signal: abort.signal,
    });
    const reading = readSseBody(get.body, new SseParser((event) => stream.push(event))).catch(() => undefined);
    await stream.next((e) => e.id !== undefined && e.data === "", "the priming event");
    const publisher = client2026(c.url);
    cleanups.push(() => publisher.close());
    await publisher.connect();
    await publisher.callTool({ name: "announce", arguments: { what: "tools" } });
    const seen = await stream.next((e) => e.data.includes("list_changed"), "tools/list_changed on the GET stream");
    abort.abort();
    await reading;
    await publisher.callTool({ name: "announce", arguments: { what: "resource", uri: "file:///a.txt" } });
    // The owner writes each event to Redis as it sends it; its own log dies with it.
    const key = `${sessionId}/${seen.id?.split("_")[0]}`;
    await poll(async () => ((await storedEvents(key)) >= 2 ? true : undefined), "the second event in Redis");
    await kill(a);
    const replay = await fetch(c.url, {
      headers: headers(sessionId, { Accept: "text/event-stream", "Last-Event-ID": seen.id ?? "" }),
    });
    expect(replay.status).toBe(200);
    const replayed: SseEvent[] = [];
    await readSseBody(replay.body, new SseParser((event) => replayed.push(event)));
    expect(replayed.map((e) => (JSON.parse(e.data) as { method: string }).method)).toEqual([
      "notifications/resources/updated",
    ]);
    // Nothing more to replay and no node holds the session: 404, so the client opens a new one.
    const next = await fetch(c.url, {
      headers: headers(sessionId, { Accept: "text/event-stream", "Last-Event-ID": replayed[0]?.id ?? "" }),
    });
    expect(next.status).toBe(404);
    await next.text();
  });
});

/** How many events Redis holds for a stream (XLEN over a raw connection). */
async function storedEvents(key: string): Promise<number> {
  const { createConnection } = await import("node:net");
  const name = `mcp:stream:${key}`;
  return new Promise((done, fail) => {
    const socket = createConnection({ host: "127.0.0.1", port: redis.port });
    socket.on("error", fail);
    socket.on("connect", () => socket.write(`*2\r\n$4\r\nXLEN\r\n$${Buffer.byteLength(name)}\r\n${name}\r\n`));
    socket.on("data", (chunk) => {
      socket.destroy();
      done(Number(/^:(\d+)/.exec(chunk.toString())?.[1] ?? -1));
    });
  });
}

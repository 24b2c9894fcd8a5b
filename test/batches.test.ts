// JSON-RPC batches. 2025-03-26 is the one revision that has them (it MUST receive them): a raw
// JSON-RPC peer sends arrays to generated servers and clients over the in-memory transport and
// checks what comes back; later revisions refuse an array with one Invalid Request error.
// No sleeps: "nothing came back" is checked by sending a ping afterwards and seeing its answer
// arrive first (the in-memory transport keeps order).
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as rev0326 from "../generated/2025-03-26/index.js";
import * as rev0618 from "../generated/2025-06-18/index.js";
import {
  createInMemoryTransportPair,
  ErrorCode,
  type JsonObject,
  type JsonRpcMessage,
  Peer,
  type Transport,
} from "../runtime/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";
import { SseParser } from "../runtime/http/sse.js";

const { InvalidRequest: INVALID_REQUEST, MethodNotFound: METHOD_NOT_FOUND, InvalidParams: INVALID_PARAMS } = ErrorCode;

/** A raw JSON-RPC peer on the other end of an in-memory pair from `other`, which serialises what it sends, as a wire would. */
async function rawPeer() {
  const [raw, other] = createInMemoryTransportPair();
  const send = other.send.bind(other);
  other.send = async (message, options) => send(JSON.parse(JSON.stringify(message)) as JsonRpcMessage, options);
  return { other, ...(await rawOn(raw)) };
}

const request = (id: unknown, method: string, params?: JsonObject) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
const notification = (method: string, params?: JsonObject) =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };

const clientInfo = { name: "raw", version: "1" };

/** Answers in an array, by id (JSON-RPC lets them come in any order). */
function byId(reply: unknown): Map<unknown, JsonObject> {
  expect(Array.isArray(reply)).toBe(true);
  const answers = reply as JsonObject[];
  const map = new Map(answers.map((answer) => [answer["id"], answer]));
  expect(map.size).toBe(answers.length);
  return map;
}

const tool = { name: "echo", inputSchema: { type: "object" as const } };

type Revision = typeof rev0326 | typeof rev0618;

/**
 * A generated server of `revision` with tools: echo, "slow" (reports progress, ends when
 * cancelled), "ask" (asks the client for roots and a sample at once), "bigint" (an answer that
 * cannot be serialised). `seen` records the notifications its handlers got.
 */
function exampleServer(revision: Revision, seen: string[], errors: Error[]) {
  return revision.createServer({
    serverInfo: { name: "s", version: "1" },
    onError: (error) => errors.push(error),
    handlers: {
      listTools: () => ({ tools: [tool] }),
      callTool: async (params, context) => {
        if (params.name === "slow") {
          await context.progress({ progress: 1, total: 2 });
          const { signal } = context;
          if (!signal.aborted)
            await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          return { content: [] };
        }
        if (params.name === "ask") {
          const [roots, sampled] = await Promise.all([
            context.listRoots({}),
            context.createMessage({ messages: [], maxTokens: 1 }),
          ]);
          const text = sampled.content.type === "text" ? sampled.content.text : "?";
          return { content: [{ type: "text", text: `${roots.roots.length} root(s), ${text}` }] };
        }
        if (params.name === "bigint") return { content: [], structuredContent: { n: 1n } };
        return { content: [{ type: "text", text: String(params.arguments?.["text"]) }] };
      },
      onRootsListChanged: () => void seen.push("roots/list_changed"),
    },
  });
}

const versionOf = (revision: Revision) => (revision === rev0326 ? "2025-03-26" : "2025-06-18");
const initialize = (revision: Revision) =>
  request(0, "initialize", {
    protocolVersion: versionOf(revision),
    capabilities: { roots: { listChanged: true }, sampling: {} },
    clientInfo,
  });

/** A generated server of `revision` behind a raw peer that has done the handshake. */
async function serverBehindRawPeer(revision: Revision) {
  const raw = await rawPeer();
  const seen: string[] = [];
  const errors: Error[] = [];
  await exampleServer(revision, seen, errors).connect(raw.other);
  await raw.send(initialize(revision));
  expect(await raw.next()).toMatchObject({ id: 0, result: { protocolVersion: versionOf(revision) } });
  await raw.send(notification("notifications/initialized"));
  return { raw, seen, errors };
}

/** The answers to the two requests "ask" sends, in one array, in the other order. */
function answersToAsk(asked: JsonObject[]) {
  const idOf = (method: string) => asked.find((m) => m["method"] === method)?.["id"];
  return [
    {
      jsonrpc: "2.0",
      id: idOf("sampling/createMessage"),
      result: { role: "assistant", model: "m", content: { type: "text", text: "sampled" } },
    },
    { jsonrpc: "2.0", id: idOf("roots/list"), result: { roots: [{ uri: "file:///a" }] } },
  ];
}

/** requests and notifications mixed, as a client may batch them */
const mixed = [
  request(1, "ping"),
  notification("notifications/roots/list_changed"),
  request("two", "tools/list"),
  request(3, "tools/call", { name: "echo", arguments: { text: "hi" } }),
];

describe("a 2025-03-26 server receiving batches", () => {
  it("answers requests and notifications mixed with one array holding an answer per request", async () => {
    const { raw, seen, errors } = await serverBehindRawPeer(rev0326);
    await raw.send(mixed);
    const answers = byId(await raw.next());
    expect([...answers.keys()].sort()).toEqual([1, 3, "two"].sort());
    expect(answers.get(1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(answers.get("two")).toEqual({ jsonrpc: "2.0", id: "two", result: { tools: [tool] } });
    expect(answers.get(3)).toMatchObject({ result: { content: [{ type: "text", text: "hi" }] } });
    expect(seen).toEqual(["roots/list_changed"]);
    await raw.expectQuiet();
    expect(errors).toEqual([]);
  });

  it("sends nothing back for a batch of notifications only", async () => {
    const { raw, seen } = await serverBehindRawPeer(rev0326);
    await raw.send([
      notification("notifications/roots/list_changed"),
      notification("notifications/roots/list_changed"),
    ]);
    await raw.expectQuiet();
    expect(seen).toEqual(["roots/list_changed", "roots/list_changed"]);
  });

  it("answers an empty array with one Invalid Request error without id", async () => {
    const { raw } = await serverBehindRawPeer(rev0326);
    await raw.send([]);
    expect(await raw.next()).toEqual({
      jsonrpc: "2.0",
      error: { code: INVALID_REQUEST, message: "Invalid request: an empty batch" },
    });
    await raw.expectQuiet();
  });

  it("answers each invalid element with its own error inside the array, and serves the valid ones", async () => {
    const { raw, seen } = await serverBehindRawPeer(rev0326);
    await raw.send([
      request(1, "ping"),
      request(2, "no/such/method"),
      request(3, "tools/call", { arguments: {} }), // no name
      5,
      [request(4, "ping")], // an array inside a batch is no message; the ping in it is not served
      { jsonrpc: "1.0", id: 6, method: "ping" },
      notification("notifications/roots/list_changed", { bad: 1 }), // extra params are fine
      request(7, "tools/list"),
    ]);
    const reply = (await raw.next()) as JsonObject[];
    expect(reply).toHaveLength(7);
    const withId = byId(reply.filter((answer) => answer["id"] !== undefined));
    expect(withId.get(1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(withId.get(2)).toMatchObject({ error: { code: METHOD_NOT_FOUND } });
    expect(withId.get(3)).toMatchObject({ error: { code: INVALID_PARAMS } });
    expect(withId.get(6)).toMatchObject({ error: { code: INVALID_REQUEST } });
    expect(withId.get(7)).toMatchObject({ result: { tools: [tool] } });
    expect(withId.has(4)).toBe(false);
    const idless = reply.filter((answer) => answer["id"] === undefined);
    expect(idless.map((answer) => (answer["error"] as JsonObject)["code"])).toEqual([INVALID_REQUEST, INVALID_REQUEST]);
    expect(seen).toEqual(["roots/list_changed"]);
    await raw.expectQuiet();
  });

  it("serves the first of two requests with the same id in one batch and refuses the second", async () => {
    const { raw } = await serverBehindRawPeer(rev0326);
    await raw.send([
      request(1, "tools/call", { name: "echo", arguments: { text: "first" } }),
      request(1, "tools/call", { name: "echo", arguments: { text: "second" } }),
    ]);
    const reply = (await raw.next()) as JsonObject[];
    expect(reply).toHaveLength(2);
    expect(reply).toContainEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: INVALID_REQUEST, message: "request id 1 is already in use" },
    });
    expect(reply).toContainEqual(
      expect.objectContaining({ id: 1, result: { content: [{ type: "text", text: "first" }] } }),
    );
  });

  it("answers a result that cannot be serialised with -32603 inside the array, the others intact", async () => {
    const { raw, errors } = await serverBehindRawPeer(rev0326);
    await raw.send([request(1, "tools/call", { name: "bigint" }), request(2, "ping")]);
    const answers = byId(await raw.next());
    expect(answers.get(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(answers.get(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(errors.map(String)).toEqual(["TypeError: Do not know how to serialize a BigInt"]);
  });

  it("sends progress while a batched request runs, and leaves a cancelled one out of the array", async () => {
    const { raw } = await serverBehindRawPeer(rev0326);
    await raw.send([
      request(1, "tools/call", { name: "slow", _meta: { progressToken: "p" } }),
      request(2, "tools/call", { name: "echo", arguments: { text: "fast" } }),
    ]);
    expect(await raw.next()).toEqual(
      notification("notifications/progress", { progressToken: "p", progress: 1, total: 2 }),
    );
    await raw.send(notification("notifications/cancelled", { requestId: 1, reason: "enough" }));
    const reply = (await raw.next()) as JsonObject[];
    expect(reply).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "fast" }] } }]);
    await raw.expectQuiet();
  });

  it("routes responses that arrive as a batch to the requests they answer", async () => {
    const { raw } = await serverBehindRawPeer(rev0326);
    await raw.send(request(1, "tools/call", { name: "ask" }));
    const asked = [(await raw.next()) as JsonObject, (await raw.next()) as JsonObject];
    await raw.send(answersToAsk(asked));
    expect(await raw.next()).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: "1 root(s), sampled" }] },
    });
  });

  it("survives hostile batches: 100,000 elements, arrays nested 100,000 deep", async () => {
    const { raw, errors } = await serverBehindRawPeer(rev0326);
    const many = Array.from({ length: 100_000 }, (_, i) => request(i, "ping"));
    await raw.send(many);
    const answers = byId(await raw.next());
    expect(answers.size).toBe(100_000);
    expect(answers.get(99_999)).toEqual({ jsonrpc: "2.0", id: 99_999, result: {} });

    let deep: unknown = request(1, "ping");
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await raw.send(deep);
    expect(await raw.next()).toEqual([
      {
        jsonrpc: "2.0",
        error: {
          code: INVALID_REQUEST,
          message: "Invalid request: (root): not a JSON object",
          data: { issues: [{ path: "", expected: "a JSON-RPC 2.0 message", message: "not a JSON object" }] },
        },
      },
    ]);
    await raw.expectQuiet();
    expect(errors).toEqual([]);
  });
});

describe("revisions without batches", () => {
  it("a 2025-06-18 server refuses a whole batch with one Invalid Request error and runs none of it", async () => {
    const { raw, seen } = await serverBehindRawPeer(rev0618);
    await raw.send(mixed);
    expect(await raw.next()).toMatchObject({ jsonrpc: "2.0", error: { code: INVALID_REQUEST } });
    await raw.expectQuiet();
    expect(seen).toEqual([]);
  });

  it("a Peer without `batches` refuses an array even without validators", async () => {
    const [mine, theirs] = createInMemoryTransportPair();
    const raw = await rawOn(theirs);
    const handled: string[] = [];
    await new Peer({
      transport: mine,
      handleRequest: async (method) => void handled.push(method),
      handleNotification: (method) => void handled.push(method),
    }).start();
    await raw.send([request(1, "ping")]);
    expect(await raw.next()).toEqual({
      jsonrpc: "2.0",
      error: { code: INVALID_REQUEST, message: "Invalid request: this revision has no JSON-RPC batches" },
    });
    expect(handled).toEqual([]);
  });
});

describe("a 2025-03-26 client receiving batches", () => {
  it("answers a batch of server→client requests with one array", async () => {
    const raw = await rawPeer();
    const client = rev0326.createClient({
      transport: raw.other,
      clientInfo,
      handlers: { listRoots: () => ({ roots: [{ uri: "file:///work" }] }) },
    });
    const connected = client.connect();
    const initialize = (await raw.next()) as JsonObject;
    await raw.send({
      jsonrpc: "2.0",
      id: initialize["id"],
      result: { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "raw", version: "1" } },
    });
    await connected;
    expect(await raw.next()).toEqual(notification("notifications/initialized"));
    await raw.send([request("a", "ping"), request("b", "roots/list")]);
    const answers = byId(await raw.next());
    expect(answers.get("a")).toEqual({ jsonrpc: "2.0", id: "a", result: {} });
    expect(answers.get("b")).toEqual({ jsonrpc: "2.0", id: "b", result: { roots: [{ uri: "file:///work" }] } });
    await client.close();
  });
});

/** Sends whatever it is given on `transport`; `next()` is the next message received. */
async function rawOn(transport: Transport) {
  const inbox: unknown[] = [];
  let wake: (() => void) | undefined;
  transport.onmessage = (message) => {
    inbox.push(message);
    wake?.();
  };
  await transport.start();
  const raw = {
    send: (message: unknown) => transport.send(message as JsonRpcMessage),
    async next(): Promise<unknown> {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift();
    },
    /** Sends a ping: its answer must be the next message (nothing else was sent back before it). */
    async expectQuiet(): Promise<void> {
      await raw.send(request("quiet", "ping"));
      expect(await raw.next()).toEqual({ jsonrpc: "2.0", id: "quiet", result: {} });
    },
  };
  return raw;
}

describe("batches over Streamable HTTP", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

  /** A server of `revision` over HTTP and a session that has done the handshake. */
  async function httpSession(revision: Revision, options: { jsonResponse?: boolean } = {}) {
    const seen: string[] = [];
    const errors: Error[] = [];
    const http = await serveStreamableHttp({
      onSession: (session) => exampleServer(revision, seen, errors).connect(session),
      ...options,
    });
    closers.push(() => http.close());
    const opened = await fetch(http.url, { method: "POST", headers, body: JSON.stringify(initialize(revision)) });
    await opened.text();
    const session = { ...headers, "Mcp-Session-Id": opened.headers.get("mcp-session-id") as string };
    const post = (body: unknown) => fetch(http.url, { method: "POST", headers: session, body: JSON.stringify(body) });
    expect((await post(notification("notifications/initialized"))).status).toBe(202);
    return { post, seen, errors };
  }

  /** The JSON messages of an SSE response, as they arrive. */
  async function* messagesOf(response: Response): AsyncGenerator<JsonObject> {
    const events: JsonObject[] = [];
    const parser = new SseParser((event) => events.push(JSON.parse(event.data) as JsonObject));
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      parser.push(decoder.decode(chunk, { stream: true }));
      yield* events.splice(0);
    }
  }

  const refusal = async (response: Response) => ({
    status: response.status,
    code: ((await response.json()) as { error: { code: number } }).error.code,
  });

  it("a 2025-03-26 session: notifications get 202, requests one stream with every answer, answers 202", async () => {
    const { post, seen, errors } = await httpSession(rev0326);
    const quiet = await post([
      notification("notifications/roots/list_changed"),
      notification("notifications/roots/list_changed"),
    ]);
    expect({ status: quiet.status, body: await quiet.text() }).toEqual({ status: 202, body: "" });

    const response = await post([...mixed, request(4, "tools/call", { name: "ask" })]);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const answers = new Map<unknown, JsonObject>();
    const asked: JsonObject[] = [];
    for await (const message of messagesOf(response)) {
      if (message["method"] === undefined) answers.set(message["id"], message);
      else asked.push(message);
      // The stream carries what "ask" sends the client; the client answers in one batch POST.
      if (asked.length === 2 && message["method"] !== undefined) {
        const answered = await post(answersToAsk(asked));
        expect({ status: answered.status, body: await answered.text() }).toEqual({ status: 202, body: "" });
      }
    }
    expect([...answers.keys()].sort()).toEqual([1, 3, 4, "two"].sort());
    expect(answers.get("two")).toMatchObject({ result: { tools: [tool] } });
    expect(answers.get(4)).toMatchObject({ result: { content: [{ type: "text", text: "1 root(s), sampled" }] } });
    expect(seen).toEqual(["roots/list_changed", "roots/list_changed", "roots/list_changed"]);
    expect(errors).toEqual([]);
  });

  it("a 2025-03-26 session in jsonResponse mode answers a batch with one JSON array", async () => {
    const { post } = await httpSession(rev0326, { jsonResponse: true });
    const response = await post([
      request(1, "ping"),
      notification("notifications/roots/list_changed"),
      request(2, "tools/list"),
    ]);
    expect(response.headers.get("content-type")).toBe("application/json");
    const answers = byId(await response.json());
    expect([...answers.keys()].sort()).toEqual([1, 2]);
    expect(answers.get(2)).toMatchObject({ result: { tools: [tool] } });
  });

  it("a 2025-03-26 session refuses an empty batch, a non-message element and an id used twice", async () => {
    const { post } = await httpSession(rev0326);
    expect(await refusal(await post([]))).toEqual({ status: 400, code: INVALID_REQUEST });
    expect(await refusal(await post([request(1, "ping"), 5]))).toEqual({ status: 400, code: INVALID_REQUEST });
    expect(await refusal(await post([request(1, "ping"), request(1, "ping")]))).toEqual({
      status: 409,
      code: INVALID_REQUEST,
    });
  });

  it("a 2025-06-18 session refuses any batch with 400", async () => {
    const { post, seen } = await httpSession(rev0618);
    expect(await refusal(await post(mixed))).toEqual({ status: 400, code: INVALID_REQUEST });
    expect(seen).toEqual([]);
  });
});

describe("a 2025-03-26 client over Streamable HTTP receiving a batch in one SSE event", () => {
  it("delivers each element: a log notification and the answer it waits for", async () => {
    // A scripted server: JSON for the handshake, 202 for notifications, and the tools/list answer
    // batched with a notification in one event of its SSE stream.
    const http = createHttpServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      const message = JSON.parse(body) as JsonObject;
      if (message["method"] === "initialize") {
        res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s1" });
        const result = {
          protocolVersion: "2025-03-26",
          capabilities: { tools: {}, logging: {} },
          serverInfo: clientInfo,
        };
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message["id"], result }));
      }
      if (message["id"] === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const batch = [
        notification("notifications/message", { level: "info", data: "batched" }),
        { jsonrpc: "2.0", id: message["id"], result: { tools: [] } },
      ];
      res.end(`event: message\ndata: ${JSON.stringify(batch)}\n\n`);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));

    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const errors: Error[] = [];
    const client = rev0326.createClient({
      transport: new StreamableHttpClientTransport(url, { openStream: false, terminateOnClose: false }),
      clientInfo,
      onError: (error) => errors.push(error),
    });
    const logged: unknown[] = [];
    client.on("notifications/message", (params) => logged.push(params.data));
    await client.connect();
    expect(await client.listTools()).toEqual({ tools: [] });
    expect(logged).toEqual(["batched"]);
    expect(errors).toEqual([]);
    await client.close();
    await new Promise((resolve) => http.close(resolve));
  });
});

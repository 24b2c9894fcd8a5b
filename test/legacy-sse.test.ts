// The HTTP+SSE transport of 2024-11-05 (runtime/http/client/legacy-sse-client.ts) and the fallback to it
// (runtime/http/client/fallback.ts), against a real server of that era: server-everything 0.6.2's
// `dist/sse.js` (express, SDK 1.0.1's SSEServerTransport), spawned on a free loopback port. That
// server keeps one global transport and exits when its SSE stream closes, so each block starts
// its own process. Hostile servers are small node:http handlers on 127.0.0.1.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../generated/2024-11-05/index.js";
import { createHost } from "../host/index.js";
import { ConnectionClosedError, type JsonObject } from "../runtime/index.js";
import { FallbackHttpClientTransport } from "../runtime/http/client/fallback.js";
import { LegacySseClientTransport } from "../runtime/http/client/legacy-sse-client.js";
import { cli, workDir } from "./fixtures/tools/harness.js";
import {
  everything2024Client,
  everything2024SessionTests,
  type Everything2024Session,
} from "./support/everything-2024.js";
import { startEverything, type EverythingProcess } from "./support/everything-2024-process.js";

describe("the generated 2024-11-05 client over HTTP+SSE with server-everything 0.6.2", () => {
  let server: EverythingProcess;
  let session: Everything2024Session;

  beforeAll(async () => {
    server = await startEverything();
    session = everything2024Client(new LegacySseClientTransport(server.url));
    await session.client.connect();
  });

  afterAll(async () => {
    await session?.client.close();
    await server?.stop();
  });

  everything2024SessionTests(() => session);

  it("saw nothing its validators or the transport object to; closing the stream ends the session", async () => {
    expect(session.errors).toEqual([]);
    await session.client.close();
    // This server exits when its one SSE stream closes.
    const [code] = (await once(server.process, "exit")) as [number | null];
    expect(code).toBe(0);
  });
});

describe("a url entry without a type falls back to HTTP+SSE", () => {
  let server: EverythingProcess;
  beforeAll(async () => (server = await startEverything()));
  afterAll(() => server?.stop());

  it("the host's POST gets 404, the GET stream works: 2024-11-05 over sse, a call routed", async () => {
    const host = createHost({ servers: { mcpServers: { old: { url: server.url } } } });
    try {
      await host.connect();
      expect(host.servers.map((s) => [s.name, s.state, s.revision, s.transport])).toEqual([
        ["old", "up", "2024-11-05", "sse"],
      ]);
      const result = await host.callTool("old__echo", { message: "routed" });
      expect(result.content).toEqual([{ type: "text", text: "Echo: routed" }]);
    } finally {
      await host.close();
    }
  });
});

describe("mcp-gen tools --url falls back to HTTP+SSE", () => {
  let server: EverythingProcess;
  const work = workDir("legacy-sse");
  beforeAll(async () => (server = await startEverything()));
  afterAll(async () => {
    await server?.stop();
    work.remove();
  });

  // The server exits when its one stream closes, so this also shows the revision is reached on one
  // connection: the 2024-11-05 client adopts the answer the 2025-11-25 handshake got.
  it("generates the module at 2024-11-05 and says which transport it used", async () => {
    const out = join(work.dir, "everything-sse.ts");
    const result = await cli(["tools", "--url", server.url, "--out", out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(`note: ${server.url} refused Streamable HTTP; using the HTTP+SSE transport`);
    expect(result.stderr).toMatch(/: 5 tools, 2 prompts \(protocol 2024-11-05\)/);
    expect(readFileSync(out, "utf8")).toContain("longRunningOperation(");
  });
});

/** A scripted HTTP+SSE server on 127.0.0.1: `get` writes the stream, `post` gets each message. */
async function fakeServer(handlers: {
  get(res: ServerResponse): void;
  post?(message: JsonObject, res: ServerResponse): void;
}): Promise<{ url: string; posts: JsonObject[] }> {
  const posts: JsonObject[] = [];
  const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET") {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      return handlers.get(res);
    }
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url?.startsWith("/message") !== true) return void res.writeHead(404).end();
      const message = JSON.parse(body) as JsonObject;
      posts.push(message);
      res.writeHead(202).end("Accepted");
      handlers.post?.(message, res);
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  cleanups.push(async () => {
    http.closeAllConnections();
    http.close();
    await once(http, "close");
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`, posts };
}

/**
 * A fake HTTP+SSE server that announces /message, answers `initialize` on its stream and hands
 * every other POSTed message to `onPost` with the stream; and a 2024-11-05 client of it.
 */
async function scriptedSession(onPost: (message: JsonObject, stream: ServerResponse) => void) {
  let stream: ServerResponse | undefined;
  const server = await fakeServer({
    get: (res) => {
      stream = res;
      res.write(event("endpoint", "/message"));
    },
    post: (message) => {
      if (stream === undefined) return;
      if (message["method"] === "initialize") stream.write(answer(message["id"], initializeResult));
      else onPost(message, stream);
    },
  });
  const errors: Error[] = [];
  const client = createClient({
    transport: new LegacySseClientTransport(server.url),
    clientInfo: { name: "t", version: "1" },
    onError: (error) => errors.push(error),
  });
  return { client, errors };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`;
const answer = (id: unknown, result: JsonObject) => event("message", JSON.stringify({ jsonrpc: "2.0", id, result }));
const initializeResult = {
  protocolVersion: "2024-11-05",
  capabilities: { tools: {} },
  serverInfo: { name: "fake", version: "1" },
};

describe("hostile HTTP+SSE servers", () => {
  it("an endpoint on another origin is refused, and nothing is posted anywhere", async () => {
    for (const endpoint of [
      "http://evil.example:8080/message",
      "//evil.example/message",
      "https://127.0.0.1/message",
    ]) {
      const server = await fakeServer({ get: (res) => res.write(event("endpoint", endpoint)) });
      const fetched: string[] = [];
      const transport = new LegacySseClientTransport(server.url, {
        fetch: (input, init) => (fetched.push(`${init?.method} ${String(input)}`), fetch(input, init)),
      });
      let closed = false;
      transport.onclose = () => (closed = true);
      await expect(transport.start()).rejects.toThrow(/endpoint on another origin \(.+\): refused/);
      expect(closed).toBe(true);
      await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toThrow(/closed/);
      expect(fetched).toEqual([`GET ${server.url}`]);
    }
  });

  it("resolves a relative endpoint against the URL and posts there, with the configured headers", async () => {
    const seen: (string | undefined)[] = [];
    const server = await fakeServer({
      get: (res) => res.write(event("endpoint", "/message?sessionId=abc")),
      post: (message) => seen.push(String(message["method"])),
    });
    const fetched: string[] = [];
    const transport = new LegacySseClientTransport(server.url, {
      headers: { Authorization: "Bearer t" },
      fetch: (input, init) => {
        fetched.push(`${init?.method} ${String(input)} ${new Headers(init?.headers).get("authorization")}`);
        return fetch(input, init);
      },
    });
    await transport.start();
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(fetched).toEqual([
      `GET ${server.url} Bearer t`,
      `POST ${server.url.replace("/sse", "/message?sessionId=abc")} Bearer t`,
    ]);
    expect(seen).toEqual(["notifications/initialized"]);
    await transport.close();
  });

  it("a stream that ends early rejects the pending call, and says why", async () => {
    const { client, errors } = await scriptedSession((message, stream) => {
      if (message["method"] === "tools/call") stream.end();
    });
    await client.connect();
    const call = client.callTool({ name: "anything", arguments: {} });
    await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(call).rejects.toThrow(/connection closed .* before tools\/call was answered/);
    expect(errors.map((e) => e.message)).toContain("the server ended the SSE stream: the HTTP+SSE session is over");
    await expect(client.listTools()).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("garbage events are reported and skipped; the session goes on", async () => {
    const { client, errors } = await scriptedSession((message, stream) => {
      if (message["method"] !== "tools/list") return;
      stream.write(
        [
          event("message", "{not json"),
          event("message", "42"),
          event("message", "[1, 2]"),
          event("endpoint", "http://evil.example/message"),
          event("something-else", "ignored"),
          ": a comment\n\n",
          "data\n\n",
          "id: 7\n\n",
          answer(message["id"], { tools: [] }),
        ].join(""),
      );
    });
    await client.connect();
    expect(await client.listTools()).toEqual({ tools: [] });
    expect(errors.map((e) => e.message)).toEqual([
      "an SSE event that is not JSON: {not json",
      "the server sent something that is not a JSON-RPC message",
      // [1, 2]: a batch, each element of which is not a message.
      "the server sent something that is not a JSON-RPC message",
      "the server sent something that is not a JSON-RPC message",
      "a second endpoint event (http://evil.example/message) was ignored",
    ]);
    await client.close();
  });

  it("a GET that is not an SSE stream, or a stream without an endpoint event, fails start() clearly", async () => {
    const http = createHttpServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>"));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    cleanups.push(async () => void http.close());
    const html = new LegacySseClientTransport(`http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`);
    await expect(html.start()).rejects.toThrow(/Content-Type "text\/html", not an SSE stream/);

    const silent = await fakeServer({ get: (res) => res.write(": nothing yet\n\n") });
    const waiting = new LegacySseClientTransport(silent.url, { endpointTimeoutMs: 200 });
    await expect(waiting.start()).rejects.toThrow("no endpoint event within 200 ms");
  });

  it("the fallback keeps Streamable HTTP when the server has it, and only an initialize refusal sends it to SSE", async () => {
    const server = await fakeServer({ get: (res) => res.write(event("endpoint", "/message")) });
    const transport = new FallbackHttpClientTransport(server.url);
    await transport.start();
    // A discovery probe refused with 404 is not a reason to change transports.
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "server/discover" })).rejects.toMatchObject({
      status: 404,
    });
    expect(transport.kind).toBeUndefined();
    await transport.send({ jsonrpc: "2.0", id: 2, method: "initialize", params: {} });
    expect(transport.kind).toBe("sse");
    expect(server.posts.map((m) => m["method"])).toEqual(["initialize"]);
    await transport.close();
  });
});

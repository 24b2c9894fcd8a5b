// The server side of the Streamable HTTP transport on node:http, without a framework: one MCP
// endpoint that takes POST (a message from the client), GET (a stream of messages from the
// server, or the rest of a stream after a reconnection) and DELETE (end the session). Each
// session is a StreamableHttpSession, a Transport that one generated server connects to.
// Requests whose Host or Origin names another host are refused (DNS rebinding), by default
// everything but the loopback names.
// Node only, so it is not in index.ts; it types the few Node APIs it uses itself, so vendored
// code compiles without @types/node. Spec:
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
import { isObject, type JsonRpcMessage } from "../jsonrpc.js";
import { StreamableHttpSession, type SseSink } from "./session.js";

export { StreamableHttpSession, type SseSink } from "./session.js";

/** What this file uses of node:http's IncomingMessage. */
export interface HttpRequestLike extends AsyncIterable<unknown> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { [name: string]: string | string[] | undefined };
}

/** What this file uses of node:http's ServerResponse. */
export interface HttpResponseLike {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers?: { [name: string]: string }): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  on(event: "close", listener: () => void): unknown;
}

interface HttpServerLike {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number } | string | null;
  close(callback: (error?: Error) => void): unknown;
  closeAllConnections?(): void;
  once(event: "error", listener: (error: Error) => void): unknown;
}

type CreateServer = (listener: (req: HttpRequestLike, res: HttpResponseLike) => void) => HttpServerLike;

export interface StreamableHttpOptions {
  /** Called for each new session (a handshake request without Mcp-Session-Id): connect a server to it. */
  onSession(session: StreamableHttpSession): void | Promise<void>;
  /**
   * Host names (without port) accepted in the Host and Origin headers; "any" turns the Host check
   * off and accepts same-origin requests only. Default: localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: readonly string[] | "any";
  /** Origins accepted besides those of the allowed hosts, e.g. "https://app.example.com". */
  allowedOrigins?: readonly string[];
  /** Values accepted in MCP-Protocol-Version. Default: any revision identifier (a date). */
  protocolVersions?: readonly string[];
  /** How long clients should wait before reconnecting to a stream, in ms (default 1000). */
  retryMs?: number;
  /** The largest POST body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * A session with no open connection and no request in progress for this long is closed (its
   * server with it); the client's next request gets 404 and starts a new one. In ms, default 30
   * minutes; checked every minute at most (more often for shorter limits); 0 keeps sessions forever.
   */
  sessionIdleMs?: number;
  /** Open sessions at most; a handshake beyond them gets 503 (default 1000). */
  maxSessions?: number;
  /**
   * Answer a POST's requests with one `application/json` body instead of an SSE stream (default
   * false). What a handler sends the client while it runs (progress, log messages, sampling) then
   * takes the client's GET stream, and fails at once when it has none open.
   */
  jsonResponse?: boolean;
  /** Problems no client can be told about (a session that failed to start, say). */
  onError?: (error: Error) => void;
}

export interface StreamableHttpHandler {
  /** Serves one HTTP request to the MCP endpoint. */
  handle(req: HttpRequestLike, res: HttpResponseLike): Promise<void>;
  /** The open sessions, by Mcp-Session-Id. */
  readonly sessions: ReadonlyMap<string, StreamableHttpSession>;
  /** Ends every session. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const HANDSHAKE_METHOD = "initialize";

/** A JSON-RPC error as the whole body of an HTTP error response. */
function refuse(res: HttpResponseLike, status: number, code: number, message: string, headers = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

function header(req: HttpRequestLike, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function accepts(req: HttpRequestLike, type: string): boolean {
  const accept = header(req, "accept") ?? "";
  return accept.split(",").some((part) => {
    const media = part.split(";")[0]?.trim().toLowerCase();
    return media === type || media === "*/*";
  });
}

/** The host name of a Host header or an origin's authority, without the port. */
function hostName(authority: string): string {
  const name = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.split(":")[0];
  return (name ?? "").toLowerCase();
}

function sink(res: HttpResponseLike): SseSink {
  return {
    write: (text) => {
      if (!res.writableEnded && !res.destroyed) res.write(text);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
  };
}

/**
 * The answers to a POST's requests as one JSON body, written once the session ends the "stream":
 * the one response, or an array of them for a batch. The session writes each answer's JSON text.
 */
function jsonBody(res: HttpResponseLike, sessionId: string, batch: boolean): SseSink {
  const answers: string[] = [];
  return {
    json: true,
    write: (text) => void answers.push(text),
    end: () => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": sessionId });
      res.end(batch ? `[${answers.join(",")}]` : (answers[0] ?? ""));
    },
  };
}

function openStream(res: HttpResponseLike, sessionId: string): SseSink {
  res.writeHead(200, {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "Mcp-Session-Id": sessionId,
  });
  return sink(res);
}

type Classified =
  | { kind: "request"; message: JsonRpcMessage & { id: string | number; method: string } }
  | { kind: "other"; message: JsonRpcMessage };

/** Just enough JSON-RPC to route a message; the server's own validators judge the rest. */
function classify(value: unknown): Classified | undefined {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return undefined;
  const id = value["id"];
  const hasId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (typeof value["method"] === "string") {
    if (hasId)
      return { kind: "request", message: value as unknown as JsonRpcMessage & { id: string | number; method: string } };
    if (id === undefined) return { kind: "other", message: value as unknown as JsonRpcMessage };
    return undefined;
  }
  if (value["method"] === undefined && ("result" in value || "error" in value))
    return { kind: "other", message: value as unknown as JsonRpcMessage };
  return undefined;
}

async function readBody(req: HttpRequestLike, limit: number): Promise<string | undefined> {
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for await (const chunk of req) {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    size += bytes.byteLength;
    if (size > limit) return undefined;
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}

export function createStreamableHttpHandler(options: StreamableHttpOptions): StreamableHttpHandler {
  const sessions = new Map<string, StreamableHttpSession>();
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  let sweeper: ReturnType<typeof setInterval> | undefined;

  /** Closes the sessions idle for longer than idleMs; runs while there are sessions. */
  function sweep(): void {
    const now = Date.now();
    for (const session of sessions.values())
      if (!session.busy && now - session.lastActive >= idleMs) void session.close();
    if (sessions.size === 0) stopSweeping();
  }

  function startSweeping(): void {
    if (sweeper !== undefined || !(idleMs > 0)) return;
    sweeper = setInterval(sweep, Math.min(idleMs, 60_000));
    // Idle expiry must not keep the process alive on its own.
    (sweeper as { unref?: () => void }).unref?.();
  }

  function stopSweeping(): void {
    if (sweeper !== undefined) clearInterval(sweeper);
    sweeper = undefined;
  }

  /** DNS rebinding: a page on another host must not reach this server through the browser. */
  function trusted(req: HttpRequestLike): boolean {
    const host = header(req, "host");
    if (allowedHosts !== "any" && (host === undefined || !allowedHosts.includes(hostName(host)))) return false;
    const origin = header(req, "origin");
    if (origin === undefined || options.allowedOrigins?.includes(origin)) return true;
    const authority = /^https?:\/\/([^/]+)$/i.exec(origin)?.[1];
    if (authority === undefined) return false;
    return allowedHosts === "any"
      ? authority.toLowerCase() === host?.toLowerCase()
      : allowedHosts.includes(hostName(authority));
  }

  function versionAccepted(req: HttpRequestLike): boolean {
    const version = header(req, "mcp-protocol-version");
    if (version === undefined) return true;
    return options.protocolVersions ? options.protocolVersions.includes(version) : /^\d{4}-\d{2}-\d{2}$/.test(version);
  }

  /** The session a request names, or the refusal already sent. */
  function sessionOf(req: HttpRequestLike, res: HttpResponseLike): StreamableHttpSession | undefined {
    const id = header(req, "mcp-session-id");
    if (id === undefined) return void refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const session = sessions.get(id);
    if (!session) return void refuse(res, 404, -32001, "Session not found");
    session.touch();
    if (!versionAccepted(req))
      return void refuse(
        res,
        400,
        -32000,
        `Bad Request: unsupported MCP-Protocol-Version ${header(req, "mcp-protocol-version")}`,
      );
    return session;
  }

  async function startSession(message: JsonRpcMessage): Promise<StreamableHttpSession> {
    const params = "params" in message && isObject(message.params) ? message.params : undefined;
    const requested = params?.["protocolVersion"];
    const id = crypto.randomUUID();
    const session = new StreamableHttpSession(id, {
      retryMs: options.retryMs ?? 1000,
      protocolVersion: typeof requested === "string" ? requested : undefined,
      onClosed: () => sessions.delete(id),
    });
    sessions.set(id, session);
    startSweeping();
    try {
      await options.onSession(session);
    } catch (error) {
      sessions.delete(id);
      throw error;
    }
    return session;
  }

  async function post(req: HttpRequestLike, res: HttpResponseLike): Promise<void> {
    if (!accepts(req, "application/json") || !accepts(req, "text/event-stream"))
      return refuse(res, 406, -32000, "Not Acceptable: accept both application/json and text/event-stream");
    if (!/^application\/json\b/i.test(header(req, "content-type") ?? ""))
      return refuse(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) return refuse(res, 413, -32000, `Payload Too Large: over ${maxBodyBytes} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      return refuse(res, 400, -32700, `Parse error: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (Array.isArray(parsed)) return postBatch(req, res, parsed);
    const classified = classify(parsed);
    if (!classified) return refuse(res, 400, -32600, "Invalid Request: not a JSON-RPC 2.0 message");

    let session: StreamableHttpSession | undefined;
    if (
      header(req, "mcp-session-id") === undefined &&
      classified.kind === "request" &&
      classified.message.method === HANDSHAKE_METHOD
    ) {
      if (sessions.size >= maxSessions)
        return refuse(res, 503, -32000, `Service Unavailable: ${maxSessions} sessions are open`, {
          "Retry-After": "60",
        });
      session = await startSession(classified.message);
    } else session = sessionOf(req, res);
    if (!session) return;

    if (classified.kind === "other") return accept(res, session, [classified.message]);
    if (session.hasRequest(classified.message.id))
      return refuse(
        res,
        409,
        -32600,
        `Conflict: request id ${JSON.stringify(classified.message.id)} is still being answered`,
      );
    answerOnStream(res, session, [classified.message], false);
  }

  /**
   * A JSON-RPC batch, for sessions whose revision has them (2025-03-26): only notifications and
   * responses get 202, requests one stream carrying all their answers. The server sees each
   * element as a message of its own, so it validates and answers each as such.
   */
  async function postBatch(req: HttpRequestLike, res: HttpResponseLike, items: unknown[]): Promise<void> {
    const session = sessionOf(req, res);
    if (!session) return;
    if (!session.acceptsBatches)
      return refuse(res, 400, -32600, "Invalid Request: JSON-RPC batches are not supported at this protocol version");
    if (items.length === 0) return refuse(res, 400, -32600, "Invalid Request: an empty batch");
    const classified: Classified[] = [];
    // A loop, not map(): a hole in a sparse array is an invalid element, not a skipped one.
    for (let i = 0; i < items.length; i++) {
      const item = classify(items[i]);
      if (!item) return refuse(res, 400, -32600, `Invalid Request: batch element ${i} is not a JSON-RPC 2.0 message`);
      classified.push(item);
    }
    const ids = new Set<string | number>();
    for (const item of classified) {
      if (item.kind !== "request") continue;
      const id = item.message.id;
      if (ids.has(id) || session.hasRequest(id))
        return refuse(
          res,
          409,
          -32600,
          `Conflict: request id ${JSON.stringify(id)} is used twice or still being answered`,
        );
      ids.add(id);
    }
    const messages = classified.map((item) => item.message);
    if (ids.size > 0) answerOnStream(res, session, messages, true);
    else accept(res, session, messages);
  }

  /** A POST without requests (notifications, responses): 202, then the messages go to the server. */
  function accept(res: HttpResponseLike, session: StreamableHttpSession, messages: JsonRpcMessage[]): void {
    res.writeHead(202, { "Mcp-Session-Id": session.sessionId });
    res.end();
    for (const message of messages) session.receive(message);
  }

  /** The POST's answer: one stream (or JSON body) for the responses to the requests among `messages`. */
  function answerOnStream(
    res: HttpResponseLike,
    session: StreamableHttpSession,
    messages: JsonRpcMessage[],
    batch: boolean,
  ): void {
    const stream = options.jsonResponse ? jsonBody(res, session.sessionId, batch) : openStream(res, session.sessionId);
    res.on("close", () => session.detach(stream));
    session.openRequestStream(messages, stream);
  }

  function get(req: HttpRequestLike, res: HttpResponseLike): void {
    if (!accepts(req, "text/event-stream")) return refuse(res, 406, -32000, "Not Acceptable: accept text/event-stream");
    const session = sessionOf(req, res);
    if (!session) return;
    let opened: SseSink | undefined;
    const open = () => {
      opened = openStream(res, session.sessionId);
      res.on("close", () => session.detach(opened as SseSink));
      return opened;
    };
    const lastEventId = header(req, "last-event-id");
    // A cursor into a stream this session no longer keeps can only start a new standalone stream.
    const outcome = lastEventId === undefined ? "unknown" : session.resume(lastEventId, open);
    if (outcome === "conflict" || (outcome === "unknown" && !session.openStandaloneStream(open)))
      refuse(res, 409, -32000, "Conflict: that stream is already connected");
  }

  async function remove(req: HttpRequestLike, res: HttpResponseLike): Promise<void> {
    const session = sessionOf(req, res);
    if (!session) return;
    await session.close();
    res.writeHead(200);
    res.end();
  }

  return {
    sessions,
    async handle(req, res) {
      try {
        if (!trusted(req)) return refuse(res, 403, -32000, "Forbidden: Host or Origin not allowed");
        if (req.method === "POST") return await post(req, res);
        if (req.method === "GET") return get(req, res);
        if (req.method === "DELETE") return await remove(req, res);
        refuse(res, 405, -32000, "Method Not Allowed", { Allow: "GET, POST, DELETE" });
      } catch (error) {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) refuse(res, 500, -32603, "Internal error");
        else if (!res.writableEnded) res.end();
      }
    },
    async close() {
      stopSweeping();
      await Promise.all([...sessions.values()].map((session) => session.close()));
    },
  };
}

export interface ServeOptions extends StreamableHttpOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port, see the returned `url`. */
  port?: number;
  /** The MCP endpoint's path (default "/mcp"); other paths get 404. */
  path?: string;
}

export interface StreamableHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:54321/mcp. */
  readonly url: string;
  readonly handler: StreamableHttpHandler;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** Listens on node:http and serves the MCP endpoint with a handler made from `options`. */
export async function serveStreamableHttp(options: ServeOptions): Promise<StreamableHttpServer> {
  const module = "node:http";
  const { createServer } = (await import(module)) as { createServer: CreateServer };
  const path = options.path ?? "/mcp";
  const host = options.host ?? "127.0.0.1";
  const handler = createStreamableHttpHandler(options);
  const server = createServer((req, res) => {
    if ((req.url ?? "/").split("?")[0] !== path) return refuse(res, 404, -32000, "Not Found");
    void handler.handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections?.();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

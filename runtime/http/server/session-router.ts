// The 2025-era half of the MCP endpoint: sessions opened by the handshake (Mcp-Session-Id), POSTs
// into a session (one message, or a batch where the session's revision has them), the GET stream
// and its resumption, DELETE; which sessions are kept is session-table.ts's. Each session is a
// StreamableHttpSession, a Transport that one server connects to (onSession). On a protected
// endpoint a session belongs to the subject of the token that opened it: another subject's
// requests find no such session, so a leaked session id is not a way in.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
import { extraOf, type AuthInfo, type MessageExtra } from "../../auth/auth-info.js";
import type { HttpRequestLike, HttpResponseLike } from "../../http-handler.js";
import type { JsonRpcMessage } from "../../jsonrpc.js";
import { classify, type Classified } from "./classify.js";
import { createSessionCluster, type SessionClusterOptions } from "./cluster.js";
import { accepts, header, refuse, writeBounded } from "./request.js";
import { StreamableHttpSession, type SseSink } from "./session-transport.js";
import { SessionTable } from "./session-table.js";

export interface SessionRouterOptions {
  /** Called for each new session: connect a server to it. */
  onSession(session: StreamableHttpSession): void | Promise<void>;
  /** Values accepted in MCP-Protocol-Version. Default: any revision identifier (a date). */
  protocolVersions?: readonly string[] | undefined;
  /** How long clients should wait before reconnecting to a stream, in ms (default 1000). */
  retryMs?: number | undefined;
  /**
   * Closes a session no request has named for this long, open GET stream or not (but never one
   * answering a request), in ms (default 30 minutes; 0 keeps them).
   */
  sessionIdleMs?: number | undefined;
  /**
   * Closes a session whose client has not come back since the handshake (with its
   * `notifications/initialized`, say) within this long, in ms (default 10 000; 0 keeps them).
   */
  handshakeTimeoutMs?: number | undefined;
  /**
   * Open sessions at most (default 1000). A handshake beyond them closes the unfinished sessions
   * first, then the least recently active; it gets 503 only when every session is answering a request.
   */
  maxSessions?: number | undefined;
  /** With `auth`: open sessions per token subject at most, made room for likewise (default: no limit of its own). */
  maxSessionsPerSubject?: number | undefined;
  /**
   * A session's stream whose client leaves this many bytes unread is closed (default 4 MiB); its
   * events stay kept for Last-Event-ID where the revision resumes streams.
   */
  maxBufferedBytes?: number | undefined;
  /** Answer a POST's requests with one JSON body instead of an SSE stream. */
  jsonResponse?: boolean | undefined;
  /**
   * Sessions shared by the nodes serving one endpoint (see cluster.ts and docs/deploying.md): a
   * request for a session another node holds is forwarded there.
   */
  cluster?: SessionClusterOptions | undefined;
  /** Problems no client can be told about (a directory that cannot be written, say). */
  onError?: ((error: Error) => void) | undefined;
}

export interface SessionRouter {
  readonly sessions: ReadonlyMap<string, StreamableHttpSession>;
  /**
   * A POST's message outside any session. `handshake` names the request that opens one when the
   * caller knows it; otherwise the session's server says, once connected, and a session opened by
   * anything else is closed again and the request refused. `authInfo`: the sender's verified token,
   * on a protected endpoint (here and below).
   */
  open(res: HttpResponseLike, message: Classified, handshake: string | undefined, authInfo?: AuthInfo): Promise<void>;
  /** A POST into the session the request names (one message or a batch). */
  post(req: HttpRequestLike, res: HttpResponseLike, body: unknown, authInfo?: AuthInfo): void;
  get(req: HttpRequestLike, res: HttpResponseLike, authInfo?: AuthInfo): void;
  remove(req: HttpRequestLike, res: HttpResponseLike, authInfo?: AuthInfo): Promise<void>;
  close(): Promise<void>;
}

/**
 * A stream to the client, closed once the client leaves more than `maxBuffered` bytes unread. What
 * a resumption replays is held in the stream's log anyway: it raises the bound by its own size, so
 * that a client coming back for a long backlog is not cut off for it.
 */
function sink(res: HttpResponseLike, maxBuffered: number): SseSink {
  let replayed = 0;
  return {
    write: (text, replay) => {
      if (!replay) return void writeBounded(res, text, maxBuffered + replayed);
      if (res.writableEnded || res.destroyed) return;
      res.write(text);
      replayed = Math.max(replayed, res.writableLength ?? 0);
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

function openStream(res: HttpResponseLike, sessionId: string, maxBuffered: number): SseSink {
  res.writeHead(200, {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "Mcp-Session-Id": sessionId,
  });
  return sink(res, maxBuffered);
}

export function createSessionRouter(options: SessionRouterOptions): SessionRouter {
  const table = new SessionTable({
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    handshakeMs: options.handshakeTimeoutMs ?? 10_000,
    maxSessions: options.maxSessions ?? 1000,
    maxPerSubject: options.maxSessionsPerSubject,
  });
  const { sessions } = table;
  const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  const cluster = options.cluster
    ? createSessionCluster(
        options.cluster,
        () => sessions.keys(),
        (error) => options.onError?.(error),
        maxBuffered,
      )
    : undefined;

  function versionAccepted(req: HttpRequestLike): boolean {
    const version = header(req, "mcp-protocol-version");
    if (version === undefined) return true;
    return options.protocolVersions ? options.protocolVersions.includes(version) : /^\d{4}-\d{2}-\d{2}$/.test(version);
  }

  /**
   * The session a request names, or undefined once the request is otherwise answered: refused, or
   * (in a cluster) handed to the node holding the session; `body` is the POST's, to forward.
   */
  function sessionOf(
    req: HttpRequestLike,
    res: HttpResponseLike,
    authInfo: AuthInfo | undefined,
    body?: string,
  ): StreamableHttpSession | undefined {
    const id = header(req, "mcp-session-id");
    if (id === undefined) return void refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const session = sessions.get(id);
    if (!session && cluster) {
      const notFound = () => refuse(res, 404, -32001, "Session not found");
      void cluster.serveElsewhere(req, res, id, body, authInfo?.subject).then(
        (served) => (served ? undefined : notFound()),
        (error: unknown) => {
          options.onError?.(error instanceof Error ? error : new Error(String(error)));
          if (!res.headersSent) notFound();
          else if (!res.writableEnded) res.end();
        },
      );
      return undefined;
    }
    if (!session || !table.find(id, authInfo?.subject)) return void refuse(res, 404, -32001, "Session not found");
    if (!versionAccepted(req))
      return void refuse(
        res,
        400,
        -32000,
        `Bad Request: unsupported MCP-Protocol-Version ${header(req, "mcp-protocol-version")}`,
      );
    return session;
  }

  async function startSession(owner: string | undefined): Promise<StreamableHttpSession> {
    const id = crypto.randomUUID();
    const store = cluster?.eventStore;
    const session = new StreamableHttpSession(id, {
      retryMs: options.retryMs ?? 1000,
      onClosed: () => {
        table.delete(id);
        cluster?.release(id);
      },
      // The session's subject goes with each event: a node replaying them once this one is gone checks it.
      ...(store
        ? { onEvent: (stream, seq, text) => store.append(`${id}/${stream}`, { seq, text, subject: owner }) }
        : {}),
      ...(store ? { onStreamDone: (stream) => store.end(`${id}/${stream}`) } : {}),
    });
    table.add(session, owner);
    try {
      await options.onSession(session);
    } catch (error) {
      table.delete(id);
      throw error;
    }
    // Recorded before the handshake is answered, so the client's next request finds it on any
    // node; a session no other node could find is not opened at all.
    try {
      await cluster?.claim(id);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  function deliver(
    res: HttpResponseLike,
    session: StreamableHttpSession,
    message: Classified,
    extra: MessageExtra | undefined,
  ): void {
    if (message.kind !== "request") return accept(res, session, [message.message], extra);
    if (session.hasRequest(message.message.id))
      return refuse(
        res,
        409,
        -32600,
        `Conflict: request id ${JSON.stringify(message.message.id)} is still being answered`,
      );
    answerOnStream(res, session, [message.message], false, extra);
  }

  /**
   * A JSON-RPC batch, for sessions whose revision has them (2025-03-26): only notifications and
   * responses get 202, requests one stream carrying all their answers. The server sees each
   * element as a message of its own, so it validates and answers each as such.
   */
  function postBatch(
    res: HttpResponseLike,
    session: StreamableHttpSession,
    items: unknown[],
    extra: MessageExtra | undefined,
  ): void {
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
    if (ids.size > 0) answerOnStream(res, session, messages, true, extra);
    else accept(res, session, messages, extra);
  }

  /** A POST without requests (notifications, responses): 202, then the messages go to the server. */
  function accept(
    res: HttpResponseLike,
    session: StreamableHttpSession,
    messages: JsonRpcMessage[],
    extra: MessageExtra | undefined,
  ): void {
    res.writeHead(202, { "Mcp-Session-Id": session.sessionId });
    res.end();
    for (const message of messages) session.receive(message, extra);
  }

  /** The POST's answer: one stream (or JSON body) for the responses to the requests among `messages`. */
  function answerOnStream(
    res: HttpResponseLike,
    session: StreamableHttpSession,
    messages: JsonRpcMessage[],
    batch: boolean,
    extra: MessageExtra | undefined,
  ): void {
    const stream = options.jsonResponse
      ? jsonBody(res, session.sessionId, batch)
      : openStream(res, session.sessionId, maxBuffered);
    res.on("close", () => session.detach(stream));
    session.openRequestStream(messages, stream, extra);
  }

  return {
    sessions,
    async open(res, message, handshake, authInfo) {
      const opens = message.kind === "request" && (handshake === undefined || message.message.method === handshake);
      if (!opens) return refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      const session = await startSession(authInfo?.subject);
      // Only the server knows its revision's handshake: anything else does not open a session.
      if (session.handshake !== undefined && (message.message as { method?: string }).method !== session.handshake) {
        await session.close();
        return refuse(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
      }
      // Room is made for a session that is really opening, not for a stray request.
      if (!table.makeRoom(session)) {
        await session.close();
        return refuse(res, 503, -32000, "Service Unavailable: every session is answering a request", {
          "Retry-After": "60",
        });
      }
      deliver(res, session, message, extraOf(authInfo));
    },
    post(req, res, body, authInfo) {
      const session = sessionOf(req, res, authInfo, cluster ? JSON.stringify(body) : undefined);
      if (!session) return;
      if (Array.isArray(body)) return postBatch(res, session, body, extraOf(authInfo));
      const message = classify(body);
      if (!message) return refuse(res, 400, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
      deliver(res, session, message, extraOf(authInfo));
    },
    get(req, res, authInfo) {
      if (!accepts(req, "text/event-stream"))
        return refuse(res, 406, -32000, "Not Acceptable: accept text/event-stream");
      const session = sessionOf(req, res, authInfo);
      if (!session) return;
      let opened: SseSink | undefined;
      const open = () => {
        opened = openStream(res, session.sessionId, maxBuffered);
        res.on("close", () => session.detach(opened as SseSink));
        return opened;
      };
      const lastEventId = header(req, "last-event-id");
      // A cursor into a stream this session no longer keeps can only start a new standalone stream.
      const outcome = lastEventId === undefined ? "unknown" : session.resume(lastEventId, open);
      if (outcome === "conflict" || (outcome === "unknown" && !session.openStandaloneStream(open)))
        refuse(res, 409, -32000, "Conflict: that stream is already connected");
    },
    async remove(req, res, authInfo) {
      const session = sessionOf(req, res, authInfo);
      if (!session) return;
      await session.close();
      res.writeHead(200);
      res.end();
    },
    async close() {
      cluster?.close();
      await Promise.all(table.close().map((session) => session.close()));
    },
  };
}

// 2025-era sessions across the nodes (processes, machines) serving one endpoint. A session's
// server lives on the node that opened it, its owner; the owner records itself in a
// SessionDirectory (renewing the record while the session lives) and, with an EventStore, writes
// its streams' events there too. A node that gets a request for a session it does not hold looks
// the owner up and forwards the request to it, answer and stream included, so a load balancer
// needs no sticky sessions. When the owner is gone (unreachable, or its record expired), a GET with
// Last-Event-ID is answered from the event store (what the client missed, then the end of the
// stream), to the subject that opened the session only, as the owner would; anything else gets
// 404, which tells a 2025-era client to open a new session.
import type { HttpRequestLike, HttpResponseLike } from "../../http-handler.js";
import type { EventStore } from "../../scale/event-store.js";
import type { NodeAddress, SessionDirectory } from "../../scale/session-directory.js";
import { header, writeBounded } from "./request.js";

export interface SessionClusterOptions {
  /** This node, as the others reach it. */
  self: NodeAddress;
  /** Where each session's owner is recorded. */
  directory: SessionDirectory;
  /** Events of resumable streams, for replay on another node once the owner is gone. */
  eventStore?: EventStore | undefined;
  /** How long an ownership record lives unrenewed, in ms (default 30 000); owners renew at a third of it. */
  ownershipTtlMs?: number | undefined;
}

/** Marks a forwarded request, so that a node without the session answers 404 instead of forwarding it on. */
const FORWARDED = "mcp-forwarded-by";

/** Headers that belong to one hop, not to the request or response forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
  "proxy-authorization",
  "proxy-connection",
]);

export interface SessionCluster {
  /** Records this node as the session's owner; resolves once the record is written. */
  claim(sessionId: string): Promise<void>;
  release(sessionId: string): void;
  /** The event store's name for one stream of a session. */
  streamKey(sessionId: string, streamId: string): string;
  readonly eventStore: EventStore | undefined;
  /**
   * A request for a session this node does not hold: forwarded to its owner (which checks who
   * sends it), or a GET with Last-Event-ID replayed from the event store when `subject` (the
   * sender's, on a protected endpoint) opened the session. False when neither could answer it (then 404).
   */
  serveElsewhere(
    req: HttpRequestLike,
    res: HttpResponseLike,
    sessionId: string,
    body: string | undefined,
    subject: string | undefined,
  ): Promise<boolean>;
  /** Stops renewing ownership records. */
  close(): void;
}

export function createSessionCluster(
  options: SessionClusterOptions,
  held: () => Iterable<string>,
  onError: (error: Error) => void,
  /** A forwarded stream whose client leaves this many bytes unread is cut off (session-router.ts's bound). */
  maxBuffered: number,
): SessionCluster {
  const { self, directory, eventStore } = options;
  const ttlMs = options.ownershipTtlMs ?? 30_000;
  const report = (error: unknown) => onError(error instanceof Error ? error : new Error(String(error)));
  // Records of live sessions are renewed well before they expire; a dead owner's lapse.
  const renewer = setInterval(
    () => {
      for (const id of held()) directory.claim(id, self, ttlMs).catch(report);
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  (renewer as { unref?: () => void }).unref?.();

  async function replay(
    req: HttpRequestLike,
    res: HttpResponseLike,
    sessionId: string,
    subject: string | undefined,
  ): Promise<boolean> {
    const lastEventId = header(req, "last-event-id");
    if (req.method !== "GET" || lastEventId === undefined || !eventStore) return false;
    const cut = lastEventId.lastIndexOf("_");
    const after = Number(lastEventId.slice(cut + 1));
    if (cut < 0 || !Number.isInteger(after)) return false;
    const events = await eventStore.replay(`${sessionId}/${lastEventId.slice(0, cut)}`, after);
    // Nothing left to replay: the session is over, and 404 says so.
    if (!events || events.length === 0) return false;
    // Someone else's session is no different from none (as on its owner: session-router.ts).
    if (events.some((event) => event.subject !== subject)) return false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      "Mcp-Session-Id": sessionId,
    });
    for (const event of events) res.write(event.text);
    res.end();
    return true;
  }

  return {
    eventStore,
    claim: (sessionId) => directory.claim(sessionId, self, ttlMs),
    release(sessionId) {
      directory.release(sessionId).catch(report);
    },
    streamKey: (sessionId, streamId) => `${sessionId}/${streamId}`,
    async serveElsewhere(req, res, sessionId, body, subject) {
      if (header(req, FORWARDED) === undefined) {
        const owner = await directory.lookup(sessionId);
        if (owner && owner.node !== self.node && (await forward(req, res, owner.url, body, self.node, maxBuffered)))
          return true;
      }
      return replay(req, res, sessionId, subject);
    },
    close() {
      clearInterval(renewer);
    },
  };
}

/**
 * Sends the request on to `url` and its answer back, streamed as it comes. False when the owner
 * could not be reached at all (nothing was written); a stream the owner drops midway is cut off
 * (destroyed, not ended), so the client sees a broken stream and resumes it.
 */
async function forward(
  req: HttpRequestLike,
  res: HttpResponseLike,
  url: string,
  body: string | undefined,
  self: string,
  maxBuffered: number,
): Promise<boolean> {
  const headers: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  headers[FORWARDED] = self;
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  let response: Response;
  try {
    response = await fetch(url, {
      method: req.method ?? "GET",
      headers,
      ...(body === undefined ? {} : { body }),
      signal: abort.signal,
    });
  } catch {
    return false;
  }
  const out: { [name: string]: string } = {};
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) out[name] = value;
  });
  res.writeHead(response.status, out);
  if (!response.body) return (void res.end(), true);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      // A client that stops reading must not make this node hold what the owner sends it.
      if (!writeBounded(res, decoder.decode(chunk.value, { stream: true }), maxBuffered)) break;
    }
    if (!res.writableEnded) res.end();
  } catch {
    if (res.destroy) res.destroy();
    else if (!res.writableEnded) res.end();
  }
  return true;
}

// One Streamable HTTP session as a Transport: what a generated server connects to. The HTTP
// handler (http-server.ts) feeds it the messages that arrive and the SSE connections the client
// opens; this file decides which stream each outgoing message takes:
//   - a response goes on the stream of the POST that carried its request, which then ends;
//   - a request or notification sent while serving a request (relatedRequestId) goes on that
//     request's stream while it is open;
//   - anything else goes on the standalone stream the client opened with GET.
// Streams are resumable when the client's protocol revision knows priming events (2025-11-25 and
// later): each event gets an id "<stream>_<n>", events are kept until the stream is done, and a
// GET with Last-Event-ID replays what followed on the same stream and carries it on from there.
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";
import { formatSseEvent } from "./sse.js";
import type { Transport, TransportSendOptions } from "./transport.js";

/** Where a stream's events go: one open HTTP response. */
export interface SseSink {
  write(text: string): void;
  end(): void;
}

export interface SessionOptions {
  /** The `retry` the priming event asks clients to wait before reconnecting, in ms. */
  retryMs: number;
  /** The revision the client asked for in its handshake; decides whether streams are primed. */
  protocolVersion: string | undefined;
  /** Told when the session ends, so the handler forgets it. */
  onClosed: () => void;
}

interface Stream {
  readonly id: string;
  /** The request this stream answers; undefined for the standalone GET stream. */
  readonly requestKey: string | undefined;
  readonly resumable: boolean;
  /** Events sent so far (resumable streams only), for replay. */
  readonly log: { seq: number; text: string }[];
  seq: number;
  sink: SseSink | undefined;
  answered: boolean;
}

/** The first revision whose clients expect a priming event (and so can resume any stream). */
const PRIMING_SINCE = "2025-11-25";
/** Answered streams kept for a client that has not come back for the answer yet. */
const MAX_UNCOLLECTED_STREAMS = 64;
/** Events of the standalone stream kept for replay. */
const MAX_STANDALONE_EVENTS = 256;

const keyOf = (id: RequestId) => `${typeof id}:${id}`;

export class StreamableHttpSession implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly streams = new Map<string, Stream>();
  private readonly byRequest = new Map<string, Stream>();
  private standalone: Stream | undefined;
  private nextStream = 1;
  private protocolVersion: string | undefined;
  private handshakeKey: string | undefined;
  private closed = false;

  constructor(
    readonly sessionId: string,
    private readonly options: SessionOptions,
  ) {
    this.protocolVersion = options.protocolVersion;
  }

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error("the HTTP session is closed");
    const data = JSON.stringify(message);
    if (!("method" in message)) {
      const stream = message.id === undefined ? undefined : this.byRequest.get(keyOf(message.id));
      if (!stream) throw new Error(`no open request stream for response id ${JSON.stringify(message.id)}`);
      if (this.handshakeKey === stream.requestKey) this.noteAgreedVersion(message);
      this.emit(stream, data);
      this.finish(stream);
      return;
    }
    const related =
      options?.relatedRequestId === undefined ? undefined : this.byRequest.get(keyOf(options.relatedRequestId));
    const stream = related && !related.answered ? related : this.standalone;
    if (stream) this.emit(stream, data);
    // A request nobody can receive would only time out: fail it now. Notifications are best effort.
    else if ("id" in message)
      throw new Error(`no stream to the client for ${message.method}: it has no GET stream open`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) stream.sink?.end();
    this.streams.clear();
    this.byRequest.clear();
    this.standalone = undefined;
    this.options.onClosed();
    this.onclose?.();
  }

  /**
   * Ends the HTTP response carrying a request's stream without ending the stream: the client
   * reconnects with Last-Event-ID (after the priming event's `retry`) and gets the rest. Polling
   * instead of holding a connection open; does nothing on a stream that cannot be resumed.
   */
  closeSSEStream(requestId: RequestId): void {
    const stream = this.byRequest.get(keyOf(requestId));
    if (stream?.resumable) this.disconnect(stream);
  }

  /** Ends the standalone GET stream's HTTP response, likewise. */
  closeStandaloneSSEStream(): void {
    if (this.standalone?.resumable) this.disconnect(this.standalone);
  }

  // ---- used by the HTTP handler ----

  /** Messages that need no stream of their own (notifications, responses from the client). */
  receive(message: JsonRpcMessage): void {
    this.onmessage?.(message);
  }

  hasRequest(id: RequestId): boolean {
    return this.byRequest.has(keyOf(id));
  }

  /** A POSTed request: its own stream, primed, then the request goes to the server. */
  openRequestStream(request: JsonRpcMessage & { id: RequestId; method: string }, sink: SseSink): void {
    const stream = this.newStream(keyOf(request.id), sink);
    this.byRequest.set(keyOf(request.id), stream);
    if (this.handshakeKey === undefined && request.method === "initialize") this.handshakeKey = stream.requestKey;
    this.onmessage?.(request);
  }

  /** A GET without Last-Event-ID; false when a standalone stream is already connected. */
  openStandaloneStream(open: () => SseSink): boolean {
    if (this.standalone?.sink) return false;
    if (this.standalone) this.streams.delete(this.standalone.id);
    this.standalone = this.newStream(undefined, open());
    return true;
  }

  /**
   * A GET with Last-Event-ID: replays the events that followed it on the same stream and carries
   * the stream on. "unknown" when no such stream is kept, "conflict" when it is connected already.
   */
  resume(lastEventId: string, open: () => SseSink): "resumed" | "unknown" | "conflict" {
    const cut = lastEventId.lastIndexOf("_");
    const stream = cut < 0 ? undefined : this.streams.get(lastEventId.slice(0, cut));
    const after = Number(lastEventId.slice(cut + 1));
    if (!stream || !Number.isInteger(after)) return "unknown";
    if (stream.sink) return "conflict";
    const sink = open();
    for (const event of stream.log) if (event.seq > after) sink.write(event.text);
    stream.sink = sink;
    if (stream.answered) this.finish(stream);
    return "resumed";
  }

  /** The client went away: keep a resumable stream for its return, forget one that is not. */
  detach(sink: SseSink): void {
    for (const stream of this.streams.values()) {
      if (stream.sink !== sink) continue;
      stream.sink = undefined;
      if (!stream.resumable && stream === this.standalone) {
        this.streams.delete(stream.id);
        this.standalone = undefined;
      }
    }
  }

  // ---- streams ----

  private newStream(requestKey: string | undefined, sink: SseSink): Stream {
    const resumable = this.protocolVersion !== undefined && this.protocolVersion >= PRIMING_SINCE;
    const stream: Stream = {
      id: String(this.nextStream++),
      requestKey,
      resumable,
      log: [],
      seq: 0,
      sink,
      answered: false,
    };
    this.streams.set(stream.id, stream);
    // The priming event: an id (and how long to wait) before any message, so that the client can
    // reconnect to this stream even if the connection ends before the first message.
    if (resumable) sink.write(formatSseEvent({ id: `${stream.id}_0`, retryMs: this.options.retryMs, data: "" }));
    return stream;
  }

  private emit(stream: Stream, data: string): void {
    const seq = ++stream.seq;
    const text = formatSseEvent({ event: "message", ...(stream.resumable ? { id: `${stream.id}_${seq}` } : {}), data });
    if (stream.resumable) {
      stream.log.push({ seq, text });
      if (stream === this.standalone && stream.log.length > MAX_STANDALONE_EVENTS) stream.log.shift();
    }
    stream.sink?.write(text);
  }

  /** The stream's answer is out: end the connection, or keep the stream until the client collects it. */
  private finish(stream: Stream): void {
    stream.answered = true;
    if (stream.requestKey !== undefined) this.byRequest.delete(stream.requestKey);
    if (stream.sink || !stream.resumable) {
      stream.sink?.end();
      this.streams.delete(stream.id);
      return;
    }
    const uncollected = [...this.streams.values()].filter((s) => s.answered);
    for (const old of uncollected.slice(0, Math.max(0, uncollected.length - MAX_UNCOLLECTED_STREAMS)))
      this.streams.delete(old.id);
  }

  private disconnect(stream: Stream): void {
    const sink = stream.sink;
    stream.sink = undefined;
    sink?.end();
  }

  /** The handshake's answer names the revision the session runs on. */
  private noteAgreedVersion(message: JsonRpcMessage): void {
    const result = "result" in message ? message.result : undefined;
    if (typeof result?.["protocolVersion"] === "string") this.protocolVersion = result["protocolVersion"];
  }
}

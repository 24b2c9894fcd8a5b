// One Streamable HTTP session as a Transport: what a generated server connects to. The HTTP
// handler (session-router.ts) feeds it the messages that arrive and the SSE connections the client
// opens; this file decides which stream each outgoing message takes:
//   - a response goes on the stream of the POST that carried its request, which ends once it
//     has carried the responses to all the requests of that POST (several in a batch);
//   - a request or notification sent while serving a request (relatedRequestId) goes on that
//     request's stream while it is open;
//   - anything else goes on the standalone stream the client opened with GET.
// With the handler's jsonResponse option a POST's "stream" is a JSON body that gets the answers
// only (what would go on it with relatedRequestId takes the GET stream instead).
// Streams are resumable when the connected server's revision primes them (its HTTP binding, which
// generated servers hand over on connect): each event gets an id "<stream>_<n>", events are kept
// until the stream is done, and a GET with Last-Event-ID replays what followed on the same stream
// and carries it on from there.
import type { MessageExtra } from "../../auth/auth-info.js";
import type { JsonRpcMessage, RequestId } from "../../jsonrpc.js";
import { formatSseEvent } from "../sse.js";
import type { HttpBinding, SessionHttpBinding, Transport, TransportSendOptions } from "../../transport.js";

/** Where a stream's events go: one open HTTP response. */
export interface SseSink {
  /**
   * A JSON body instead of an event stream: `write` gets each answer's JSON text, `end` sends
   * them, and nothing but answers goes to it (no priming, no resumption, no related messages).
   */
  readonly json?: boolean;
  /** `replay`: an event the stream's log holds already, sent again to a client that resumed. */
  write(text: string, replay?: boolean): void;
  end(): void;
}

export interface SessionOptions {
  /** The `retry` the priming event asks clients to wait before reconnecting, in ms. */
  retryMs: number;
  /** Told when the session ends, so the handler forgets it. */
  onClosed: () => void;
  /**
   * Told each event of a resumable stream as it is sent (an EventStore's append, so that another
   * node can replay it); the session keeps and replays its own copy regardless.
   */
  onEvent?: ((streamId: string, seq: number, text: string) => void) | undefined;
  /** Told when a resumable stream has carried its last event. */
  onStreamDone?: ((streamId: string) => void) | undefined;
}

interface Stream {
  readonly id: string;
  /** Answers only, as a JSON body (see SseSink.json). */
  readonly json: boolean;
  /** The requests this stream still has to answer; none for the standalone GET stream. */
  readonly awaiting: Set<string>;
  readonly resumable: boolean;
  /** Events sent so far (resumable streams only), for replay. */
  readonly log: { seq: number; text: string }[];
  seq: number;
  sink: SseSink | undefined;
  answered: boolean;
}

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
  /** What the connected server's revision does over HTTP; none from a server that does not say. */
  private binding: SessionHttpBinding | undefined;
  private closed = false;
  /** When the client last did something in this session (Date.now()), for idle expiry. */
  lastActive = Date.now();

  readonly sessionId: string;
  private readonly options: SessionOptions;

  constructor(sessionId: string, options: SessionOptions) {
    this.sessionId = sessionId;
    this.options = options;
  }

  async start(): Promise<void> {}

  setHttpBinding(binding: HttpBinding): void {
    if (binding.kind === "sessions") this.binding = binding;
  }

  /** The request that opens a session, as the connected server's revision names it. */
  get handshake(): string | undefined {
    return this.binding?.handshake;
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error("the HTTP session is closed");
    // A batch's answers go each on the stream of its own request (the server splits batches).
    if (Array.isArray(message)) {
      for (const item of message) await this.send(item, options);
      return;
    }
    const data = JSON.stringify(message);
    if (!("method" in message)) {
      const key = message.id === undefined ? undefined : keyOf(message.id);
      const stream = key === undefined ? undefined : this.byRequest.get(key);
      if (!stream || key === undefined)
        throw new Error(`no open request stream for response id ${JSON.stringify(message.id)}`);
      this.emit(stream, data);
      this.done(key, stream);
      return;
    }
    const related =
      options?.relatedRequestId === undefined ? undefined : this.byRequest.get(keyOf(options.relatedRequestId));
    const stream = related && !related.answered && !related.json ? related : this.standalone;
    if (stream) this.emit(stream, data);
    // A request nobody can receive would only time out: fail it now. Notifications are best effort.
    else if ("id" in message)
      throw new Error(`no stream to the client for ${message.method}: it has no GET stream open`);
  }

  /** The server will not answer this request (it was cancelled): its stream waits for it no more. */
  unanswered(requestId: RequestId): void {
    const key = keyOf(requestId);
    const stream = this.byRequest.get(key);
    if (stream) this.done(key, stream);
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

  /**
   * Messages that need no stream of their own (notifications, responses from the client); `extra`
   * is what the endpoint knows of their sender (its verified token).
   */
  receive(message: JsonRpcMessage, extra?: MessageExtra): void {
    this.onmessage?.(message, extra);
  }

  /** The client did something in this session. */
  touch(): void {
    this.lastActive = Date.now();
  }

  /**
   * A connection is open or a request is being answered. Idle expiry and eviction look at
   * `answering` only (session-table.ts): an open stream alone does not keep a session.
   */
  get busy(): boolean {
    if (this.byRequest.size > 0) return true;
    for (const stream of this.streams.values()) if (stream.sink) return true;
    return false;
  }

  /** A request of the client's is being answered: the session must not be closed under it. */
  get answering(): boolean {
    return this.byRequest.size > 0;
  }

  hasRequest(id: RequestId): boolean {
    return this.byRequest.has(keyOf(id));
  }

  /** Whether the server's revision lets a POST carry a JSON-RPC batch. */
  get acceptsBatches(): boolean {
    return this.binding?.batches === true;
  }

  /**
   * A POST with requests (one, or a batch that may also hold notifications and responses): one
   * stream, primed, for the answers to all its requests; then the messages go to the server in order.
   */
  openRequestStream(messages: readonly JsonRpcMessage[], sink: SseSink, extra?: MessageExtra): void {
    const keys = messages.flatMap((m) => ("method" in m && "id" in m ? [keyOf(m.id)] : []));
    const stream = this.newStream(keys, sink);
    for (const key of keys) this.byRequest.set(key, stream);
    for (const message of messages) {
      this.onmessage?.(message, extra);
    }
  }

  /** A GET without Last-Event-ID; false when a standalone stream is already connected. */
  openStandaloneStream(open: () => SseSink): boolean {
    if (this.standalone?.sink) return false;
    if (this.standalone) this.streams.delete(this.standalone.id);
    this.standalone = this.newStream([], open());
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
    for (const event of stream.log) if (event.seq > after) sink.write(event.text, true);
    stream.sink = sink;
    if (stream.answered) this.finish(stream);
    return "resumed";
  }

  /** The client went away: keep a resumable stream for its return, forget one that is not. */
  detach(sink: SseSink): void {
    this.touch();
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

  private newStream(requestKeys: readonly string[], sink: SseSink): Stream {
    const json = sink.json === true;
    const resumable = !json && this.binding?.primedStreams === true;
    const stream: Stream = {
      id: String(this.nextStream++),
      json,
      awaiting: new Set(requestKeys),
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
    if (stream.json) return void stream.sink?.write(data);
    const seq = ++stream.seq;
    const text = formatSseEvent({ event: "message", ...(stream.resumable ? { id: `${stream.id}_${seq}` } : {}), data });
    if (stream.resumable) {
      stream.log.push({ seq, text });
      this.options.onEvent?.(stream.id, seq, text);
      if (stream === this.standalone && stream.log.length > MAX_STANDALONE_EVENTS) stream.log.shift();
    }
    stream.sink?.write(text);
  }

  /** A request of the stream is over (answered, or never to be): the stream ends after its last. */
  private done(key: string, stream: Stream): void {
    this.byRequest.delete(key);
    stream.awaiting.delete(key);
    if (stream.awaiting.size === 0) this.finish(stream);
  }

  /** The stream's answers are out: end the connection, or keep the stream until the client collects it. */
  private finish(stream: Stream): void {
    this.touch();
    if (!stream.answered && stream.resumable) this.options.onStreamDone?.(stream.id);
    stream.answered = true;
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
}

// The client side of the Streamable HTTP transport, on the global fetch (Node 18+, browsers,
// Deno, Bun). Every message is POSTed to the MCP endpoint; a request's answer comes back as
// JSON or as an SSE stream that may carry the server's own requests and notifications first.
// After the handshake a GET stream is kept open for messages the server sends on its own.
// A stream that ends before its answer is resumed with GET and Last-Event-ID, after the `retry`
// the server asked for (or a backoff when it named none); not after a refused authorization,
// which another GET would only ask for again. Spec:
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Stateless revisions (2026-07-28 and later, chosen by the binding the generated client hands
// over) post every message on its own instead: see stateless-client.ts.
import { AuthorizationError } from "../../auth/client/errors.js";
import type { JsonRpcMessage, RequestId } from "../../jsonrpc.js";
import { Aborters } from "./aborters.js";
import { asMessage, eventMessages, HttpError } from "./messages.js";
import { readSseBody, SseParser } from "../sse.js";
import { StatelessPosts } from "./stateless-client.js";
import type { HttpBinding, Transport } from "../../transport.js";

export { HttpError } from "./messages.js";

export interface ReconnectOptions {
  /** Delay before the first reconnection when the server named no `retry`, in ms (default 1000). */
  initialDelayMs?: number;
  /** Each further attempt waits this much longer (default 1.5). */
  growth?: number;
  /** The longest delay, in ms (default 30 000). */
  maxDelayMs?: number;
  /** Attempts in a row, without a message in between, before giving up (default 5). */
  maxAttempts?: number;
}

export interface StreamableHttpClientOptions {
  /** Sent with every HTTP request, e.g. `{ Authorization: "Bearer …" }`. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  reconnect?: ReconnectOptions;
  /** Open the GET stream for server-initiated messages after the handshake (default true). */
  openStream?: boolean;
  /** End the session with DELETE on close() (default true). */
  terminateOnClose?: boolean;
  /** Stateless revisions: the largest JSON answer or SSE event taken, in bytes (default 64 MiB). */
  maxMessageBytes?: number;
}

/** The server answered an HTTP request of the Streamable HTTP transport with an error status. */
export class StreamableHttpError extends HttpError {
  constructor(status: number, body: string) {
    super(status, body);
    this.name = "StreamableHttpError";
  }
}

/** The notification after which a client may open its GET stream (the handshake is over). */
const INITIALIZED = "notifications/initialized";

export class StreamableHttpClientTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  sessionId?: string | undefined;
  private protocolVersion: string | undefined;
  private readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly aborters = new Aborters();
  /** Session requests still awaiting their answers: the HTTP request carrying each now (its POST, a resumption). */
  private readonly carriers = new Map<RequestId, AbortController>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private started = false;
  private closed = false;
  /** Set while the revision spoken is a stateless one (its binding says so). */
  private stateless: StatelessPosts | undefined;
  private readonly options: StreamableHttpClientOptions;

  constructor(url: string | URL, options: StreamableHttpClientOptions = {}) {
    this.options = options;
    this.url = new URL(url);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StreamableHttpClientTransport already started");
    this.started = true;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * The revision's binding, from the generated client: a stateless one makes every message a
   * POST of its own (stateless-client.ts); a session one keeps the 2025-era transport below.
   */
  setHttpBinding(binding: HttpBinding): void {
    this.stateless?.close();
    this.stateless =
      binding.kind === "stateless"
        ? new StatelessPosts(binding, {
            url: this.url,
            fetch: this.fetch,
            headers: this.options.headers ?? {},
            maxMessageBytes: this.options.maxMessageBytes ?? 64 * 1024 * 1024,
            deliver: (message) => this.onmessage?.(message),
            report: (error) => this.onerror?.(error),
            httpError: (status, body) => new StreamableHttpError(status, body),
          })
        : undefined;
  }

  /**
   * At stateless revisions a request is cancelled by closing its stream (no notification). In a
   * session the notification is still to be sent, and the request's stream, which will carry no
   * answer now, is closed (a server may keep it open for good).
   */
  cancel(requestId: RequestId): boolean {
    if (this.stateless) return this.stateless.cancel(requestId);
    const carrier = this.carriers.get(requestId);
    this.carriers.delete(requestId);
    carrier?.abort();
    return false;
  }

  /**
   * A batch (only ever the answers to one the server sent) is POSTed as it is, like a response.
   * At stateless revisions a request's send settles once its answer has been delivered.
   */
  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) throw new Error("the HTTP transport is closed");
    if (this.stateless) return this.stateless.send(message);
    const controller = this.aborters.take();
    const single = Array.isArray(message) ? undefined : message;
    const request = single && "id" in single && "method" in single ? single : undefined;
    const awaited = request?.id;
    if (awaited !== undefined) this.carriers.set(awaited, controller);
    // Released here, or by the stream's reader once the answer's stream is read to its end.
    let streaming = false;
    try {
      const response = await this.fetch(this.url, {
        method: "POST",
        headers: this.headers({ "Content-Type": "application/json", Accept: "application/json, text/event-stream" }),
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      const sessionId = response.headers.get("mcp-session-id");
      if (sessionId) this.sessionId = sessionId;
      if (!response.ok) throw new StreamableHttpError(response.status, await response.text().catch(() => ""));
      const type = response.headers.get("content-type") ?? "";
      if (response.status === 202 || !request) {
        await response.body?.cancel();
        if (single && "method" in single && single.method === INITIALIZED && this.options.openStream !== false)
          void this.get(undefined, undefined, 0);
        return;
      }
      if (type.includes("text/event-stream")) {
        // The answer arrives on the stream; send() is done once the server has taken the request.
        streaming = true;
        void this.read(response, request.id, undefined, 0).finally(() => this.aborters.release(controller));
        return;
      }
      if (type.includes("application/json")) {
        const data: unknown = await response.json();
        for (const item of Array.isArray(data) ? data : [data]) this.deliver(item);
        return;
      }
      await response.body?.cancel();
      throw new Error(`unexpected Content-Type ${JSON.stringify(type)} in the answer to ${request.method}`);
    } finally {
      if (!streaming) {
        this.aborters.release(controller);
        if (awaited !== undefined && this.carriers.get(awaited) === controller) this.carriers.delete(awaited);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stateless?.close();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.aborters.closeAll();
    if (this.sessionId !== undefined && this.options.terminateOnClose !== false) {
      // Best effort: the server may not allow it (405) or may be gone already.
      await this.fetch(this.url, { method: "DELETE", headers: this.headers({}), signal: AbortSignal.timeout(2000) })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
    this.onclose?.();
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, ...extra };
    if (this.sessionId !== undefined) headers["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion !== undefined) headers["MCP-Protocol-Version"] = this.protocolVersion;
    return headers;
  }

  private deliver(item: unknown): void {
    const message = asMessage(item);
    if (message instanceof Error) this.onerror?.(message);
    else this.onmessage?.(message);
  }

  /**
   * Reads one SSE response to its end. A stream that ends before the answer it carries (or the
   * standalone stream, which has no answer) is reconnected, from its last event id if it gave one.
   * `attempt` counts the connections in a row that brought nothing new.
   */
  private async read(
    response: Response,
    awaited: RequestId | undefined,
    lastEventId: string | undefined,
    attempt: number,
  ): Promise<void> {
    let answered = false;
    let delivered = false;
    const parser = new SseParser(
      (event) => {
        // Events without data prime the stream (an id and a retry) or keep it alive.
        if (event.data === "" || event.event !== "message") return;
        for (const message of eventMessages(event.data)) {
          if (message instanceof Error) {
            this.onerror?.(message);
            continue;
          }
          delivered = true;
          if (awaited !== undefined && "id" in message && message.id === awaited && !("method" in message))
            answered = true;
          this.onmessage?.(message);
        }
      },
      { onError: (error) => this.onerror?.(error) },
    );
    parser.lastEventId = lastEventId;
    // A request cancelled meanwhile: its stream was closed on purpose, and no answer is to come.
    const cancelled = () => awaited !== undefined && !this.carriers.has(awaited);
    try {
      await readSseBody(response.body, parser);
    } catch (error) {
      if (this.closed || cancelled()) return;
      this.onerror?.(new Error(`the SSE stream broke: ${error instanceof Error ? error.message : String(error)}`));
    }
    if (this.closed || cancelled()) return;
    if (awaited !== undefined && (answered || parser.lastEventId === undefined)) {
      this.carriers.delete(awaited);
      if (!answered)
        this.onerror?.(new Error(`the stream for request ${JSON.stringify(awaited)} ended without its answer`));
      return;
    }
    const progressed = delivered || parser.lastEventId !== lastEventId;
    this.reconnect(awaited, parser.lastEventId, progressed ? 1 : attempt + 1, parser.retryMs);
  }

  /** Waits the server's `retry` (it MUST be respected), or a backoff when it gave none, then GETs. */
  private reconnect(
    awaited: RequestId | undefined,
    lastEventId: string | undefined,
    attempt: number,
    retryMs?: number,
  ): void {
    const policy = this.options.reconnect ?? {};
    const maxAttempts = policy.maxAttempts ?? 5;
    if (attempt > maxAttempts) {
      if (awaited !== undefined) this.carriers.delete(awaited);
      this.onerror?.(new Error(`gave up reconnecting the SSE stream after ${maxAttempts} attempts`));
      return;
    }
    const backoff = (policy.initialDelayMs ?? 1000) * (policy.growth ?? 1.5) ** (attempt - 1);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.get(awaited, lastEventId, attempt, retryMs);
      },
      retryMs ?? Math.min(backoff, policy.maxDelayMs ?? 30_000),
    );
    this.timers.add(timer);
  }

  /** Opens a GET stream: the standalone one (no `awaited`), or the rest of a request's stream. */
  private async get(
    awaited: RequestId | undefined,
    lastEventId: string | undefined,
    attempt: number,
    retryMs?: number,
  ): Promise<void> {
    // A request cancelled while its stream waited to be resumed needs it no more.
    if (this.closed || (awaited !== undefined && !this.carriers.has(awaited))) return;
    const controller = this.aborters.take();
    if (awaited !== undefined) this.carriers.set(awaited, controller);
    try {
      let response: Response;
      try {
        const extra: Record<string, string> = { Accept: "text/event-stream" };
        if (lastEventId !== undefined) extra["Last-Event-ID"] = lastEventId;
        response = await this.fetch(this.url, {
          method: "GET",
          headers: this.headers(extra),
          signal: controller.signal,
        });
      } catch (error) {
        if (this.closed) return;
        if (!(error instanceof AuthorizationError)) return this.reconnect(awaited, lastEventId, attempt + 1, retryMs);
        if (awaited !== undefined) this.carriers.delete(awaited);
        this.onerror?.(error);
        return;
      }
      // 405: the server offers no GET stream; nothing to retry.
      if (response.status === 405 && awaited === undefined) return void (await response.body?.cancel());
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        await response.body?.cancel();
        this.onerror?.(new StreamableHttpError(response.status, "the GET stream could not be opened"));
        return;
      }
      await this.read(response, awaited, lastEventId, attempt);
    } finally {
      this.aborters.release(controller);
    }
  }
}

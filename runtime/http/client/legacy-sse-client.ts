// The client side of the HTTP+SSE transport of revision 2024-11-05, on the global fetch, for
// servers that never moved to Streamable HTTP. One GET opens an SSE stream; its first event,
// `endpoint`, names the URL to POST each message to; everything the server says comes back as
// `message` events on that one stream. The stream is the session: when it ends, the transport
// closes. Spec: https://modelcontextprotocol.io/specification/2024-11-05/basic/transports
import { AuthorizationError } from "../../auth/client/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc.js";
import { Aborters } from "./aborters.js";
import { eventMessages, HttpError } from "./messages.js";
import { readSseBody, SseParser } from "../sse.js";
import type { Transport } from "../../transport.js";

export { HttpError } from "./messages.js";

export interface LegacySseClientOptions {
  /** Sent with every HTTP request (the GET and each POST), e.g. `{ Authorization: "Bearer …" }`. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** How long start() waits for the stream and its `endpoint` event, in ms (default 10 000). */
  endpointTimeoutMs?: number;
}

export class LegacySseClientTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly aborters = new Aborters();
  private endpoint: URL | undefined;
  /** Settles start() once the endpoint is known, or the stream failed before that. */
  private ready: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private started = false;
  private closed = false;
  private readonly options: LegacySseClientOptions;

  constructor(url: string | URL, options: LegacySseClientOptions = {}) {
    this.options = options;
    this.url = new URL(url);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Opens the stream; resolves when the server has named its endpoint. */
  async start(): Promise<void> {
    if (this.started) throw new Error("LegacySseClientTransport already started");
    this.started = true;
    const timeoutMs = this.options.endpointTimeoutMs ?? 10_000;
    const ready = new Promise<void>((resolve, reject) => (this.ready = { resolve, reject }));
    const timer = setTimeout(() => this.fail(new Error(`no endpoint event within ${timeoutMs} ms`)), timeoutMs);
    void this.open();
    try {
      await ready;
    } finally {
      clearTimeout(timer);
    }
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) throw new Error("the HTTP+SSE transport is closed");
    if (this.endpoint === undefined) throw new Error("the HTTP+SSE transport is not started");
    const controller = this.aborters.take();
    try {
      const response = await this.fetch(this.endpoint, {
        method: "POST",
        headers: { ...this.options.headers, "Content-Type": "application/json" },
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      // The answer (if any) comes on the stream; the POST's own body says nothing (202 "Accepted").
      if (!response.ok) throw new HttpError(response.status, await response.text().catch(() => ""));
      await response.body?.cancel();
    } finally {
      this.aborters.release(controller);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.aborters.closeAll();
    this.ready?.reject(new Error("the HTTP+SSE transport was closed before the server named its endpoint"));
    this.ready = undefined;
    this.onclose?.();
  }

  private async open(): Promise<void> {
    // The stream lasts as long as the transport: only close() ends it.
    const controller = this.aborters.take();
    try {
      const response = await this.fetch(this.url, {
        method: "GET",
        headers: { ...this.options.headers, Accept: "text/event-stream" },
        signal: controller.signal,
      });
      if (!response.ok) throw new HttpError(response.status, await response.text().catch(() => ""));
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream")) {
        await response.body?.cancel();
        throw new Error(`the GET answered with Content-Type ${JSON.stringify(type)}, not an SSE stream`);
      }
      const parser = new SseParser((event) => this.event(event.event, event.data), {
        onError: (error) => this.onerror?.(error),
      });
      await readSseBody(response.body, parser);
      this.fail(new Error("the server ended the SSE stream: the HTTP+SSE session is over"));
    } catch (error) {
      const reason = error instanceof Error ? error : new Error(String(error));
      // A refusal (HTTP, or a failed authorization) is passed on as it is: the stream never opened.
      const refused = error instanceof HttpError || error instanceof AuthorizationError;
      this.fail(refused ? reason : new Error(`the SSE stream broke: ${reason.message}`));
    }
  }

  private event(type: string, data: string): void {
    if (this.closed) return;
    if (type === "endpoint") return this.setEndpoint(data);
    // Other event types are not this transport's (an SSE client skips what it does not know),
    // and an event without data carries no message.
    if (type !== "message" || data === "") return;
    for (const message of eventMessages(data)) {
      if (message instanceof Error) this.onerror?.(message);
      else this.onmessage?.(message);
    }
  }

  private setEndpoint(data: string): void {
    if (this.endpoint !== undefined) {
      this.onerror?.(new Error(`a second endpoint event (${data.slice(0, 100)}) was ignored`));
      return;
    }
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch {
      return this.fail(new Error(`the endpoint event is not a URL: ${data.slice(0, 100)}`));
    }
    // Messages, and the headers sent with them (often credentials), may only go where the client
    // was pointed: a stream that names another origin would have them posted to a third party.
    if (endpoint.origin !== this.url.origin) {
      return this.fail(
        new Error(
          `the server named an endpoint on another origin (${endpoint.origin}, not ${this.url.origin}): refused`,
        ),
      );
    }
    this.endpoint = endpoint;
    this.ready?.resolve();
    this.ready = undefined;
  }

  /** Ends the transport: start() rejects with `error` while waiting, else it goes to onerror first. */
  private fail(error: Error): void {
    if (this.closed) return;
    if (this.ready) this.ready.reject(error);
    else this.onerror?.(error);
    this.ready = undefined;
    void this.close();
  }
}

// One URL, either HTTP transport: Streamable HTTP first, and the HTTP+SSE transport of 2024-11-05
// when the server refuses the handshake's POST the way a server without Streamable HTTP does
// (400, 404 or 405), which is how revision 2025-03-26 tells clients to support both. Only the
// `initialize` POST decides: a server of 2025 refuses other requests outside a session with 400
// too (a 2026-07-28 discovery probe, say), and must not be taken for an old one.
import { AuthorizationError } from "../../auth/client/errors.js";
import { StreamableHttpClientTransport, StreamableHttpError, type StreamableHttpClientOptions } from "./client.js";
import type { JsonRpcMessage, RequestId } from "../../jsonrpc.js";
import { LegacySseClientTransport, type LegacySseClientOptions } from "./legacy-sse-client.js";
import type { HttpBinding, Transport, TransportSendOptions } from "../../transport.js";

export type HttpTransportKind = "streamable-http" | "sse";

/** The statuses of a first POST that send a client to the old transport. */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

export class FallbackHttpClientTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly url: URL;
  private active: Transport;
  private chosen: HttpTransportKind | undefined;
  private readonly options: StreamableHttpClientOptions & LegacySseClientOptions;

  constructor(url: string | URL, options: StreamableHttpClientOptions & LegacySseClientOptions = {}) {
    this.options = options;
    this.url = new URL(url);
    this.active = this.wire(new StreamableHttpClientTransport(this.url, options));
  }

  /** The transport in use: known once the server has accepted a POST, or the fallback happened. */
  get kind(): HttpTransportKind | undefined {
    return this.chosen;
  }

  get sessionId(): string | undefined {
    return this.active.sessionId;
  }

  start(): Promise<void> {
    return this.active.start();
  }

  setProtocolVersion(version: string): void {
    this.active.setProtocolVersion?.(version);
  }

  /** A stateless binding makes Streamable HTTP post every message on its own (the old transport has none). */
  setHttpBinding(binding: HttpBinding): void {
    this.active.setHttpBinding?.(binding);
  }

  cancel(requestId: RequestId): boolean {
    return this.active.cancel?.(requestId) ?? false;
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void> {
    if (this.chosen !== undefined) return this.active.send(message, options);
    try {
      await this.active.send(message, options);
      this.chosen = "streamable-http";
    } catch (error) {
      const initialize = !Array.isArray(message) && "method" in message && message.method === "initialize";
      if (!(initialize && error instanceof StreamableHttpError && FALLBACK_STATUSES.has(error.status))) throw error;
      await this.fallBack(error);
      await this.active.send(message, options);
    }
  }

  close(): Promise<void> {
    return this.active.close();
  }

  /** Opens the old transport's stream on the same URL; only once it works is it the one in use. */
  private async fallBack(refusal: StreamableHttpError): Promise<void> {
    const legacy = this.wire(new LegacySseClientTransport(this.url, this.options));
    try {
      await legacy.start();
    } catch (error) {
      // A failed authorization says nothing of the transports the server speaks.
      if (error instanceof AuthorizationError) throw error;
      throw new Error(
        `${this.url.href} speaks neither Streamable HTTP (the POST got ${refusal.message}) nor the ` +
          `HTTP+SSE transport (${error instanceof Error ? error.message : String(error)})`,
        { cause: error },
      );
    }
    const streamable = this.active;
    this.active = legacy;
    this.chosen = "sse";
    // Unused, and without a session (its POST failed): closing it only lets go of it, silently.
    await streamable.close();
  }

  /** Passes on what `transport` reports while it is the one in use. */
  private wire<T extends Transport>(transport: T): T {
    transport.onmessage = (message, extra) => {
      if (this.active === transport) this.onmessage?.(message, extra);
    };
    transport.onerror = (error) => {
      if (this.active === transport) this.onerror?.(error);
    };
    transport.onclose = () => {
      if (this.active === transport) this.onclose?.();
    };
    return transport;
  }
}

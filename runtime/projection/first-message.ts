// One connection (stdio, in memory) that a client of either era may open: its first message says
// which server takes it, and that server gets the connection with the message still to come.
import type { JsonRpcMessage, RequestId } from "../jsonrpc.js";
import type { HttpBinding, Transport, TransportSendOptions } from "../transport.js";

type Received = [message: JsonRpcMessage | JsonRpcMessage[], extra: object | undefined];

/** Starts `real`; its first message picks the server (`route`) that is connected to it, messages so far kept. */
export async function routeByFirstMessage(
  real: Transport,
  route: (first: JsonRpcMessage | JsonRpcMessage[]) => (transport: Transport) => Promise<void>,
): Promise<void> {
  const held: Received[] = [];
  let chosen: Replaying | undefined;
  real.onmessage = (message, extra) => {
    held.push([message, extra]);
    if (chosen) return;
    chosen = new Replaying(real, held);
    route(message)(chosen).catch((error: unknown) => {
      real.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void real.close();
    });
  };
  await real.start();
}

/** `real`, already started, handing its new owner the messages that came before it started. */
class Replaying implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly real: Transport;
  private readonly held: Received[];

  constructor(real: Transport, held: Received[]) {
    this.real = real;
    this.held = held;
  }

  get sessionId(): string | undefined {
    return this.real.sessionId;
  }

  async start(): Promise<void> {
    this.real.onclose = () => this.onclose?.();
    this.real.onerror = (error) => this.onerror?.(error);
    // Delivered once whoever started this has its handlers in place.
    queueMicrotask(() => {
      for (const [message, extra] of this.held.splice(0)) this.onmessage?.(message as JsonRpcMessage, extra);
      this.real.onmessage = (message, extra) => this.onmessage?.(message, extra);
    });
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void> {
    return this.real.send(message, options);
  }

  close(): Promise<void> {
    return this.real.close();
  }

  setProtocolVersion(version: string): void {
    this.real.setProtocolVersion?.(version);
  }

  setHttpBinding(binding: HttpBinding): void {
    this.real.setHttpBinding?.(binding);
  }

  cancel(requestId: RequestId): boolean {
    return this.real.cancel?.(requestId) ?? false;
  }

  unanswered(requestId: RequestId): void {
    this.real.unanswered?.(requestId);
  }
}

// Two linked transports in one process, for tests, benchmarks and embedding a server.
// Messages are delivered asynchronously (a microtask later), as over a real connection; a batch
// (an array) arrives as the array.
import type { JsonRpcMessage } from "./jsonrpc.js";
import type { Transport } from "./transport.js";

const RESOLVED = Promise.resolve();

class InMemoryTransport implements Transport {
  other: InMemoryTransport | undefined;
  private queue: (JsonRpcMessage | JsonRpcMessage[])[] = [];
  /** Delivered, not yet handed to onmessage (see deliver). */
  private inbox: (JsonRpcMessage | JsonRpcMessage[])[] = [];
  private started = false;
  private closed = false;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;

  async start(): Promise<void> {
    this.started = true;
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.deliver(message);
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed || !this.other) throw new Error("the in-memory transport is closed");
    this.other.receive(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const other = this.other;
    this.other = undefined;
    this.onclose?.();
    await other?.close();
  }

  private receive(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.started) this.deliver(message);
    else this.queue.push(message);
  }

  /**
   * Messages wait for one microtask that delivers all that arrived meanwhile, in order: a resolved
   * promise's `then`, not `queueMicrotask`, which makes an async-hooks resource per call in Node.
   */
  private deliver(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.inbox.push(message);
    if (this.inbox.length === 1) void RESOLVED.then(this.drain);
  }

  private readonly drain = () => {
    const messages = this.inbox;
    this.inbox = [];
    for (const message of messages) {
      // onmessage is typed as the SDK's, for single messages; receivers take any JSON, as from stdio.
      if (!this.closed) this.onmessage?.(message as JsonRpcMessage);
    }
  };
}

/** A connected pair: what one side sends, the other receives. */
export function createInMemoryTransportPair(): [Transport, Transport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  a.other = b;
  b.other = a;
  return [a, b];
}

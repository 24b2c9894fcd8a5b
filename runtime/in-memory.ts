// Two linked transports in one process, for tests, benchmarks and embedding a server.
// Messages are delivered asynchronously (a microtask later), as over a real connection.
import type { JsonRpcMessage } from "./jsonrpc.js";
import type { Transport } from "./transport.js";

class InMemoryTransport implements Transport {
  other: InMemoryTransport | undefined;
  private queue: JsonRpcMessage[] = [];
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

  async send(message: JsonRpcMessage): Promise<void> {
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

  private receive(message: JsonRpcMessage): void {
    if (this.started) this.deliver(message);
    else this.queue.push(message);
  }

  private deliver(message: JsonRpcMessage): void {
    queueMicrotask(() => {
      if (!this.closed) this.onmessage?.(message);
    });
  }
}

/** A connected pair: what one side sends, the other receives. */
export function createInMemoryTransportPair(): [Transport, Transport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  a.other = b;
  b.other = a;
  return [a, b];
}

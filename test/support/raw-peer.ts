// A raw JSON-RPC peer for tests: one end of an in-memory pair that sends whatever the test
// writes (messages no generated client or server would send) and records what comes back. The
// other end goes to the generated client or server under test.
import {
  createInMemoryTransportPair,
  type JsonObject,
  type JsonRpcMessage,
  type Transport,
} from "../../runtime/index.js";

type Message = JsonObject;

export class RawPeer {
  /** Everything received, in order. */
  readonly received: Message[] = [];
  private waiters: (() => void)[] = [];
  private nextId = 1;

  private constructor(private readonly transport: Transport) {
    transport.onmessage = (message) => {
      this.received.push(JSON.parse(JSON.stringify(message)) as Message);
      for (const wake of this.waiters.splice(0)) wake();
    };
  }

  /** A raw peer and the transport for the other side. */
  static async open(): Promise<{ raw: RawPeer; transport: Transport }> {
    const [own, other] = createInMemoryTransportPair();
    const raw = new RawPeer(own);
    await own.start();
    return { raw, transport: other };
  }

  send(message: Message): Promise<void> {
    return this.transport.send(message as unknown as JsonRpcMessage);
  }

  /** Sends a request and resolves with the response to it (result or error). */
  async request(method: string, params?: Message): Promise<Message> {
    const id = `raw-${this.nextId++}`;
    await this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.next((m) => m["id"] === id && m["method"] === undefined);
  }

  notify(method: string, params?: Message): Promise<void> {
    return this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Answers a request the other side sent. */
  answer(request: Message, result: Message): Promise<void> {
    return this.send({ jsonrpc: "2.0", id: request["id"], result });
  }

  /** The first message received (now or later) that matches; it is taken out of `received`. */
  async next(matches: (message: Message) => boolean, what = "a matching message"): Promise<Message> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const index = this.received.findIndex(matches);
      if (index >= 0) return this.received.splice(index, 1)[0] as Message;
      if (Date.now() > deadline) throw new Error(`the raw peer never received ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The next request of `method` the other side sent. */
  nextRequest(method: string): Promise<Message> {
    return this.next((m) => m["method"] === method && m["id"] !== undefined, `a ${method} request`);
  }

  /**
   * Whether the other side sent nothing matching: a ping round trip first, so that whatever it
   * sent before answering the ping has arrived.
   */
  async sentNothing(matches: (message: Message) => boolean): Promise<boolean> {
    await this.request("ping").catch(() => undefined);
    return !this.received.some(matches);
  }
}

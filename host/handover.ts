// One connection to a server, handed from client to client while the host finds the revision
// to speak. Negotiation runs the generated clients themselves, newest revision first, each on a
// *trial* view: a trial that fails only detaches (the connection and the server process stay),
// and the requests it sent travel with ids of their own so no id is used twice on the wire. The
// winner becomes the *owner*. When a handshake server answers with an older revision than the one
// offered, the client of that revision is given the answer the server already sent: its own
// handshake request is answered from it locally, so the server sees one handshake, as from any
// client, and the answer is still checked by that revision's validators.
import {
  ConnectionClosedError,
  type HttpBinding,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "../runtime/index.js";

/** Ids that only trials use on the wire. */
const TRIAL_ID_PREFIX = "mcp-gen-host-trial-";

/** The first request a view sent and what the server answered it with. */
export interface Exchange {
  readonly method: string;
  readonly result: JsonObject;
}

export class Handover {
  private current: View | undefined;
  private readonly backlog: JsonRpcMessage[] = [];
  private trials = 0;
  private closedFlag = false;

  /** `onClose` runs once, when the connection ends for any reason, before the owner hears of it. */
  constructor(
    private readonly inner: Transport,
    private readonly onClose: () => void,
  ) {
    inner.onmessage = (message) => this.receive(message);
    inner.onerror = (error) => this.current?.onerror?.(error);
    inner.onclose = () => this.ended();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  /** A view for one negotiation attempt: closing it only detaches it. */
  trial(): View {
    this.trials += 1;
    return this.attach(new View(this, `${TRIAL_ID_PREFIX}${this.trials}:`, undefined));
  }

  /** The view a client keeps; `replay` answers its first request when that has the same method. */
  owner(replay?: Exchange): View {
    return this.attach(new View(this, undefined, replay));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** @internal */
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** @internal A trial that failed lets go; whatever arrives next waits for the next view. */
  detach(view: View): void {
    if (this.current === view) this.current = undefined;
  }

  /** @internal Messages that arrived while no view was started. */
  drain(view: View): void {
    if (this.current !== view) return;
    for (const message of this.backlog.splice(0)) view.deliver(message);
  }

  /** @internal */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** @internal Each trial's client hands over its revision's binding before it starts. */
  setHttpBinding(binding: HttpBinding): void {
    this.inner.setHttpBinding?.(binding);
  }

  /** @internal A request cancelled by closing its channel (by its id on the wire). */
  cancel(requestId: RequestId): boolean {
    return this.inner.cancel?.(requestId) ?? false;
  }

  private attach(view: View): View {
    if (this.closedFlag) throw new ConnectionClosedError("the server's connection is closed");
    this.current = view;
    return view;
  }

  private receive(message: JsonRpcMessage): void {
    const view = this.current;
    const id = "id" in message ? message.id : undefined;
    // A late answer to a trial that has already given up is nobody's.
    if (typeof id === "string" && id.startsWith(TRIAL_ID_PREFIX) && !view?.claims(id)) return;
    if (view?.started) view.deliver(message);
    else this.backlog.push(message);
  }

  private ended(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.onClose();
    this.current?.onclose?.();
  }
}

export class View implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  started = false;
  /** The first request this view sent and its answer, once answered. */
  exchange: Exchange | undefined;
  private firstRequest: { id: RequestId; method: string } | undefined;
  /** A trial's requests in flight: wire id → the id its client used. */
  private readonly renamed = new Map<string, RequestId>();

  constructor(
    private readonly handover: Handover,
    private trialPrefix: string | undefined,
    private replay: Exchange | undefined,
  ) {}

  /** A trial that succeeded keeps the connection: from now on its close() closes it. */
  adopt(): void {
    this.trialPrefix = undefined;
  }

  async start(): Promise<void> {
    this.started = true;
    this.handover.drain(this);
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (!("method" in message)) return this.handover.send(message, options);
    const id = "id" in message ? message.id : undefined;
    if (id === undefined) return this.handover.send(this.renameCancellation(message as JsonRpcNotification), options);
    this.firstRequest ??= { id, method: message.method };
    const replay = this.replay;
    if (replay && message.method === replay.method) {
      this.replay = undefined;
      queueMicrotask(() => this.deliver({ jsonrpc: "2.0", id, result: replay.result }));
      return;
    }
    if (this.trialPrefix === undefined) return this.handover.send(message, options);
    const wireId = `${this.trialPrefix}${id}`;
    this.renamed.set(wireId, id);
    return this.handover.send({ ...message, id: wireId }, options);
  }

  async close(): Promise<void> {
    if (this.trialPrefix === undefined) return this.handover.close();
    this.handover.detach(this);
    this.onclose?.();
  }

  setProtocolVersion(version: string): void {
    this.handover.setProtocolVersion(version);
  }

  setHttpBinding(binding: HttpBinding): void {
    this.handover.setHttpBinding(binding);
  }

  /** Cancels a request by its wire id: a trial's requests travel under ids of their own. */
  cancel(requestId: RequestId): boolean {
    if (this.trialPrefix === undefined) return this.handover.cancel(requestId);
    for (const [wireId, id] of this.renamed) if (id === requestId) return this.handover.cancel(wireId);
    return false;
  }

  /** @internal Whether a response with this id answers one of this view's renamed requests. */
  claims(id: unknown): boolean {
    return typeof id === "string" && this.renamed.has(id);
  }

  /** @internal */
  deliver(message: JsonRpcMessage): void {
    let incoming = message;
    if (!("method" in message) && "id" in message && this.claims(message.id)) {
      const wireId = message.id as string;
      incoming = { ...message, id: this.renamed.get(wireId) as RequestId };
      this.renamed.delete(wireId);
    }
    const first = this.firstRequest;
    if (first && !this.exchange && "result" in incoming && incoming.id === first.id) {
      this.exchange = { method: first.method, result: incoming.result };
    }
    this.onmessage?.(incoming);
  }

  /** A trial that gives up on a request (a timeout) names it in a notification by its wire id. */
  private renameCancellation(message: JsonRpcNotification): JsonRpcNotification {
    const target = message.params?.["requestId"];
    for (const [wireId, id] of this.renamed) {
      if (id === target) return { ...message, params: { ...message.params, requestId: wireId } };
    }
    return message;
  }
}

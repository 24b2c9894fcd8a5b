// One server for clients of every revision: handlers written once against the newest session
// revision (`writtenFor`); each connection negotiates its revision in the handshake (the client's
// when this server serves it, else `writtenFor`, per the lifecycle pages) and everything the
// server sends on it is converted down to that revision (project.ts): fields its types lack
// dropped, content it lacks rebuilt by the reviewed conversions, methods it lacks never sent
// (requests the client's revision lacks are answered -32601; requests to the client that its
// revision cannot express fail locally, for the handler, with -32601 or -32602). Works between the
// server and any Transport: stdio, in-memory, a Streamable HTTP session. A stateless revision
// (2026-07-28) is served by a server of its own built on the same registrations (`stateless`):
// the handlers' requests to the client become multi round-trip input (input-replay.ts), and what
// it sends is projected onto that revision too.
import { claimedVersion } from "../http/headers.js";
import { ErrorCode, isObject, type JsonRpcMessage, type RequestId } from "../jsonrpc.js";
import { REGISTRY, type Registry, type SharedRegistrations } from "../server/registry.js";
import type { HttpBinding, Transport, TransportSendOptions } from "../transport.js";
import { routeByFirstMessage } from "./first-message.js";
import { replayInput } from "./input-replay.js";
import { project } from "./project.js";
import type { RevisionProjection } from "./shapes.js";
import { toClient } from "./to-client.js";

/** What the conversion of one message did, for logs and tests. */
export interface Downgrade {
  readonly revision: string;
  readonly method: string;
  readonly dropped: readonly string[];
  readonly converted: readonly string[];
}

export interface MultiRevisionServerOptions {
  /**
   * The server, written against `writtenFor`: a generated registry (`createMcpServer`), or
   * `{ connect: (t) => createServer(options).connect(t) }` for low-level handlers.
   */
  server: { connect(transport: Transport): Promise<void> };
  /** The projection table of the revision the handlers are written against (its `PROJECTION`). */
  writtenFor: RevisionProjection;
  /** Older revisions served too, each converted down to (their `PROJECTION`s). */
  alsoServes: readonly RevisionProjection[];
  /** Called for every message that lost or converted something on its way to another revision's client. */
  onDowngrade?: (downgrade: Downgrade) => void;
  /**
   * A stateless revision served from the same registrations (`server` must be a registry): its
   * `PROJECTION`, and its `createMcpServer` given them, e.g.
   * `(registrations) => createMcpServer({ serverInfo, registrations })` of 2026-07-28.
   */
  stateless?: {
    readonly revision: RevisionProjection;
    create(registrations: SharedRegistrations): StatelessMcpServer;
  };
}

/** What the stateless revision's `createMcpServer` returns, as far as this needs it. */
export interface StatelessMcpServer {
  readonly http: HttpBinding;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface MultiRevisionServer {
  /**
   * Serves one connection: at the revision its handshake negotiates, or, when its first message
   * claims a version in `_meta`, by the stateless server (stdio, in memory; over HTTP the endpoint
   * routes each request, so pass `stateless` as its `server` and this as `onSession`).
   */
  connect(transport: Transport): Promise<void>;
  /** The stateless revision's server, answering on the same registrations (when `stateless` was given). */
  readonly stateless: StatelessMcpServer | undefined;
  /** The revisions served, newest session revision (`writtenFor`) first, the stateless one last. */
  readonly versions: readonly string[];
}

export function createMultiRevisionServer(options: MultiRevisionServerOptions): MultiRevisionServer {
  const { writtenFor } = options;
  if (!writtenFor.handshake)
    throw new TypeError(`${writtenFor.revision} has no handshake: write handlers against a session revision`);
  for (const r of options.alsoServes)
    if (!r.handshake) throw new TypeError(`${r.revision} has no handshake; serve it with a server of its own`);
  const revisions = [writtenFor, ...options.alsoServes.filter((r) => r.revision !== writtenFor.revision)];
  const sessions = (transport: Transport) =>
    options.server.connect(new DowngradingTransport(transport, writtenFor, revisions, options.onDowngrade));
  const stateless =
    options.stateless && statelessServer(options.server, writtenFor, options.stateless, options.onDowngrade);
  const binding = stateless?.http;
  return {
    versions: [...revisions, ...(options.stateless ? [options.stateless.revision] : [])].map((r) => r.revision),
    stateless,
    connect: (transport) => {
      if (!stateless || binding?.kind !== "stateless") return sessions(transport);
      return routeByFirstMessage(transport, (first) =>
        !Array.isArray(first) && claimedVersion(first, binding) !== undefined ? (t) => stateless.connect(t) : sessions,
      );
    },
  };
}

/** The stateless revision's server on `server`'s registrations, what it sends projected onto that revision. */
function statelessServer(
  server: MultiRevisionServerOptions["server"],
  writtenFor: RevisionProjection,
  stateless: NonNullable<MultiRevisionServerOptions["stateless"]>,
  onDowngrade: ((downgrade: Downgrade) => void) | undefined,
): StatelessMcpServer {
  const { revision } = stateless;
  if (revision.handshake) throw new TypeError(`${revision.revision} has a handshake: serve it in alsoServes`);
  const registry = (server as { [REGISTRY]?: Registry })[REGISTRY];
  if (!registry)
    throw new TypeError("`stateless` shares the registrations of a registry: pass a createMcpServer() as `server`");
  const built = stateless.create({ registry, invoke: replayInput(writtenFor, revision) });
  return {
    http: built.http,
    connect: (transport) =>
      built.connect(new DowngradingTransport(transport, writtenFor, { only: revision }, onDowngrade)),
    close: () => built.close(),
  };
}

const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;
type Json = { [key: string]: unknown };

/** The server's side of one connection: negotiates in the handshake, converts what goes out. */
class DowngradingTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly real: Transport;
  private readonly writtenFor: RevisionProjection;
  /** The revisions the handshake may choose, newest first; none on a connection of one revision. */
  private readonly revisions: readonly RevisionProjection[];
  private readonly onDowngrade: ((downgrade: Downgrade) => void) | undefined;
  /** The client's revision; until the handshake says otherwise, the first that may be chosen. */
  private target: RevisionProjection;
  /** The client's requests awaiting an answer: id → method. */
  private readonly pending = new Map<string, string>();

  constructor(
    real: Transport,
    writtenFor: RevisionProjection,
    revisions: readonly RevisionProjection[] | { readonly only: RevisionProjection },
    onDowngrade?: (downgrade: Downgrade) => void,
  ) {
    this.real = real;
    this.writtenFor = writtenFor;
    this.revisions = "only" in revisions ? [] : revisions;
    this.target = "only" in revisions ? revisions.only : writtenFor;
    this.onDowngrade = onDowngrade;
  }

  get sessionId(): string | undefined {
    return this.real.sessionId;
  }

  async start(): Promise<void> {
    this.real.onmessage = (message, extra) => this.receive(message, extra);
    this.real.onclose = () => this.onclose?.();
    this.real.onerror = (error) => this.onerror?.(error);
    await this.real.start();
  }

  close(): Promise<void> {
    return this.real.close();
  }

  setProtocolVersion(version: string): void {
    this.real.setProtocolVersion?.(version);
  }

  /** Until the handshake names the revision, streams are neither primed nor batched (no revision has to). */
  setHttpBinding(binding: HttpBinding): void {
    this.real.setHttpBinding?.(
      binding.kind === "sessions" ? { ...binding, primedStreams: false, batches: false } : binding,
    );
  }

  cancel(requestId: RequestId): boolean {
    return this.real.cancel?.(requestId) ?? false;
  }

  unanswered(requestId: RequestId): void {
    this.real.unanswered?.(requestId);
  }

  // ---- from the client ----

  private receive(message: JsonRpcMessage | JsonRpcMessage[], extra?: object): void {
    if (!Array.isArray(message) && isObject(message) && typeof message["method"] === "string") {
      const method = message["method"];
      const id = message["id"] as RequestId | undefined;
      if (id !== undefined) {
        if (this.revisions.length > 0 && method === this.writtenFor.handshake?.request)
          this.negotiate(message["params"]);
        if (!this.hasRequest(method)) {
          const error = {
            code: ErrorCode.MethodNotFound,
            message: `${method} is not a method of protocol revision ${this.target.revision}`,
          };
          void this.real
            .send({ jsonrpc: "2.0", id, error } as JsonRpcMessage)
            .catch((e: unknown) => this.onerror?.(e as Error));
          return;
        }
        this.pending.set(keyOf(id), method);
      } else if (this.target !== this.writtenFor && !this.target.clientNotifications.includes(method)) return;
    }
    this.onmessage?.(message as JsonRpcMessage, extra);
  }

  /** The client's version when this server serves it, else the newest. */
  private negotiate(params: unknown): void {
    const field = this.writtenFor.handshake?.version ?? "";
    const asked = isObject(params) ? params[field] : undefined;
    this.target = this.revisions.find((r) => r.revision === asked) ?? this.writtenFor;
    this.real.setHttpBinding?.(this.target.http);
  }

  private hasRequest(method: string): boolean {
    return this.target === this.writtenFor || Object.hasOwn(this.target.results, method);
  }

  // ---- to the client ----

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void> {
    if (Array.isArray(message)) {
      const out = message.map((m) => this.convert(m)).filter((m): m is JsonRpcMessage => m !== undefined);
      if (out.length > 0) await this.real.send(out, options);
      return;
    }
    const out = this.convert(message);
    if (out !== undefined) await this.real.send(out, options);
  }

  /** The message as the client's revision has it; undefined when it is not to be sent. */
  private convert(message: JsonRpcMessage): JsonRpcMessage | undefined {
    const m = message as unknown as Json;
    const target = this.target;
    if (typeof m["method"] !== "string") {
      const id = m["id"] as RequestId | undefined;
      const method = id === undefined ? undefined : this.pending.get(keyOf(id));
      if (id !== undefined) this.pending.delete(keyOf(id));
      if (method === undefined || !("result" in m)) return message;
      const handshake = method === target.handshake?.request;
      if (target === this.writtenFor && !handshake) return message;
      const result = this.project(m["result"], target.results[method] ?? 0, method) as Json;
      if (handshake && isObject(result)) result[target.handshake?.resultVersion ?? ""] = target.revision;
      return { ...m, result } as unknown as JsonRpcMessage;
    }
    if (target === this.writtenFor) return message;
    const method = m["method"];
    if ("id" in m) return this.request(m, method);
    if (!Object.hasOwn(target.notifications, method)) return undefined;
    if (m["params"] === undefined) return message;
    return {
      ...m,
      params: this.project(m["params"], target.notifications[method] ?? 0, method),
    } as unknown as JsonRpcMessage;
  }

  /** A request to the client: sent as its revision has it, or failed here when it cannot say it. */
  private request(m: Json, method: string): JsonRpcMessage | undefined {
    const target = this.target;
    const id = m["id"] as RequestId;
    const shape = Object.hasOwn(target.requests, method) ? (target.requests[method] ?? 0) : undefined;
    const sent = toClient(method, m["params"], shape, target, this.writtenFor);
    if ("error" in sent) {
      const { error } = sent;
      // The answer a client at that revision could not give, given here (after send returns).
      queueMicrotask(() => this.onmessage?.({ jsonrpc: "2.0", id, error } as JsonRpcMessage));
      return undefined;
    }
    return { ...m, ...(sent.params === undefined ? {} : { params: sent.params }) } as unknown as JsonRpcMessage;
  }

  private project(value: unknown, shape: RevisionProjection["results"][string], method: string): unknown {
    const projected = project(value, shape, this.target, this.writtenFor);
    if (projected.dropped.length > 0 || projected.converted.length > 0)
      this.onDowngrade?.({
        revision: this.target.revision,
        method,
        dropped: projected.dropped,
        converted: projected.converted,
      });
    return projected.value;
  }
}

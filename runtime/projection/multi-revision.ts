// One server for clients of every revision: handlers written once against the newest session
// revision (`writtenFor`, a generated registry) and served to each client by its own revision's
// generated server, built on the same registrations. A connection's first message picks that
// server: the handshake's version when it is served (else `writtenFor`, per the lifecycle pages),
// or the stateless revision when the message claims a version in `_meta`. So each client's traffic
// follows its revision: its params checked by its validators, its errors, its batches. What the
// handlers return (the written-for revision's values) is converted down on the way out
// (project.ts): fields the revision's types lack dropped, content it lacks rebuilt by the reviewed
// conversions, notifications it lacks never sent. The handlers' requests to the client go through
// the serving revision's helpers (session-requests.ts), or, for a revision without requests to the
// client (2026-07-28), become multi round-trip input (input-replay.ts).
import { claimedVersion } from "../http/headers.js";
import { isObject, type JsonRpcMessage, type RequestId } from "../jsonrpc.js";
import { REGISTRY, type Invoke, type Registry, type SharedRegistrations } from "../server/registry.js";
import type { HttpBinding, Transport, TransportSendOptions } from "../transport.js";
import { routeByFirstMessage } from "./first-message.js";
import { replayInput } from "./input-replay.js";
import { project } from "./project.js";
import { requestsAs } from "./session-requests.js";
import type { RevisionProjection } from "./shapes.js";

/** What the conversion of one message did, for logs and tests. */
export interface Downgrade {
  readonly revision: string;
  readonly method: string;
  readonly dropped: readonly string[];
  readonly converted: readonly string[];
}

/** A revision served from the written-for registrations: its `PROJECTION`, and its server on them. */
export interface ServedRevision<S> {
  readonly revision: RevisionProjection;
  /** That revision's `createMcpServer` given them: `(registrations) => createMcpServer({ serverInfo, registrations })`. */
  create(registrations: SharedRegistrations): S;
}

/** What a session revision's `createMcpServer` returns, as far as this needs it. */
export interface SessionMcpServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** What the stateless revision's `createMcpServer` returns, as far as this needs it. */
export interface StatelessMcpServer extends SessionMcpServer {
  readonly http: HttpBinding;
}

export interface MultiRevisionServerOptions {
  /** The server the handlers are registered on: a generated registry (`createMcpServer`) of `writtenFor`. */
  server: { connect(transport: Transport): Promise<void> };
  /** The projection table of the revision the handlers are written against (its `PROJECTION`). */
  writtenFor: RevisionProjection;
  /** Older session revisions, each served by its own server on the same registrations. */
  alsoServes: readonly ServedRevision<SessionMcpServer>[];
  /** Called for every message that lost or converted something on its way to another revision's client. */
  onDowngrade?: (downgrade: Downgrade) => void;
  /** A stateless revision (2026-07-28) served from the same registrations. */
  stateless?: ServedRevision<StatelessMcpServer>;
}

export interface MultiRevisionServer {
  /**
   * Serves one connection at the revision its first message asks for (stdio, in memory; over
   * HTTP the endpoint routes each stateless request, so pass `stateless` as its `server` and this
   * as `onSession`).
   */
  connect(transport: Transport): Promise<void>;
  /** The stateless revision's server, answering on the same registrations (when `stateless` was given). */
  readonly stateless: StatelessMcpServer | undefined;
  /** The revisions served, newest session revision (`writtenFor`) first, the stateless one last. */
  readonly versions: readonly string[];
  /** Closes the servers built for the other revisions (`server` itself is the caller's to close). */
  close(): Promise<void>;
}

export function createMultiRevisionServer(options: MultiRevisionServerOptions): MultiRevisionServer {
  const { writtenFor, onDowngrade } = options;
  const handshake = writtenFor.handshake;
  if (!handshake)
    throw new TypeError(`${writtenFor.revision} has no handshake: write handlers against a session revision`);
  for (const { revision } of options.alsoServes)
    if (!revision.handshake) throw new TypeError(`${revision.revision} has no handshake: serve it as \`stateless\``);
  if (options.stateless?.revision.handshake)
    throw new TypeError(`${options.stateless.revision.revision} has a handshake: serve it in alsoServes`);
  const registry = (options.server as { [REGISTRY]?: Registry })[REGISTRY];
  if (!registry)
    throw new TypeError("other revisions share the registrations of a registry: pass a createMcpServer() as `server`");

  /** `served`'s server on the registrations, what it sends converted down to its revision. */
  const build = <S extends SessionMcpServer>(served: ServedRevision<S>, invoke: Invoke) => {
    const built = served.create({ registry, invoke });
    const connect = (transport: Transport) =>
      built.connect(new DowngradingTransport(transport, writtenFor, served.revision, onDowngrade));
    return { built, connect };
  };

  const sessions = new Map(
    options.alsoServes
      .filter((served) => served.revision.revision !== writtenFor.revision)
      .map((served) => {
        const { revision } = served;
        const report = (method: string, dropped: readonly string[], converted: readonly string[]) =>
          onDowngrade?.({ revision: revision.revision, method, dropped, converted });
        return [revision.revision, build(served, requestsAs(writtenFor, revision, report))] as const;
      }),
  );
  const statelessOne =
    options.stateless && build(options.stateless, replayInput(writtenFor, options.stateless.revision));
  const stateless = statelessOne && {
    http: statelessOne.built.http,
    connect: statelessOne.connect,
    close: () => statelessOne.built.close(),
  };
  const direct = (transport: Transport) => options.server.connect(transport);

  /** The server a connection's first message asks for. */
  const route = (first: JsonRpcMessage | JsonRpcMessage[]): ((transport: Transport) => Promise<void>) => {
    if (Array.isArray(first)) return direct;
    if (stateless?.http.kind === "stateless" && claimedVersion(first, stateless.http) !== undefined)
      return stateless.connect;
    const m = first as unknown as { [key: string]: unknown };
    const params = m["params"];
    const asked = m["method"] === handshake.request && isObject(params) ? params[handshake.version] : undefined;
    return (typeof asked === "string" && sessions.get(asked)?.connect) || direct;
  };

  return {
    versions: [
      writtenFor.revision,
      ...sessions.keys(),
      ...(options.stateless ? [options.stateless.revision.revision] : []),
    ],
    stateless,
    connect: (transport) => routeByFirstMessage(transport, route),
    close: async () => {
      await Promise.all([...sessions.values(), ...(statelessOne ? [statelessOne] : [])].map((s) => s.built.close()));
    },
  };
}

const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;
type Json = { [key: string]: unknown };

/** The server's side of one connection at an older revision: what goes out converted down to it. */
class DowngradingTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly real: Transport;
  private readonly writtenFor: RevisionProjection;
  /** The client's revision. */
  private readonly target: RevisionProjection;
  private readonly onDowngrade: ((downgrade: Downgrade) => void) | undefined;
  /** The client's requests awaiting an answer: id → method. */
  private readonly pending = new Map<string, string>();

  constructor(
    real: Transport,
    writtenFor: RevisionProjection,
    target: RevisionProjection,
    onDowngrade?: (downgrade: Downgrade) => void,
  ) {
    this.real = real;
    this.writtenFor = writtenFor;
    this.target = target;
    this.onDowngrade = onDowngrade;
  }

  get sessionId(): string | undefined {
    return this.real.sessionId;
  }

  async start(): Promise<void> {
    this.real.onmessage = (message, extra) => {
      for (const m of Array.isArray(message) ? message : [message]) {
        const { id, method } = m as { id?: RequestId; method?: unknown };
        if (id !== undefined && typeof method === "string") this.pending.set(keyOf(id), method);
      }
      this.onmessage?.(message as JsonRpcMessage, extra);
    };
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

  setHttpBinding(binding: HttpBinding): void {
    this.real.setHttpBinding?.(binding);
  }

  cancel(requestId: RequestId): boolean {
    return this.real.cancel?.(requestId) ?? false;
  }

  unanswered(requestId: RequestId): void {
    this.real.unanswered?.(requestId);
  }

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
    const { target } = this;
    const method = m["method"];
    if (typeof method !== "string") {
      const id = m["id"] as RequestId | undefined;
      const answered = id === undefined ? undefined : this.pending.get(keyOf(id));
      if (id !== undefined) this.pending.delete(keyOf(id));
      if (answered === undefined || !("result" in m)) return message;
      const result = this.project(m["result"], "results", answered);
      return { ...m, result } as unknown as JsonRpcMessage;
    }
    // Requests to the client are already the client's revision's (session-requests.ts).
    if ("id" in m) return message;
    if (!Object.hasOwn(target.notifications, method)) return undefined;
    if (m["params"] === undefined) return message;
    const params = this.project(m["params"], "notifications", method);
    return { ...m, params } as unknown as JsonRpcMessage;
  }

  /** `value`, a result or a notification's params of `method`, as the client's revision has it. */
  private project(value: unknown, table: "results" | "notifications", method: string): unknown {
    const shape = this.target[table][method] ?? 0;
    const projected = project(value, shape, this.target, this.writtenFor, this.writtenFor[table][method] ?? 0);
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

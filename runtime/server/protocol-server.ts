// The body of every generated `createServer`: a dispatcher over the Peer that validates every
// message, answers the revision's own session request (handshake or discovery), derives the
// capabilities from the handlers present, gives handlers their context with calls back to the
// client, and keeps the protocol's rules on what goes either way. Written once, over the
// revision's facts (runtime/session-facts.ts); each revision's server.ts types it.
import { declareCapabilities, gatingCapability } from "../capabilities.js";
import { ErrorCode, RpcError, type RequestId } from "../jsonrpc.js";
import {
  inspection,
  Peer,
  type IncomingContext,
  type IncomingNotificationContext,
  type JsonObject,
  type RequestOptions,
} from "../peer.js";
import type { RequestStateSeal } from "../request-state.js";
import { asksForInput, RuleBook, RuleViolation, type Negotiated } from "../rules/index.js";
import {
  bindState,
  handlerCapabilities,
  infoOf,
  peerFacts,
  type MessageCheck,
  type MethodTable,
  type SessionFacts,
} from "../session-facts.js";
import type { Transport } from "../transport.js";

type Handler = (params: unknown, context: unknown) => unknown;

/** What every revision's ServerOptions has; the revision's server.ts gives the types. */
export interface ServerCoreOptions<Handlers, Implementation, Capabilities> {
  serverInfo: Implementation;
  handlers: Handlers;
  /** Merged over the capabilities the handlers declare (e.g. to add `listChanged`). */
  capabilities?: Capabilities;
  instructions?: string;
  /**
   * Check every message from the client, and every answer of this server's before it is sent,
   * with the generated validators (default true). An answer that fails is not sent: the client
   * gets -32603 naming the request and the failing paths, and `onError` hears of it.
   */
  validate?: boolean;
  /**
   * Check this server's answers before they are sent (default: as `validate`). Off for a server
   * whose answers are another revision's values converted on their way out (a registry on shared
   * registrations, runtime/projection): the conversion decides what this revision can carry.
   */
  validateAnswers?: boolean;
  /**
   * Protocol rules (docs/protocol-rules.md ids) this server neither keeps nor checks the client
   * for: for a client known to break them. Default: every rule applies.
   */
  relaxRules?: readonly string[];
  /** Default timeout of requests this server sends, in ms (default 60 000). */
  timeoutMs?: number;
  /**
   * Problems no caller can be told about (failed sends, malformed notifications), and this
   * server's own faults: a handler that threw anything but an RpcError (the client gets -32603
   * naming the request, without the error's message) or answered with an invalid result.
   */
  onError?: (error: Error) => void;
  /**
   * Revisions with multi round-trip results: seals the `requestState` of every such result and
   * opens it on the retry, so handlers see the state they gave; an altered, forged or expired
   * state is refused with -32602 before any handler runs (see createRequestStateSeal).
   */
  requestState?: RequestStateSeal;
}

/** What every revision's Server has; `Notifications` is its ServerNotificationMap. */
export interface ServerCore<
  Capabilities,
  ClientState,
  Notifications extends { [M in keyof Notifications]: { params?: unknown } },
> {
  /**
   * Serves a connection over the transport: one per server in revisions with a handshake, any
   * number at once in stateless ones (over HTTP, one per request).
   */
  connect(transport: Transport): Promise<void>;
  /** Ends every subscription with its closing answer (revisions that have them), then every connection. */
  close(): Promise<void>;
  readonly capabilities: Capabilities;
  /** What the client told this server about itself in the handshake (empty in stateless revisions). */
  readonly client: ClientState;
  /**
   * Sends a notification to the client; in revisions with subscriptions, on every open
   * subscription whose filter asked for it, tagged with its id (one none asked for goes nowhere).
   */
  notify<M extends keyof Notifications>(method: M, params?: Notifications[M]["params"]): Promise<void>;
}

type State = { [key: string]: unknown };

/** One open subscription: the connection and request it lives on, and what it agreed to carry. */
interface Subscription {
  readonly peer: Peer;
  readonly id: RequestId;
  readonly flags: ReadonlySet<string>;
  readonly lists: ReadonlyMap<string, { readonly match: string; readonly values: ReadonlySet<unknown> }>;
  /** Ends the subscription with its closing answer. */
  end(): void;
}

/** What a request's context needs of its server. */
interface ContextServer {
  readonly facts: SessionFacts;
  readonly rules: RuleBook;
  readonly capabilities: unknown;
}

/**
 * A handler's context: one object per request, whose calls back to the client are made on first
 * use (getters, so that a handler may destructure them).
 */
class Context {
  readonly client: State;
  private readonly server: ContextServer;
  private readonly peer: Peer;
  private readonly incoming: IncomingContext;
  private negotiatedFor: Negotiated | undefined;

  constructor(server: ContextServer, peer: Peer, incoming: IncomingContext, client: State) {
    this.server = server;
    this.peer = peer;
    this.incoming = incoming;
    this.client = client;
  }

  get requestId() {
    return this.incoming.requestId;
  }

  // The signal (an AbortController) is made only for handlers that look at it.
  get signal() {
    return this.incoming.signal;
  }

  get meta() {
    return this.incoming.meta;
  }

  get authInfo() {
    return this.incoming.authInfo;
  }

  get progress(): IncomingContext["progress"] {
    return this.incoming.progress;
  }

  /** Both sides' capabilities as this request sees them (the client's may come with the request). */
  private get negotiated(): Negotiated {
    return (this.negotiatedFor ??= { client: this.client["clientCapabilities"], server: this.server.capabilities });
  }

  /** The call back to the client for `method` (a request of ServerRequestMap). */
  protected call(method: string): (params: unknown, options?: RequestOptions) => Promise<unknown> {
    const { peer, incoming, negotiated, server } = this;
    return async (params, requestOptions) => {
      const sent = params as JsonObject | undefined;
      const { rules, facts } = server;
      const refused = rules.sending(
        "serverToClient",
        method,
        gatingCapability(facts.serverRequests, method),
        sent,
        negotiated,
      );
      if (refused) throw refused;
      const result = await peer.request(method, sent, { relatedRequestId: incoming.requestId, ...requestOptions });
      const broken = rules.answer(method, sent, result);
      if (broken) throw broken;
      return result;
    };
  }

  get notify(): (method: string, params?: unknown) => Promise<void> {
    const { peer, incoming, negotiated, client, server } = this;
    return async (method, params) => {
      const logging = server.facts.requestLogging;
      if (logging && method === logging.notification && !logWanted(logging, params as JsonObject | undefined, client))
        return;
      const { rules, facts } = server;
      const refused = rules.sending(
        "serverToClient",
        method,
        gatingCapability(facts.serverNotifications, method),
        params,
        negotiated,
      );
      if (refused) throw refused;
      await peer.notify(method, params as JsonObject | undefined, { relatedRequestId: incoming.requestId });
    };
  }
}

/** The context class of a revision: `Context` with a getter per call back to the client. */
const CONTEXTS = new WeakMap<MethodTable, typeof Context>();

function contextClass(requests: MethodTable): typeof Context {
  let made = CONTEXTS.get(requests);
  if (made) return made;
  const withCalls = class extends Context {};
  for (const [method, info] of Object.entries(requests)) {
    if (info.delivery !== "message") continue;
    Object.defineProperty(withCalls.prototype, info.member, {
      get(this: Context) {
        return this["call"](method);
      },
    });
  }
  CONTEXTS.set(requests, (made = withCalls));
  return made;
}

/** Whether a log notification for a request goes out: only at or above the level the request asked for. */
function logWanted(
  logging: NonNullable<SessionFacts["requestLogging"]>,
  params: JsonObject | undefined,
  client: State,
): boolean {
  const wanted = client[logging.state];
  if (wanted === undefined) return false;
  const level = params?.[logging.field];
  return logging.levels.indexOf(String(level)) >= logging.levels.indexOf(String(wanted));
}

/** Fields every result of this revision carries, filled in where a handler left them out. */
function withDefaults(facts: SessionFacts, result: unknown): unknown {
  const defaults = facts.resultDefaults;
  if (!defaults || typeof result !== "object" || result === null) return result;
  const out = { ...(result as JsonObject) };
  for (const [field, value] of Object.entries(defaults)) if (out[field] === undefined) out[field] = value;
  return out;
}

/**
 * A handler's result that asks for input: only on the requests that may, with something to ask
 * or keep, and only for what the client can give. Input needing a capability the client did not
 * declare is the prescribed error naming it, not a question; any other broken rule fails the
 * request (-32603) instead of reaching the client.
 */
function checkInputRequests(
  facts: SessionFacts,
  rules: RuleBook,
  method: string,
  result: unknown,
  negotiated: Negotiated,
): void {
  const missing = facts.missingCapability;
  const inputFacts = facts.rules.inputRequired;
  if (!missing || !inputFacts) return;
  const broken = rules.inputRequired(method, result);
  if (broken) throw broken;
  if (!asksForInput(inputFacts, result)) return;
  const requests = (result as JsonObject)[inputFacts.requests];
  if (typeof requests !== "object" || requests === null) return;
  const required: State = {};
  for (const request of Object.values(requests as JsonObject)) {
    const asked = typeof request === "object" && request !== null ? (request as JsonObject) : {};
    const inputMethod = String(asked["method"]);
    const gate = gatingCapability(facts.serverRequests, inputMethod);
    const refused = rules.sending("serverToClient", inputMethod, gate, asked["params"], negotiated);
    if (!refused) continue;
    if (refused.missing?.side !== "client") throw refused;
    let node = required;
    for (const key of refused.missing.path) node = (node[key] ??= {}) as State;
  }
  if (Object.keys(required).length > 0)
    throw new RpcError(missing.code, `the client has not declared ${Object.keys(required).join(", ")}`, {
      [missing.data]: required,
    });
}

/** Whether `capabilities` declares the capability at `path`. */
function offers(capabilities: unknown, path: readonly string[]): boolean {
  let node = capabilities;
  for (const key of path) node = (node as JsonObject | undefined)?.[key];
  return node !== undefined && node !== false;
}

/** A server for the revision `facts` describe, validating with `check`; typed by the revision's server.ts. */
export function createProtocolServer(
  facts: SessionFacts,
  check: MessageCheck,
  options: ServerCoreOptions<object, unknown, object>,
): ServerCore<unknown, unknown, Record<string, { params?: unknown }>> {
  const handlers = options.handlers as { readonly [member: string]: Handler | undefined };
  const { handshake, discovery, subscriptions } = facts;
  // The server answers the listen request itself: it is no handler's.
  const table = subscriptions ? withoutMethod(facts.clientRequests, subscriptions.request) : facts.clientRequests;
  const capabilities = declareCapabilities(
    options.capabilities ?? {},
    handlers,
    handlerCapabilities(table, "server"),
    "merge",
  );
  /** Client state from the handshake, by the names spec/method-inferences.json gives it. */
  const session: State = {};
  let initialized = false;
  const peers = new Set<Peer>();
  /** The protocol's rules beyond the schema (docs/protocol-rules.md). */
  const rules = new RuleBook(facts.rules, options.relaxRules);
  // Capabilities breaking a rule (a malformed extension id) are never declared.
  const ownCapabilities = rules.capabilities("server", capabilities);
  if (ownCapabilities) throw ownCapabilities;
  /** Both sides' capabilities: this server's, and the client's from the handshake. */
  const negotiated: Negotiated = {
    get client() {
      return session["clientCapabilities"];
    },
    server: capabilities,
  };
  const subscriptionsOpen = new Set<Subscription>();
  const RequestContext = contextClass(facts.serverRequests);
  const contextServer: ContextServer = { facts, rules, capabilities };
  const report = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));
  const inputRequired = facts.inputRequired;
  const seal = inputRequired && options.requestState;

  /** The state a request carries in `_meta`, or the handshake's. */
  function clientOf(incoming: IncomingContext): State {
    if (!facts.requestMeta) return session;
    const meta = incoming.meta ?? {};
    const client: State = {};
    for (const { field, state } of facts.requestMeta) if (meta[field] !== undefined) client[state] = meta[field];
    return client;
  }

  /** The handshake: records what the client said and answers with this server's side. */
  function answerHandshake(
    bindings: NonNullable<SessionFacts["handshake"]>,
    params: JsonObject | undefined,
  ): JsonObject {
    for (const { field, state } of bindings.params) session[state] = params?.[field];
    return bindState(bindings.result, {
      protocolVersion: facts.revision,
      serverCapabilities: capabilities,
      serverInfo: options.serverInfo,
      instructions: options.instructions,
    });
  }

  /** Discovery: what this server supports, with the revision's defaults. */
  function answerDiscovery(bindings: NonNullable<SessionFacts["discovery"]>): JsonObject {
    const state: State = {
      supportedVersions: [facts.revision],
      serverCapabilities: capabilities,
      instructions: options.instructions,
      serverInfo: options.serverInfo,
    };
    const result: JsonObject = { ...bindings.defaults, ...bindState(bindings.result, state) };
    if (facts.resultMeta) result["_meta"] = bindState(facts.resultMeta, state);
    return result;
  }

  /**
   * A subscription: acknowledged with what this server agrees to carry, then open until the
   * client goes away (the request is cancelled: no answer) or the server closes (a closing answer).
   */
  async function listen(
    subscribing: NonNullable<SessionFacts["subscriptions"]>,
    peer: Peer,
    params: JsonObject | undefined,
    incoming: IncomingContext,
  ): Promise<unknown> {
    const filter = (params?.[subscribing.filter] ?? {}) as JsonObject;
    const agreed: JsonObject = {};
    const flags = new Set<string>();
    const lists = new Map<string, { match: string; values: ReadonlySet<unknown> }>();
    for (const flag of subscribing.flags) {
      if (filter[flag.field] !== true || !offers(capabilities, flag.capability)) continue;
      agreed[flag.field] = true;
      flags.add(flag.notification);
    }
    for (const list of subscribing.lists) {
      const values = filter[list.field];
      if (!Array.isArray(values) || !offers(capabilities, list.capability)) continue;
      agreed[list.field] = values;
      lists.set(list.notification, { match: list.match, values: new Set(values) });
    }
    const id = incoming.requestId;
    const tag = { [subscribing.idMeta]: id };
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const subscription: Subscription = { peer, id, flags, lists, end };
    const cancelled = new Promise<never>((_, reject) => {
      const abort = () => reject(incoming.signal.reason);
      if (incoming.signal.aborted) abort();
      else incoming.signal.addEventListener("abort", abort, { once: true });
    });
    subscriptionsOpen.add(subscription);
    try {
      await peer.notify(
        subscribing.acknowledged,
        { _meta: tag, [subscribing.filter]: agreed },
        { relatedRequestId: id },
      );
      await Promise.race([ended, cancelled]);
    } finally {
      subscriptionsOpen.delete(subscription);
    }
    return { _meta: tag };
  }

  /** A change notification, on every subscription that agreed to carry it. */
  async function publish(idMeta: string, method: string, params: JsonObject | undefined): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const subscription of subscriptionsOpen) {
      const list = subscription.lists.get(method);
      if (!subscription.flags.has(method) && !list?.values.has(params?.[list.match])) continue;
      const meta = { ...(params?.["_meta"] as JsonObject | undefined), [idMeta]: subscription.id };
      sends.push(subscription.peer.notify(method, { ...params, _meta: meta }, { relatedRequestId: subscription.id }));
    }
    // One subscriber gone away must not fail the others' delivery.
    const failed = (await Promise.allSettled(sends)).filter((s) => s.status === "rejected");
    for (const f of failed) report(f.reason);
  }

  /** The handler's answer to a request, or the server's own for its session request and empty results. */
  async function dispatch(method: string, params: JsonObject | undefined, context: Context): Promise<unknown> {
    const info = infoOf(table, method);
    if (info?.delivery === "message") {
      // The session request is recorded even when a handler of the user's answers it.
      const own =
        handshake && method === handshake.request
          ? answerHandshake(handshake, params)
          : discovery && method === discovery.request
            ? answerDiscovery(discovery)
            : info.emptyResult && {};
      const handler = handlers[info.member];
      if (handler) return withDefaults(facts, await handler(info.emptyParams ? (params ?? {}) : params, context));
      if (own) return withDefaults(facts, own);
    }
    throw new RpcError(ErrorCode.MethodNotFound, `this server does not handle ${method}`);
  }

  async function handle(
    peer: Peer,
    method: string,
    params: JsonObject | undefined,
    incoming: IncomingContext,
  ): Promise<unknown> {
    if (handshake) {
      if (method === handshake.request) initialized = true;
      else if (!initialized && !handshake.allowedBefore.includes(method)) {
        throw new RpcError(ErrorCode.InvalidRequest, `${method} before ${handshake.request}`);
      }
    }
    const client = clientOf(incoming);
    const unsupported = facts.unsupportedVersion;
    if (unsupported && client["protocolVersion"] !== facts.revision) {
      const state: State = { supportedVersions: [facts.revision], requestedVersion: client["protocolVersion"] };
      const data: JsonObject = {};
      for (const { field, state: name } of unsupported.data) data[field] = state[name];
      throw new RpcError(
        unsupported.code,
        `unsupported protocol version ${JSON.stringify(client["protocolVersion"])}`,
        data,
      );
    }
    const malformed = rules.capabilities("client", client["clientCapabilities"], ErrorCode.InvalidParams);
    if (malformed) throw malformed;
    if (subscriptions && method === subscriptions.request)
      return withDefaults(facts, await listen(subscriptions, peer, params, incoming));
    if (inputRequired && seal) {
      const sealed = params?.[inputRequired.state];
      if (sealed !== undefined) {
        const opened = typeof sealed === "string" ? await seal.open(sealed) : undefined;
        if (opened === undefined)
          throw new RpcError(
            ErrorCode.InvalidParams,
            `${inputRequired.state} failed its integrity check: altered, forged or expired`,
          );
        params = { ...params, [inputRequired.state]: opened };
      }
    }
    const context = new RequestContext(contextServer, peer, incoming, client);
    let result: unknown;
    try {
      result = await dispatch(method, params, context);
    } catch (error) {
      // A required-elicitation error that does not list what it requires is this server's fault.
      const thrown = facts.rules.urlElicitation ? rules.thrown(error) : undefined;
      if (thrown) report(thrown);
      throw thrown ?? error;
    }
    // An answer breaking a rule (a malformed MIME type in a prompt, say) is this server's own fault: not sent.
    const broken = rules.answer(method, params, result);
    if (broken) {
      report(broken);
      throw broken;
    }
    try {
      checkInputRequests(facts, rules, method, result, { client: client["clientCapabilities"], server: capabilities });
    } catch (error) {
      // A result breaking a rule is this server's own fault: said here, not only to the client.
      if (error instanceof RuleViolation) report(error);
      throw error;
    }
    if (inputRequired && seal) {
      const out = result as JsonObject | null;
      const state = out?.[inputRequired.state];
      if (typeof state === "string" && out?.[inputRequired.marker.field] === inputRequired.marker.value)
        return { ...out, [inputRequired.state]: await seal.seal(state) };
    }
    return result;
  }

  async function notice(
    method: string,
    params: JsonObject | undefined,
    incoming: IncomingNotificationContext,
  ): Promise<void> {
    const refused = rules.notification(method, gatingCapability(facts.clientNotifications, method), params, negotiated);
    if (refused) return report(refused);
    const info = infoOf(facts.clientNotifications, method);
    // Cancellation and progress are the Peer's.
    if (!info || method === facts.cancellation?.method || method === facts.progress?.method) return;
    const given = info.emptyParams ? (params ?? {}) : params;
    await handlers[info.member]?.(given, { client: session, authInfo: incoming.authInfo });
  }

  return {
    capabilities,
    get client() {
      return session;
    },
    ...(facts.http ? { http: facts.http } : {}),
    async connect(transport) {
      if (handshake && peers.size > 0)
        throw new Error("this server is already connected; create one server per connection");
      if (facts.http) transport.setHttpBinding?.(facts.http);
      const peer: Peer = new Peer({
        transport,
        ...(options.validate === false
          ? {}
          : {
              inspect: (message, requestOf) => inspection(check(message, { from: "client", requestOf })),
              ...(options.validateAnswers === false
                ? {}
                : { inspectAnswer: (message, requestOf) => inspection(check(message, { from: "server", requestOf })) }),
            }),
        handleRequest: (method, params, incoming) => handle(peer, method, params, incoming),
        handleNotification: notice,
        ...peerFacts(facts, "server"),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
        onClose: () => peers.delete(peer),
      });
      peers.add(peer);
      await peer.start();
    },
    async close() {
      if (subscriptions) {
        const cancellation = facts.cancellation;
        // The cancellation page asks a server ending a subscription to send the notification naming
        // it; the subscriptions page, to answer its request: both go out, in that order.
        if (cancellation)
          await Promise.allSettled(
            [...subscriptionsOpen].map(({ peer, id }) =>
              peer.notify(
                cancellation.method,
                { requestId: id, reason: "the server is closing" },
                { relatedRequestId: id },
              ),
            ),
          );
        for (const subscription of subscriptionsOpen) subscription.end();
        // The closing answers go out before the connections end.
        await Promise.all([...peers].map((peer) => peer.idle()));
      }
      await Promise.all([...peers].map((peer) => peer.close()));
    },
    notify(method, params) {
      if (subscriptions) return publish(subscriptions.idMeta, method, params as JsonObject | undefined);
      const [peer] = peers;
      if (!peer) return Promise.reject(new RpcError(ErrorCode.ConnectionClosed, "the server is not connected"));
      const gate = gatingCapability(facts.serverNotifications, method);
      const refused = rules.sending("serverToClient", method, gate, params, negotiated);
      if (refused) return Promise.reject(refused);
      return peer.notify(method, params as JsonObject | undefined);
    },
  };
}

/** `table` without `method`. */
function withoutMethod(table: MethodTable, method: string): MethodTable {
  return Object.fromEntries(Object.entries(table).filter(([name]) => name !== method));
}

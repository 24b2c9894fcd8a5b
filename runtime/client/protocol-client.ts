// The body of every generated `createClient`: a client over the Peer that starts the revision's
// session (handshake or discovery), carries the state every request needs in `_meta`, answers
// the server's requests with the handlers given (whose presence declares capabilities), follows
// pages, answers multi round-trip input and retries, caches what results allow, keeps
// subscriptions, and keeps the protocol's rules either way. Written once, over the revision's
// facts (runtime/session-facts.ts); each revision's client.ts types it.
import { declareCapabilities, gatingCapability } from "../capabilities.js";
import { ConnectionClosedError, ErrorCode, responseResult, RpcError } from "../jsonrpc.js";
import { inspection, Peer, type IncomingContext, type JsonObject, type RequestOptions } from "../peer.js";
import { ResponseCache, type ResponseCacheOptions } from "../response-cache.js";
import { asksForInput, RuleBook, type Negotiated } from "../rules/index.js";
import {
  bindState,
  handlerCapabilities,
  infoOf,
  peerFacts,
  type MessageCheck,
  type SessionFacts,
} from "../session-facts.js";
import type { Transport } from "../transport.js";

type Handler = (params: unknown, context: IncomingContext) => unknown;
type State = { [key: string]: unknown };

/** What every revision's ClientOptions has; the revision's client.ts gives the types. */
export interface ClientCoreOptions<Handlers, Implementation, Capabilities> {
  transport: Transport;
  clientInfo: Implementation;
  /** Merged with the capabilities the handlers declare. */
  capabilities?: Capabilities;
  handlers?: Handlers;
  /**
   * Revisions with a handshake: other protocol versions to go on with when the server answers
   * with one (default none).
   */
  acceptProtocolVersions?: readonly string[];
  /** Check every message from the server with the generated validators (default true). */
  validate?: boolean;
  /**
   * Protocol rules (docs/protocol-rules.md ids) this client neither keeps nor checks the server
   * for: for a server known to break them. Default: every rule applies.
   */
  relaxRules?: readonly string[];
  /** Default timeout of each request, in ms (default 60 000). */
  timeoutMs?: number;
  /**
   * Revisions with cacheable results: results the server marks as fresh for a while are served
   * again from this cache until they are stale or a notification says they changed (default: in
   * memory, this client's own); `false` turns it off.
   */
  cache?: ResponseCacheOptions | false;
  /** Problems no caller can be told about (a malformed notification, a failed send). */
  onError?: (error: Error) => void;
}

/** What every revision's Client has. */
export interface ClientCore<
  ServerState,
  ClientNotifications extends { [M in keyof ClientNotifications]: { params?: unknown } },
  ServerNotifications extends { [M in keyof ServerNotifications]: { params?: unknown } },
> {
  /** Starts the transport and the revision's session (handshake, discovery or none). */
  connect(): Promise<void>;
  close(): Promise<void>;
  /** What the server told this client about itself. */
  readonly server: ServerState;
  notify<M extends keyof ClientNotifications>(method: M, params?: ClientNotifications[M]["params"]): Promise<void>;
  /** Listens to a server notification; returns the function that stops listening. */
  on<M extends keyof ServerNotifications>(
    method: M,
    listener: (params: ServerNotifications[M]["params"]) => void,
  ): () => void;
}

/** An open subscription stream (revisions with subscriptions); its notifications go to the `on` listeners. */
export interface SubscriptionCore<Filter> {
  /** What the server agreed to send (its acknowledgement). */
  readonly notifications: Filter;
  /**
   * Settles when the subscription ends: with undefined when the server ended it or the signal
   * aborted it, with the error when its stream broke.
   */
  readonly ended: Promise<Error | undefined>;
}

/** The server does not speak this client's revision. */
export class ProtocolVersionError extends RpcError {
  readonly offered: unknown;

  constructor(offered: unknown, revision: string) {
    super(ErrorCode.InvalidRequest, `the server speaks ${JSON.stringify(offered)}; this client speaks ${revision}`, {
      offered,
    });
    this.name = "ProtocolVersionError";
    this.offered = offered;
  }
}

/** Multi round-trip rounds a request may take before the client gives up. */
const MAX_INPUT_ROUNDS = 16;
/** The longest timer there is: a subscription waits for as long as it is open. */
const FOREVER_MS = 2 ** 31 - 1;
/** The server state a client exposes. */
const SERVER_STATE = ["serverCapabilities", "serverInfo", "instructions"] as const;

/**
 * A result that leaves out a field every result carries is read with the field's default, as
 * results of servers that predate the field must be. In place: the Peer takes the result from
 * this very message once it passed validation.
 */
function withResultDefaults(defaults: { readonly [field: string]: unknown }, message: unknown): unknown {
  const result = typeof message === "object" && message !== null ? (message as JsonObject)["result"] : undefined;
  if (typeof result !== "object" || result === null || Array.isArray(result)) return message;
  const filled = result as JsonObject;
  for (const [field, value] of Object.entries(defaults)) if (filled[field] === undefined) filled[field] = value;
  return message;
}

/** A client for the revision `facts` describe, validating with `check`; typed by the revision's client.ts. */
export function createProtocolClient(
  facts: SessionFacts,
  check: MessageCheck,
  options: ClientCoreOptions<object, unknown, object>,
): ClientCore<State, Record<string, { params?: unknown }>, Record<string, { params?: unknown }>> & State {
  const handlers = (options.handlers ?? {}) as { readonly [member: string]: Handler | undefined };
  const listeners = new Map<string, Set<(params: unknown) => void>>();
  const { handshake, discovery, subscriptions, inputRequired, pagination } = facts;
  /** Protocol state, by the names spec/method-inferences.json gives it. */
  const state: State = {
    protocolVersion: facts.revision,
    clientInfo: options.clientInfo,
    clientCapabilities: declareCapabilities(
      options.capabilities ?? {},
      handlers,
      handlerCapabilities(facts.serverRequests, "client"),
      "fill",
    ),
  };
  // State the user gives as options and every request carries in `_meta` (a log level, say).
  for (const { state: name } of facts.requestMeta ?? [])
    if (!(name in state)) state[name] = (options as unknown as State)[name];
  let connected = false;
  let closed = false;
  /** The protocol's rules beyond the schema (docs/protocol-rules.md), on both sides' capabilities. */
  const rules = new RuleBook(facts.rules, options.relaxRules);
  // Capabilities breaking a rule (a malformed extension id) are never declared.
  const ownCapabilities = rules.capabilities("client", state["clientCapabilities"]);
  if (ownCapabilities) throw ownCapabilities;
  const negotiated: Negotiated = {
    get client() {
      return state["clientCapabilities"];
    },
    get server() {
      return state["serverCapabilities"];
    },
  };
  const cache = facts.caching && options.cache !== false ? new ResponseCache(facts.caching, options.cache) : undefined;
  const defaults = facts.resultDefaults;
  const unsupported = facts.unsupportedVersion?.data.find((f) => f.state === "supportedVersions");

  function report(error: unknown): void {
    options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  function ready(method: string): void {
    if (closed) throw new ConnectionClosedError(`${method} after close()`);
    if (!connected) throw new RpcError(ErrorCode.InvalidRequest, `${method} before connect()`);
  }

  const peer = new Peer({
    transport: options.transport,
    ...(options.validate === false
      ? {}
      : {
          inspect: (message, requestOf) =>
            // A result of a kind not recognised has no known shape: its call fails with the rule instead.
            facts.rules.resultTypes && !rules.recognises(responseResult(message))
              ? ({ ok: true } as const)
              : inspection(
                  check(defaults ? withResultDefaults(defaults, message) : message, { from: "server", requestOf }),
                ),
        }),
    handleRequest: (method, params, context) => answer(method, params, context),
    handleNotification: async (method, params) => {
      const refused = rules.notification(
        method,
        gatingCapability(facts.serverNotifications, method),
        params,
        negotiated,
      );
      if (refused) return report(refused);
      // Stale results go first, so that a listener fetching again gets fresh ones.
      if (cache) await cache.invalidate(method, params).catch(report);
      for (const listener of listeners.get(method) ?? []) {
        // One listener's failure neither stops the others nor the connection.
        try {
          listener(params);
        } catch (error) {
          report(error);
        }
      }
    },
    ...peerFacts(facts, "client"),
    ...(subscriptions ? { tagMeta: subscriptions.idMeta } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });

  /**
   * Answers a request from the server (or one embedded in a multi round-trip result) with its
   * handler, under the rules: a request that breaks one is answered with its error (-32602) and
   * never reaches the handler; an answer of the handler's that breaks one is not sent.
   */
  async function answer(method: string, params: JsonObject | undefined, context: IncomingContext): Promise<unknown> {
    const info = infoOf(facts.serverRequests, method);
    const handler = info && handlers[info.member];
    if (!info || !handler) {
      if (info?.emptyResult) return {};
      throw new RpcError(ErrorCode.MethodNotFound, `this client does not handle ${method}`);
    }
    const refused = rules.received("serverToClient", method, params, negotiated);
    if (refused) throw refused;
    const result = await handler(info.emptyParams ? (params ?? {}) : params, context);
    const broken = rules.answer(method, params, result);
    if (broken) {
      report(broken);
      throw broken;
    }
    return result;
  }

  /** The fields every request carries in `_meta`, from the client's state. */
  function withMeta(params: JsonObject | undefined): JsonObject | undefined {
    if (!facts.requestMeta) return params;
    const given = typeof params?.["_meta"] === "object" ? (params["_meta"] as JsonObject) : {};
    return { ...params, _meta: { ...given, ...bindState(facts.requestMeta, state) } };
  }

  /**
   * Sends a request and checks its answer against the rules: an answer breaking one (a malformed
   * MIME type in a prompt, say) fails the call with the violation (-32603), as a malformed one
   * does. One refused for its protocol version is sent again (once) when the server lists this
   * revision among those it supports after all; otherwise the refusal becomes a
   * ProtocolVersionError naming the versions the server supports.
   */
  async function send(
    method: string,
    params: JsonObject | undefined,
    callOptions?: RequestOptions,
  ): Promise<JsonObject> {
    const request = async () => {
      const result = await peer.request(method, params, callOptions);
      const broken = rules.answer(method, params, result);
      if (broken) throw broken;
      return result;
    };
    try {
      try {
        return await request();
      } catch (error) {
        if (!unsupported || !(error instanceof RpcError) || error.code !== facts.unsupportedVersion?.code) throw error;
        const data: unknown = error.data;
        const supported =
          typeof data === "object" && data !== null ? (data as JsonObject)[unsupported.field] : undefined;
        if (!Array.isArray(supported) || !supported.includes(facts.revision))
          throw new ProtocolVersionError(supported, facts.revision);
        return await request();
      }
    } catch (error) {
      // A required-elicitation error names elicitations whose completion may be announced later.
      rules.failed(error);
      throw error;
    }
  }

  async function call(
    method: string,
    params: JsonObject | undefined,
    callOptions?: RequestOptions,
  ): Promise<JsonObject> {
    ready(method);
    const refused = rules.sending(
      "clientToServer",
      method,
      gatingCapability(facts.clientRequests, method),
      params,
      negotiated,
    );
    if (refused) throw refused;
    const cacheable = cache?.cacheable(method);
    const cached = cacheable ? await cache?.lookup(method, params).catch(report) : undefined;
    if (cached) return cached;
    let sent = withMeta(params);
    for (let round = 1; ; round++) {
      const result = await send(method, sent, callOptions);
      if (!inputRequired || !facts.rules.inputRequired || !asksForInput(facts.rules.inputRequired, result)) {
        // A retry's result depends on the input it carried: only a first answer is kept.
        if (round === 1 && cacheable) await cache?.keep(method, params, result).catch(report);
        return result;
      }
      const broken = rules.inputRequired(method, result);
      if (broken) throw broken;
      if (round >= MAX_INPUT_ROUNDS)
        throw new RpcError(ErrorCode.InternalError, `${method} still needs input after ${round} rounds`);
      const requests = (result[inputRequired.requests] ?? {}) as {
        [key: string]: { method: string; params?: JsonObject };
      };
      const responses: JsonObject = {};
      for (const [key, request] of Object.entries(requests)) {
        const signal = callOptions?.signal ?? new AbortController().signal;
        const context = { requestId: key, signal, meta: undefined, progress: async () => {} };
        responses[key] = await answer(request.method, request.params, context);
      }
      const retried: JsonObject = { ...sent, [inputRequired.responses]: responses };
      const requestState = result[inputRequired.state];
      if (requestState !== undefined) retried[inputRequired.state] = requestState;
      else delete retried[inputRequired.state];
      sent = retried;
    }
  }

  /** Opens a subscription; resolves with it once the server acknowledged it. */
  function listen(
    subscribing: NonNullable<SessionFacts["subscriptions"]>,
    filter: unknown,
    listenOptions: { signal?: AbortSignal } = {},
  ): Promise<SubscriptionCore<unknown>> {
    ready(subscribing.request);
    const { signal } = listenOptions;
    return new Promise((resolve, reject) => {
      let acknowledged = false;
      const ended: Promise<Error | undefined> = send(subscribing.request, withMeta({ [subscribing.filter]: filter }), {
        timeoutMs: FOREVER_MS,
        ...(signal ? { signal } : {}),
        onNotification: (method, params) => {
          if (method !== subscribing.acknowledged || acknowledged) return;
          acknowledged = true;
          resolve({ notifications: params?.[subscribing.filter], ended });
        },
      }).then(
        () => undefined,
        (error: unknown) =>
          acknowledged && signal?.aborted ? undefined : error instanceof Error ? error : new Error(String(error)),
      );
      void ended.then((error) => {
        if (!acknowledged)
          reject(
            error ??
              new RpcError(ErrorCode.InternalError, `${subscribing.request} ended before the server acknowledged it`),
          );
      });
    });
  }

  async function* pages(
    paging: NonNullable<SessionFacts["pagination"]>,
    method: string,
    params: JsonObject | undefined,
    callOptions?: RequestOptions,
  ): AsyncGenerator<JsonObject, void, undefined> {
    const seen = new Set<unknown>();
    let cursor = params?.[paging.cursor];
    let first: JsonObject | undefined;
    for (;;) {
      const page = await call(
        method,
        cursor === undefined ? params : { ...params, [paging.cursor]: cursor },
        callOptions,
      );
      // Every page of one list shares the first one's cache scope.
      first ??= page;
      const mixed = rules.page(method, first, page);
      if (mixed) throw mixed;
      yield page;
      cursor = page[paging.next];
      if (cursor === undefined) return;
      if (seen.has(cursor))
        throw new RpcError(ErrorCode.InternalError, `${method}: the server repeated cursor ${JSON.stringify(cursor)}`);
      seen.add(cursor);
    }
  }

  /** The handshake: this client's side out, the server's recorded; the version agreed on checked. */
  async function shakeHands(bindings: NonNullable<SessionFacts["handshake"]>): Promise<void> {
    const params: JsonObject = {};
    for (const { field, state: name } of bindings.params) params[field] = state[name];
    const result = await peer.request(bindings.request, params);
    for (const { field, state: name } of bindings.result) state[name] = result[field];
    const agreed = state["protocolVersion"];
    if (typeof agreed !== "string" || (agreed !== facts.revision && !options.acceptProtocolVersions?.includes(agreed)))
      throw new ProtocolVersionError(agreed, facts.revision);
    const theirCapabilities = rules.capabilities("server", state["serverCapabilities"]);
    if (theirCapabilities) throw theirCapabilities;
    // For transports that carry the version on every message (Streamable HTTP's MCP-Protocol-Version).
    options.transport.setProtocolVersion?.(agreed);
    connected = true;
    await peer.notify(bindings.notification);
  }

  /** Discovery: the server's state from its answer, this revision among those it supports. */
  async function discover(bindings: NonNullable<SessionFacts["discovery"]>): Promise<void> {
    connected = true;
    const result = await call(bindings.request, undefined);
    for (const { field, state: name } of bindings.result) state[name] = result[field];
    const meta = result["_meta"] as JsonObject | undefined;
    for (const { field, state: name } of facts.resultMeta ?? [])
      if (meta?.[field] !== undefined) state[name] = meta[field];
    const supported = state["supportedVersions"];
    if (!Array.isArray(supported) || !supported.includes(facts.revision))
      throw new ProtocolVersionError(supported, facts.revision);
    const theirCapabilities = rules.capabilities("server", state["serverCapabilities"]);
    if (theirCapabilities) throw theirCapabilities;
    options.transport.setProtocolVersion?.(facts.revision);
  }

  /** Starts the transport and the revision's session. */
  async function start(): Promise<void> {
    if (facts.http) options.transport.setHttpBinding?.(facts.http);
    await peer.start();
    if (handshake) await shakeHands(handshake);
    else if (discovery) await discover(discovery);
    else connected = true;
  }

  const server: State = {};
  for (const name of SERVER_STATE) Object.defineProperty(server, name, { get: () => state[name], enumerable: true });

  const client: ClientCore<State, Record<string, { params?: unknown }>, Record<string, { params?: unknown }>> & State =
    {
      async connect() {
        try {
          await start();
        } catch (error) {
          // A failed start leaves nothing open: the transport (and a spawned server) is closed.
          connected = false;
          await peer.close().catch(() => {});
          throw error;
        }
      },
      async close() {
        connected = false;
        closed = true;
        await peer.close();
      },
      server,
      request: (method: string, params?: JsonObject, callOptions?: RequestOptions) => call(method, params, callOptions),
      notify: async (method, params) => {
        ready(method);
        const gate = gatingCapability(facts.clientNotifications, method);
        const refused = rules.sending("clientToServer", method, gate, params, negotiated);
        if (refused) throw refused;
        await peer.notify(method, params as JsonObject | undefined);
      },
      on(method, listener) {
        let set = listeners.get(method);
        if (!set) listeners.set(method, (set = new Set()));
        set.add(listener as (params: unknown) => void);
        return () => set.delete(listener as (params: unknown) => void);
      },
    };
  // One member per request (and its pages where the revision pages it), as the Client interface types them.
  for (const [method, info] of Object.entries(facts.clientRequests)) {
    if (info.delivery !== "message") continue;
    client[info.member] = (params?: JsonObject, callOptions?: RequestOptions) => call(method, params, callOptions);
    if (pagination?.methods.includes(method))
      client[`${info.member}Pages`] = (params?: JsonObject, callOptions?: RequestOptions) =>
        pages(pagination, method, params, callOptions);
  }
  if (subscriptions)
    client["listen"] = (filter: unknown, listenOptions?: { signal?: AbortSignal }) =>
      listen(subscriptions, filter, listenOptions);
  return client;
}

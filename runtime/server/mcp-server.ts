// The body of every generated `createMcpServer`: the registry (registry.ts) served by the
// revision's own server. It hands the registry's answers to the server as handlers for what is
// registered now, gives registered handlers their context (the request's, plus `log` and, in
// revisions with multi round-trip results, `input`), keeps each connection's log level and
// resource subscriptions where the revision has them, and carries change events from the
// registry's bus to the clients that asked for them. Written once, over the revision's facts
// (methods.ts SESSION and REGISTRY); each revision's registry.ts types it.
import { declaresAll, mergeCapabilities } from "../capabilities.js";
import type { IncomingContext } from "../peer.js";
import { createRequestStateSeal, type RequestStateSeal } from "../request-state.js";
import type { ChangeEventBus } from "../scale/index.js";
import type { MethodTable, SessionFacts } from "../session-facts.js";
import type { Transport } from "../transport.js";
import { REGISTRY, Registry, type ListKind, type RegistryProfile, type SharedRegistrations } from "./registry.js";

type Json = { [key: string]: unknown };
type Awaitable<T> = T | Promise<T>;
type Handler = (params: never, context: never) => unknown;

/** The registry's facts of one revision beyond RegistryProfile's (methods.ts `REGISTRY`). */
export interface McpServerFacts extends RegistryProfile {
  /** Log levels, least severe first, and the notification that carries a log message. */
  readonly logLevels: readonly string[];
  readonly logNotification: string;
  /** The notification telling clients that a list changed, and the capability that announces it. */
  readonly listChanges: { readonly [K in ListKind]: { readonly method: string; readonly capability: Json } };
  /** The notification telling clients a resource changed, and the capability that announces it. */
  readonly updated: { readonly method: string; readonly capability: Json };
  /** Each connection sets its log level (`logging/setLevel`) and subscribes to resources itself. */
  readonly perConnection: boolean;
}

/** What every revision's McpServerOptions has besides its ServerOptions. */
export interface McpServerCoreOptions<Handlers> {
  /** Low-level handlers, for methods the registry does not serve or to take one over. */
  handlers?: Handlers;
  /** Items per page of every list (default 100). */
  pageSize?: number;
  /**
   * Serve the registrations of a server written for another revision, each handler run through
   * its `invoke` (runtime/projection's `createMultiRevisionServer`): one set of handlers, several
   * revisions. Their change events are shared too: `notify` and `resourceUpdated` of either
   * server reach the clients of both.
   */
  registrations?: SharedRegistrations;
  /**
   * Change events shared by the processes serving one endpoint (see docs/deploying.md): `notify`
   * and `resourceUpdated` publish to the bus, and every event on it, from any process, goes to
   * this process's clients. Without it they reach this process's clients only (a server sharing
   * `registrations` without one uses that server's). Changes to what this process registers are
   * announced to its own clients only: each process registers its own.
   */
  events?: ChangeEventBus;
  /** Revisions with cacheable results: the cache fields of list and read results (default: not cached). */
  cache?: Json;
}

/** A registration, until it is removed; removing tells connected clients the list changed. */
export interface Registered {
  remove(): void;
}

/** A schema that describes no arguments. */
export type NoArguments = { readonly type: "object"; readonly properties: Record<never, never> };
/** No output schema: structured content is untyped (a brand no output type matches). */
export interface NoOutput {
  readonly noOutput: unique symbol;
}

/** Completion of a prompt argument or template variable: values for what was typed so far, and the others given. */
export type Complete<Names extends PropertyKey> = {
  [K in Names]?: (value: string, args: { readonly [N in Names]?: string }) => Awaitable<readonly string[]>;
};

/** Whether a resource URI is an RFC 6570 template. */
export type IsTemplate<U extends string> = U extends `${string}{${string}}${string}`
  ? true
  : string extends U
    ? true
    : false;

/** What every revision's McpServer has; `Notifications` is its ServerNotificationMap. */
export interface McpServerCore<Notifications extends { [M in keyof Notifications]: { params?: unknown } }> {
  /**
   * Serves a connection: in revisions with a handshake with a server of its own (over HTTP, call
   * it in `onSession`), in stateless ones with one server for any number (over HTTP, pass this
   * object as `server`). Capabilities follow what is registered when the (first) connection
   * starts, or `capabilities`.
   */
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  /** The registry, for a server of another revision to share (`registrations`). */
  readonly [REGISTRY]: Registry;
  /** Tells the clients that subscribed to `uri` that the resource changed. */
  resourceUpdated(uri: string): Promise<void>;
  /** Sends a notification to every connected client (stateless revisions: on every subscription that asked for it). */
  notify<M extends keyof Notifications>(method: M, params?: Notifications[M]["params"]): Promise<void>;
}

/** The revision's server as the registry drives it. */
interface Served {
  readonly capabilities: unknown;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  notify(method: string, params?: unknown): Promise<void>;
}

/** The revision's pieces the registry server is built from. */
export interface McpServerParts {
  readonly session: SessionFacts;
  readonly facts: McpServerFacts;
  /** The revision's createServer. */
  readonly createServer: (options: never) => unknown;
  /** Checks of the client's answers to input requests, by the method asked (multi round-trip revisions). */
  readonly inputResults?: { readonly [method: string]: (value: unknown) => boolean };
}

/** What one connection asked for: its log level and the resources it subscribed to. */
interface Connection {
  logLevel: string | undefined;
  readonly subscribed: Set<string>;
}

/** Members every request context has besides the revision's calls back to the client. */
const CONTEXT_MEMBERS = ["requestId", "signal", "meta", "authInfo", "progress", "client", "notify"];

/** A registered handler's context: the request's own, forwarded, plus the registry's helpers. */
class Context {
  protected readonly request: Json;
  private readonly connection: Connection | undefined;
  protected readonly params: Json;
  protected readonly parts: McpServerParts;

  constructor(parts: McpServerParts, request: Json, connection: Connection | undefined, params: Json) {
    this.parts = parts;
    this.request = request;
    this.connection = connection;
    this.params = params;
  }

  /** Sends a log message for this request, at or above the level the client asked for. */
  log(level: string, data: unknown, logger?: string): Promise<void> {
    const { logLevels, logNotification } = this.parts.facts;
    const wanted = this.connection?.logLevel;
    if (wanted !== undefined && logLevels.indexOf(level) < logLevels.indexOf(wanted)) return Promise.resolve();
    const notify = this.request["notify"] as (method: string, params: Json) => Promise<void>;
    return notify(logNotification, { level, data, ...(logger === undefined ? {} : { logger }) });
  }
}

/** Multi round-trip input: the answers a retried request carries, and how to ask for more. */
class InputContext extends Context {
  get input() {
    const ir = this.parts.session.inputRequired;
    const checks = this.parts.inputResults ?? {};
    const responses = ir ? (this.params[ir.responses] as Json | undefined) : undefined;
    const state = ir ? this.params[ir.state] : undefined;
    return {
      state: typeof state === "string" ? state : undefined,
      response: (key: string, method: string) => {
        const answer = responses?.[key];
        return Object.hasOwn(checks, method) && checks[method]?.(answer) ? answer : undefined;
      },
      ask: (requests: unknown, next?: string) =>
        ir && {
          [ir.marker.field]: ir.marker.value,
          [ir.requests]: requests,
          ...(next === undefined ? {} : { [ir.state]: next }),
        },
    };
  }
}

/** The context class of a revision: forwarding the request context's members, its calls back to the client among them. */
const CONTEXTS = new WeakMap<MethodTable, typeof Context>();

function contextClass(parts: McpServerParts): typeof Context {
  const requests = parts.session.serverRequests;
  let made = CONTEXTS.get(requests);
  if (made) return made;
  const forwarding = class extends (parts.session.inputRequired ? InputContext : Context) {};
  const calls = Object.values(requests).flatMap((info) => (info.delivery === "message" ? [info.member] : []));
  for (const name of [...CONTEXT_MEMBERS, ...calls])
    Object.defineProperty(forwarding.prototype, name, {
      get(this: Context) {
        return this["request"][name];
      },
    });
  CONTEXTS.set(requests, (made = forwarding));
  return made;
}

/** A registry served by the revision's server; typed by the revision's registry.ts. */
export function createRegistryServer(
  parts: McpServerParts,
  options: McpServerCoreOptions<object> & {
    requestState?: RequestStateSeal;
    capabilities?: object;
    onError?: (error: Error) => void;
  },
): McpServerCore<Record<string, { params?: unknown }>> & { readonly [member: string]: unknown } {
  const { handlers: own, pageSize, registrations, cache, events, ...serverOptions } = options;
  const { facts, session } = parts;
  const registry = new Registry(facts, { pageSize, cache, events }, registrations);
  const report = (error: unknown) => serverOptions.onError?.(error instanceof Error ? error : new Error(String(error)));
  const createServer = parts.createServer as (options: object) => Served;
  const HandlerContext = contextClass(parts);
  // Sealed by default, so a client cannot alter the state a handler hands out.
  let sealing: Promise<RequestStateSeal> | undefined;
  const sealed = (): Promise<RequestStateSeal> => (sealing ??= createRequestStateSeal());
  const requestState: RequestStateSeal | undefined = session.inputRequired
    ? (serverOptions.requestState ?? {
        seal: async (state) => (await sealed()).seal(state),
        open: async (state) => (await sealed()).open(state),
      })
    : undefined;

  /** The registry's handlers for what is registered now, and the capabilities they announce. */
  function serverFor(connection: Connection | undefined): Served {
    const handlers: { [member: string]: Handler } = {};
    const context = (params: Json, request: IncomingContext) =>
      new HandlerContext(parts, request as unknown as Json, connection, params);
    // context.log is always offered, so the capability its notification needs is declared.
    let capabilities: Json = { logging: {} };
    if (registry.has("tools")) {
      handlers["listTools"] = (params: Json) => registry.listTools(params);
      handlers["callTool"] = (params: Json, request: IncomingContext) =>
        registry.callTool(params, context(params, request));
      capabilities = mergeCapabilities(capabilities, facts.listChanges.tools.capability);
    }
    if (registry.has("resources")) {
      handlers["listResources"] = (params: Json) => registry.listResources(params);
      handlers["listResourceTemplates"] = (params: Json) => registry.listResourceTemplates(params);
      handlers["readResource"] = (params: Json, request: IncomingContext) =>
        registry.readResource(params, context(params, request));
      if (connection) {
        handlers["subscribe"] = ({ uri }: { uri: string }) => (connection.subscribed.add(uri), {});
        handlers["unsubscribe"] = ({ uri }: { uri: string }) => (connection.subscribed.delete(uri), {});
      }
      const announced = mergeCapabilities(facts.listChanges.resources.capability, facts.updated.capability);
      capabilities = mergeCapabilities(capabilities, announced);
    }
    if (registry.has("prompts")) {
      handlers["listPrompts"] = (params: Json) => registry.listPrompts(params);
      handlers["getPrompt"] = (params: Json, request: IncomingContext) =>
        registry.getPrompt(params, context(params, request));
      capabilities = mergeCapabilities(capabilities, facts.listChanges.prompts.capability);
    }
    if (registry.has("completions")) handlers["complete"] = (params: Json) => registry.complete(params);
    if (connection) handlers["setLevel"] = ({ level }: { level: string }) => ((connection.logLevel = level), {});
    return createServer({
      ...serverOptions,
      // On shared registrations the handlers answer in another revision's values, converted on the way out.
      ...(registrations ? { validateAnswers: false } : {}),
      ...(requestState ? { requestState } : {}),
      capabilities: mergeCapabilities(capabilities, (serverOptions.capabilities ?? {}) as Json),
      handlers: { ...handlers, ...own },
    });
  }

  const connections = new Map<Served, Connection | undefined>();
  const live = (): Served[] => [...connections.keys()];
  /** A notification to each of `targets`; a client gone away fails no other. */
  async function send(targets: Served[], method: string, params?: Json): Promise<void> {
    await Promise.all(targets.map((target) => target.notify(method, params).catch(report)));
  }
  registry.onChange((kind) => {
    const { method, capability } = facts.listChanges[kind];
    void send(
      live().filter((s) => declaresAll(s.capabilities as Json, capability)),
      method,
    );
  });
  /** Tells this process's clients that the resource at `uri` changed (per connection: those subscribed to it). */
  function updated(uri: string): Promise<void> {
    const subscribed = [...connections].filter(([, connection]) => !connection || connection.subscribed.has(uri));
    return send(
      subscribed.map(([s]) => s),
      facts.updated.method,
      { uri },
    );
  }
  // Every change event, this server's included, reaches its clients from the registry's bus: the
  // one given (every process's), else the one of the servers sharing these registrations.
  const unsubscribe = registry.events.subscribe((event) => {
    const uri = event.params?.["uri"];
    return event.method === facts.updated.method && typeof uri === "string"
      ? updated(uri)
      : send(live(), event.method, event.params as Json | undefined);
  });

  return {
    registerTool(name: string, config: object, handler: (args: unknown, context: unknown) => unknown): Registered {
      return { remove: registry.addTool(name, config, handler) };
    },
    registerResource(
      name: string,
      uri: string,
      config: object,
      read: (uri: string, variables: Json, context: unknown) => unknown,
    ): Registered {
      return { remove: registry.addResource(name, uri, config, read) };
    },
    registerPrompt(name: string, config: object, handler: (args: unknown, context: unknown) => unknown): Registered {
      return { remove: registry.addPrompt(name, config, handler) };
    },
    async connect(transport) {
      if (!facts.perConnection) {
        // One server for every connection of a stateless revision.
        const [shared] = connections.keys();
        const server = shared ?? serverFor(undefined);
        connections.set(server, undefined);
        await server.connect(transport);
        return;
      }
      const connection: Connection = { logLevel: undefined, subscribed: new Set() };
      const server = serverFor(connection);
      await server.connect(transport);
      connections.set(server, connection);
      // The peer took onclose in connect(); the connection is forgotten after it.
      const closed = transport.onclose;
      transport.onclose = () => {
        connections.delete(server);
        closed?.();
      };
    },
    async close() {
      unsubscribe();
      await Promise.all(live().map((s) => s.close()));
    },
    ...(session.http ? { http: session.http } : {}),
    [REGISTRY]: registry,
    resourceUpdated(uri) {
      return registry.events.publish({ method: facts.updated.method, params: { uri } });
    },
    notify(method, params) {
      return registry.events.publish({ method, params: params as Json | undefined });
    },
  };
}

// A host: one application, many MCP servers, each spoken to at the newest revision it speaks
// through that revision's generated client; their tools, prompts and resources in one list under
// collision-free ids; calls routed to the owning server; sampling, elicitation and tool calls put
// to one consent hook; each server supervised on its own (timeouts, crash, restart, shutdown).
import type { JsonObject, RequestOptions } from "../runtime/index.js";
import { Catalog, type HostChange, type HostItem } from "./aggregate.js";
import { parseHostConfig, type HostConfig } from "./config.js";
import {
  reviewElicitation,
  reviewSampling,
  reviewToolCall,
  type ConsentHook,
  type ElicitationHandler,
  type SamplingHandler,
} from "./consent.js";
import { UnknownIdError } from "./errors.js";
import { splitId } from "./namespace.js";
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  LogMessageParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Revision,
  Root,
  Tool,
} from "./revisions.js";
import { openClient, type ServerRequestHandlers } from "./session.js";
import { Supervisor, type RestartPolicy, type ServerStatus } from "./supervisor.js";
import { createTransport, type TransportFactory } from "./transport.js";
import type { AuthorizationFactory } from "./auth.js";
import { DEFAULT_TOOL_LOOP_LIMIT, toolLoopViolation, type SamplingSupport } from "./sampling-rules.js";
import type { RuleFacts } from "../runtime/index.js";

export { HostConfigError, loadHostConfig, parseHostConfig } from "./config.js";
export type { HostConfig, ServerEntry, ServerSpec, StdioServerEntry, UrlServerEntry } from "./config.js";
export type {
  ConsentDecision,
  ConsentHook,
  ConsentRequest,
  ElicitationHandler,
  HandlerContext,
  SamplingHandler,
  ToolCallParams,
} from "./consent.js";
export {
  ConsentDeniedError,
  NegotiationError,
  ServerDownError,
  ServerTimeoutError,
  UnknownIdError,
  USER_REJECTED,
} from "./errors.js";
export { qualify, splitId, SEPARATOR } from "./namespace.js";
export type {
  CallToolResult,
  ElicitationParams,
  ElicitationResult,
  GetPromptResult,
  Implementation,
  LogMessageParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Revision,
  Root,
  SamplingParams,
  SamplingResult,
  Tool,
} from "./revisions.js";
export { REVISIONS } from "./revisions.js";
export type { HostChange, HostItem } from "./aggregate.js";
export type { ListKind } from "./session.js";
export type { RestartPolicy, ServerState, ServerStatus } from "./supervisor.js";
export type { TransportFactory, TransportKind } from "./transport.js";
export type { AuthorizationFactory, AuthSettings } from "./auth.js";
export { DEFAULT_TOOL_LOOP_LIMIT, SAMPLING_TOOL_LOOP_LIMIT, type SamplingSupport } from "./sampling-rules.js";

export interface HostOptions {
  /** `{ "mcpServers": { name: { command, args, env } | { url, headers } } }`, as desktop hosts read it. */
  servers: HostConfig;
  /** How the host introduces itself to every server. */
  clientInfo?: Implementation;
  /** Reviews every sampling and elicitation request and every tool call (see consent.ts). */
  consent?: ConsentHook;
  /** Answers sampling requests; without it the host does not declare sampling. */
  sampling?: SamplingHandler;
  /**
   * What the sampling handler supports beyond plain messages, declared to servers whose revision
   * has it: `tools` (tool use in sampling), `context` (includeContext). Requests using more than
   * is declared are refused (-32602) before the handler or consent sees them.
   */
  samplingSupport?: SamplingSupport;
  /**
   * The most tool-use rounds a sampling request's history may hold (default 20): a server whose
   * tool loop goes on longer gets -32602 (rule SAMPLING_TOOL_LOOP_LIMIT) instead of an answer.
   */
  toolLoopLimit?: number;
  /** Answers elicitation requests; without it the host does not declare elicitation. */
  elicitation?: ElicitationHandler;
  /** The roots each server is given: one list for all, or one per server. */
  roots?: Root[] | ((server: string) => Root[] | Promise<Root[]>);
  /** Timeout of each request and of negotiation, in ms (default 60 000); an entry's `timeoutMs` wins. */
  timeoutMs?: number;
  /** Restarts after a crash or a failed start; `false` leaves a failed server down. */
  restart?: RestartPolicy | false;
  /** stdio: how long to wait after closing stdin before SIGTERM, and again before SIGKILL (ms, default 2000). */
  shutdownGraceMs?: number;
  /** A transport for a server; undefined keeps the default (stdio, or HTTP for a `url` entry). */
  transport?: TransportFactory;
  /** The authorization provider for a `url` server with `auth` (default: runtime/auth/client/node.ts's, from its settings). */
  authorization?: AuthorizationFactory;
  /** Problems no caller can be told about (a failed list refresh, a malformed notification). */
  onError?: (error: Error, server: string) => void;
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Progress the server reports; each report also restarts the timeout. */
  onProgress?: (progress: Progress) => void;
}

export interface HostEvents {
  /** A server's list changed (after a list_changed notification, a start or a crash). */
  change: HostChange;
  /** A server's state changed. */
  server: ServerStatus;
  /** A server sent a log message (`notifications/message`). */
  log: HostLogMessage;
}

/** A server's log message, attributed to it. */
export type HostLogMessage = LogMessageParams & { server: string; revision: Revision };

export interface Host {
  /** Starts every server; resolves when each is up or has failed its first start (see `servers`). */
  connect(): Promise<void>;
  /** Every configured server, in the configuration's order. */
  readonly servers: readonly ServerStatus[];
  readonly tools: readonly HostItem<Tool>[];
  readonly prompts: readonly HostItem<Prompt>[];
  readonly resources: readonly HostItem<Resource>[];
  readonly resourceTemplates: readonly HostItem<ResourceTemplate>[];
  /** Calls a tool by its host id (`<server>__<tool>`), after consent. */
  callTool(id: string, args?: { [key: string]: unknown }, options?: CallOptions): Promise<CallToolResult>;
  /** Gets a prompt by its host id (`<server>__<prompt>`). */
  getPrompt(id: string, args?: { [key: string]: string }, options?: CallOptions): Promise<GetPromptResult>;
  /** Reads a resource by its host id (`<server>__<uri>`; any URI of that server, e.g. from a template). */
  readResource(id: string, options?: CallOptions): Promise<ReadResourceResult>;
  /** Tells the servers (all, or the one named) that their roots changed. */
  rootsChanged(server?: string): Promise<void>;
  on<E extends keyof HostEvents>(event: E, listener: (payload: HostEvents[E]) => void): () => void;
  /** Shuts every server down (stdin close, then SIGTERM, then SIGKILL); resolves when all are gone. No events follow. */
  close(): Promise<void>;
}

const DEFAULT_RESTART: Required<RestartPolicy> = { initialDelayMs: 250, maxDelayMs: 10_000, maxAttempts: 6 };

/** A host for the configured servers (checked here: HostConfigError); `connect()` starts them. */
export function createHost(options: HostOptions): Host {
  const specs = parseHostConfig(options.servers, "createHost servers");
  const clientInfo = options.clientInfo ?? { name: "mcp-gen-host", version: "0.1.0" };
  const restart = options.restart === false ? false : { ...DEFAULT_RESTART, ...options.restart };
  const listeners: { [E in keyof HostEvents]: Set<(payload: HostEvents[E]) => void> } = {
    change: new Set(),
    server: new Set(),
    log: new Set(),
  };
  const report = (server: string) => (error: unknown) =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)), server);

  let closed = false;

  function emit<E extends keyof HostEvents>(event: E, payload: HostEvents[E], server: string): void {
    // After close() the host is silent: its lists emptying is no news to whoever closed it.
    if (closed) return;
    for (const listener of listeners[event]) {
      // One listener's failure reaches neither the others nor the server that caused the event.
      try {
        listener(payload);
      } catch (error) {
        report(server)(error);
      }
    }
  }

  /** What the host answers a server with: everything it does is attributed to that server. */
  function handlersFor(server: string, revision: Revision, rules: RuleFacts): ServerRequestHandlers {
    const from = { server, revision };
    const { consent, sampling, elicitation, roots } = options;
    const loopLimit = options.toolLoopLimit ?? DEFAULT_TOOL_LOOP_LIMIT;
    const handlers: ServerRequestHandlers = {};
    if (sampling)
      handlers.createMessage = async (params, context) => {
        const runaway = toolLoopViolation(rules, params, loopLimit, server);
        if (runaway) throw runaway;
        return reviewSampling(consent, sampling, from, params, { signal: context.signal });
      };
    if (elicitation)
      handlers.elicit = (params, context) =>
        reviewElicitation(consent, elicitation, from, params, { signal: context.signal });
    if (roots) handlers.listRoots = async () => ({ roots: typeof roots === "function" ? await roots(server) : roots });
    return handlers;
  }

  const catalogs = new Map<string, Catalog>();
  const supervisors = new Map<string, Supervisor>();
  for (const spec of specs) {
    const catalog = new Catalog(spec.name, (change) => emit("change", change, spec.name));
    catalogs.set(spec.name, catalog);
    const supervisor = new Supervisor({
      spec,
      createTransport: (server, onAuthorization) =>
        createTransport(
          server,
          options.transport,
          options.shutdownGraceMs ?? 2000,
          options.authorization,
          onAuthorization,
        ),
      open: (module, transport) =>
        openClient(module, transport, {
          clientInfo,
          handlers: handlersFor(spec.name, module.REVISION, module.PROTOCOL_RULES),
          samplingSupport: options.samplingSupport ?? {},
          timeoutMs: spec.timeoutMs ?? options.timeoutMs ?? 60_000,
          onError: report(spec.name),
        }),
      restart,
      onSession: async (session) => {
        session.watch((kinds) => {
          for (const kind of kinds) catalog.refresh(session, kind).catch(report(spec.name));
        }, report(spec.name));
        session.watchLog((params) =>
          emit("log", { ...params, server: spec.name, revision: session.revision }, spec.name),
        );
        await catalog.load(session, report(spec.name));
      },
      onStatus: (status) => {
        if (status.state !== "up") catalog.clear();
        emit("server", status, spec.name);
      },
    });
    supervisors.set(spec.name, supervisor);
  }
  let connecting: Promise<void> | undefined;

  function route(id: string, what: string): { supervisor: Supervisor; name: string } {
    const parts = splitId(id);
    const supervisor = parts && supervisors.get(parts.server);
    if (!parts || !supervisor) throw new UnknownIdError(id, what);
    return { supervisor, name: parts.name };
  }

  return {
    connect() {
      connecting ??= Promise.all([...supervisors.values()].map((supervisor) => supervisor.start())).then(() => {});
      return connecting;
    },
    get servers() {
      return [...supervisors.values()].map((supervisor) => supervisor.status);
    },
    get tools() {
      return [...catalogs.values()].flatMap((catalog) => catalog.items("tools"));
    },
    get prompts() {
      return [...catalogs.values()].flatMap((catalog) => catalog.items("prompts"));
    },
    get resources() {
      return [...catalogs.values()].flatMap((catalog) => catalog.items("resources"));
    },
    get resourceTemplates() {
      return [...catalogs.values()].flatMap((catalog) => catalog.items("resourceTemplates"));
    },
    async callTool(id, args, callOptions) {
      const { supervisor, name } = route(id, "tool");
      const to = { server: supervisor.name, revision: (await supervisor.ready()).revision };
      const params = await reviewToolCall(
        options.consent,
        to,
        id,
        args === undefined ? { name } : { name, arguments: args },
      );
      return (await supervisor.use("tools/call", (session) =>
        session.request("tools/call", params as unknown as JsonObject, requestOptions(callOptions)),
      )) as CallToolResult;
    },
    async getPrompt(id, args, callOptions) {
      const { supervisor, name } = route(id, "prompt");
      const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
      return (await supervisor.use("prompts/get", (session) =>
        session.request("prompts/get", params, requestOptions(callOptions)),
      )) as GetPromptResult;
    },
    async readResource(id, callOptions) {
      const { supervisor, name } = route(id, "resource");
      return (await supervisor.use("resources/read", (session) =>
        session.request("resources/read", { uri: name }, requestOptions(callOptions)),
      )) as ReadResourceResult;
    },
    async rootsChanged(server) {
      const targets = [...supervisors.values()].filter((s) => server === undefined || s.name === server);
      await Promise.all(
        targets.filter((s) => s.status.state === "up").map((s) => s.use("roots", (session) => session.rootsChanged())),
      );
    },
    on(event, listener) {
      const set = listeners[event] as Set<typeof listener>;
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {
      closed = true;
      await Promise.all([...supervisors.values()].map((supervisor) => supervisor.close()));
    },
  };
}

function requestOptions(options: CallOptions | undefined): RequestOptions {
  const onProgress = options?.onProgress;
  return {
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(options?.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(onProgress
      ? { onProgress: (update) => onProgress(update as unknown as Progress), resetTimeoutOnProgress: true }
      : {}),
  };
}

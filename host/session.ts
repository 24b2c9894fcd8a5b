// One server's session: the generated client of the negotiated revision, seen through the few
// operations the host needs. The generated client does the revision's work (validation, the
// handshake or discovery, the `_meta` envelope, multi round-trip input); the host addresses it
// by method name, so one host module serves every revision. The session is also where the
// revision ends: what the server sends reaches the host as the view's types (revisions.ts VIEW),
// and the host's answers reach the server as its revision's (runtime/projection/view.ts).
import type { IncomingContext, JsonObject, RequestOptions, RuleFacts, Transport } from "../runtime/index.js";
import { answerFrom, toView, type RevisionProjection, type Sent } from "../runtime/projection/index.js";
import { samplingCapabilities, type SamplingSupport } from "./sampling-rules.js";
import type {
  ElicitationParams,
  ElicitationResult,
  Implementation,
  LogMessageParams,
  Revision,
  RevisionModule,
  Root,
  SamplingParams,
  SamplingResult,
} from "./revisions.js";
import { VIEW } from "./revisions.js";

/** The surface every generated client has, by method name. */
export interface GeneratedClient {
  connect(): Promise<void>;
  close(): Promise<void>;
  readonly server: {
    readonly serverCapabilities: { readonly [capability: string]: unknown } | undefined;
    readonly serverInfo: Implementation | undefined;
    readonly instructions: string | undefined;
  };
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  notify(method: string, params?: JsonObject): Promise<void>;
  on(method: string, listener: (params: unknown) => void): () => void;
}

/**
 * How the host answers the requests a server sends, in the view's types; each one present
 * declares its capability.
 */
export interface ServerRequestHandlers {
  createMessage?(params: SamplingParams, context: IncomingContext): Promise<SamplingResult>;
  elicit?(params: ElicitationParams, context: IncomingContext): Promise<ElicitationResult>;
  listRoots?(params: unknown, context: IncomingContext): Promise<{ roots: Root[] }>;
}

export interface ClientSettings {
  clientInfo: Implementation;
  handlers: ServerRequestHandlers;
  /** What the sampling handler supports, declared where the revision has it. */
  samplingSupport: SamplingSupport;
  timeoutMs: number;
  onError(error: Error): void;
}

const ROOTS_CHANGED = "notifications/roots/list_changed";
const LOG_MESSAGE = "notifications/message";
const LISTEN = "subscriptions/listen";
/** The longest timer Node keeps: a subscription waits for as long as the session lasts. */
const FOREVER_MS = 2 ** 31 - 1;

/** The four lists a host aggregates: how each is fetched, keyed, gated and announced. */
export const LISTS = {
  tools: {
    method: "tools/list",
    field: "tools",
    key: "name",
    capability: "tools",
    changed: "notifications/tools/list_changed",
    filter: "toolsListChanged",
  },
  prompts: {
    method: "prompts/list",
    field: "prompts",
    key: "name",
    capability: "prompts",
    changed: "notifications/prompts/list_changed",
    filter: "promptsListChanged",
  },
  resources: {
    method: "resources/list",
    field: "resources",
    key: "uri",
    capability: "resources",
    changed: "notifications/resources/list_changed",
    filter: "resourcesListChanged",
  },
  resourceTemplates: {
    method: "resources/templates/list",
    field: "resourceTemplates",
    key: "uriTemplate",
    capability: "resources",
    changed: "notifications/resources/list_changed",
    filter: "resourcesListChanged",
  },
} as const;

export type ListKind = keyof typeof LISTS;
export const LIST_KINDS = Object.keys(LISTS) as ListKind[];

/** Creates the generated client of one revision on a transport, answering the server with `handlers`. */
export function openClient(module: RevisionModule, transport: Transport, settings: ClientSettings): GeneratedClient {
  const notifications: readonly string[] = module.CLIENT_NOTIFICATION_METHODS;
  // Roots can change while the session lasts only where the revision can say so.
  const capabilities: { [key: string]: unknown } =
    settings.handlers.listRoots && notifications.includes(ROOTS_CHANGED) ? { roots: { listChanged: true } } : {};
  if (settings.handlers.createMessage)
    Object.assign(capabilities, samplingCapabilities(module.PROTOCOL_RULES as RuleFacts, settings.samplingSupport));
  const create = module.createClient as (options: object) => unknown;
  return create({
    transport,
    clientInfo: settings.clientInfo,
    capabilities,
    handlers: inView(settings.handlers, module.PROJECTION),
    timeoutMs: settings.timeoutMs,
    onError: settings.onError,
  }) as GeneratedClient;
}

/** The method each handler answers (the host's names, the same in every revision's client). */
const HANDLED = {
  createMessage: "sampling/createMessage",
  elicit: "elicitation/create",
  listRoots: "roots/list",
} as const satisfies { [K in keyof ServerRequestHandlers]-?: string };

/** `handlers`, written against the view, answering a server of `revision`: params up, answers down. */
function inView(handlers: ServerRequestHandlers, revision: RevisionProjection): { [name: string]: unknown } {
  const view = VIEW.PROJECTION;
  const adapted: { [name: string]: unknown } = {};
  for (const [name, method] of Object.entries(HANDLED)) {
    const handler = handlers[name as keyof typeof HANDLED] as
      ((params: unknown, context: IncomingContext) => Promise<unknown>) | undefined;
    if (!handler) continue;
    adapted[name] = async (params: unknown, context: IncomingContext) => {
      const answer = await handler(toView("request", method, params, revision, view).value, context);
      return answerFrom(method, answer, view, revision).value;
    };
  }
  return adapted;
}

/** What a server of `revision` sent, as the view has it. */
function seen<T>(sent: Sent, method: string, value: unknown, revision: RevisionProjection): T {
  return toView(sent, method, value, revision, VIEW.PROJECTION).value as T;
}

export class Session {
  private readonly stopListening = new AbortController();

  constructor(
    private readonly module: RevisionModule,
    private readonly client: GeneratedClient,
  ) {}

  get revision(): Revision {
    return this.module.REVISION;
  }

  get serverInfo(): Implementation | undefined {
    return this.client.server.serverInfo;
  }

  get instructions(): string | undefined {
    return this.client.server.instructions;
  }

  /** Whether the server offers a list (its capability is declared). */
  offers(kind: ListKind): boolean {
    return this.client.server.serverCapabilities?.[LISTS[kind].capability] !== undefined;
  }

  /** A request by name; its result in the view's types. */
  async request(method: string, params: JsonObject | undefined, options?: RequestOptions): Promise<JsonObject> {
    return seen("result", method, await this.client.request(method, params, options), this.module.PROJECTION);
  }

  /** Every item of a list, following the cursor. */
  async list(kind: ListKind): Promise<JsonObject[]> {
    const { method, field } = LISTS[kind];
    const items: JsonObject[] = [];
    const seen = new Set<unknown>();
    for (let cursor: unknown; ;) {
      const page = await this.request(method, cursor === undefined ? undefined : { cursor });
      items.push(...((page[field] ?? []) as JsonObject[]));
      cursor = page["nextCursor"];
      if (cursor === undefined) return items;
      if (seen.has(cursor)) throw new Error(`${method}: the server repeated cursor ${JSON.stringify(cursor)}`);
      seen.add(cursor);
    }
  }

  /**
   * Calls `onChanged` when the server says a list changed. Handshake revisions send the
   * notifications on their own; revisions with `subscriptions/listen` send them on a subscription
   * the client opens, which stays open as long as the session.
   */
  watch(onChanged: (kinds: ListKind[]) => void, onError: (error: Error) => void): void {
    const byNotification = new Map<string, ListKind[]>();
    for (const kind of LIST_KINDS) {
      const changed = LISTS[kind].changed;
      byNotification.set(changed, [...(byNotification.get(changed) ?? []), kind]);
    }
    for (const [notification, kinds] of byNotification) this.client.on(notification, () => onChanged(kinds));

    const requests: readonly string[] = this.module.CLIENT_REQUEST_METHODS;
    if (!requests.includes(LISTEN)) return;
    const filter: JsonObject = {};
    const capabilities = this.client.server.serverCapabilities ?? {};
    for (const kind of LIST_KINDS) {
      const declared = capabilities[LISTS[kind].capability] as { listChanged?: boolean } | undefined;
      if (declared?.listChanged) filter[LISTS[kind].filter] = true;
    }
    if (Object.keys(filter).length === 0) return;
    this.client
      .request(LISTEN, { notifications: filter }, { signal: this.stopListening.signal, timeoutMs: FOREVER_MS })
      .catch((error: unknown) => {
        if (!this.stopListening.signal.aborted) onError(error instanceof Error ? error : new Error(String(error)));
      });
  }

  /** Calls `onLog` with each log message the server sends (checked by the generated client), in the view's types. */
  watchLog(onLog: (params: LogMessageParams) => void): void {
    this.client.on(LOG_MESSAGE, (params) => onLog(seen("notification", LOG_MESSAGE, params, this.module.PROJECTION)));
  }

  /** Tells the server its roots changed, where the revision has the notification. */
  async rootsChanged(): Promise<void> {
    const notifications: readonly string[] = this.module.CLIENT_NOTIFICATION_METHODS;
    if (notifications.includes(ROOTS_CHANGED)) await this.client.notify(ROOTS_CHANGED);
  }

  async close(): Promise<void> {
    this.stopListening.abort("the session is closing");
    await this.client.close();
  }
}

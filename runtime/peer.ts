// A JSON-RPC peer over a Transport: request ids and the pending map, per-request timeouts,
// cancellation both ways (AbortSignal out, a cancellation notification in), progress tokens
// routed to the caller's onProgress, its own answers checked before they go, and error objects
// that never leak a stack (a handler's fault names its request and is reported). It knows no
// revision: generated code passes the method names, the message validators and the handlers.
import { AbortListeners } from "./abort-listeners.js";
import type { AuthInfo } from "./auth/auth-info.js";
import { BatchReply } from "./batch.js";
import {
  ConnectionClosedError,
  ErrorCode,
  HandlerError,
  isObject,
  ResultValidationError,
  RpcError,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
  type ValidationIssue,
} from "./jsonrpc.js";
import type { TaskProgressFact } from "./rules/facts.js";
import { RuleViolation } from "./rules/violation.js";
import { RequestIdMap } from "./request-id-map.js";
import type { Transport, TransportSendOptions } from "./transport.js";

/** Rule ids (docs/protocol-rules.md) the Peer keeps for every revision. */
export const PROGRESS_INCREASES = "PROGRESS_INCREASES";
export const PROGRESS_ACTIVE = "PROGRESS_ACTIVE";
export const PROGRESS_TOKEN_UNIQUE = "PROGRESS_TOKEN_UNIQUE";
export const CANCEL_HANDSHAKE = "CANCEL_HANDSHAKE";
export const PROGRESS_TASK_TOKEN = "PROGRESS_TASK_TOKEN";
export const CANCEL_SERVER_LISTEN_ONLY = "CANCEL_SERVER_LISTEN_ONLY";

export type JsonObject = { [key: string]: unknown };

/** The verdict of the generated validators on one incoming message. */
export type Inspection =
  { readonly ok: true } | { readonly ok: false; readonly code: number; readonly issues: readonly ValidationIssue[] };

/** The pending request a response answers, as it was sent. */
export interface SentRequest {
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/** Validates an incoming message; `requestOf` gives the pending request a response answers. */
export type Inspector = (message: unknown, requestOf: (id: RequestId) => SentRequest | undefined) => Inspection;

/** A generated validator's verdict cut down to what the Peer reads: ok, or the code and issues. */
export function inspection(verdict: Inspection): Inspection {
  return verdict.ok ? { ok: true } : { ok: false, code: verdict.code, issues: verdict.issues };
}

/** What every incoming message comes with besides its params. */
export interface IncomingNotificationContext {
  /** The sender's verified access token, from transports that authenticate (HTTP with `auth`). */
  readonly authInfo?: AuthInfo | undefined;
}

export interface IncomingContext extends IncomingNotificationContext {
  readonly requestId: RequestId;
  /** Aborted when the other side cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The request's `params["_meta"]`, as sent. */
  readonly meta: JsonObject | undefined;
  /** Reports progress when the request asked for it (sent a progress token); otherwise does nothing. */
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

export interface PeerOptions {
  transport: Transport;
  /** Validates every incoming message; without it, only JSON-RPC structure is checked. */
  inspect?: Inspector;
  /**
   * Validates this side's own answers before they are sent, as a response to the request they
   * answer: one that fails is not sent; the caller gets -32603 naming the request and the failing
   * paths, and onError hears of it.
   */
  inspectAnswer?: Inspector;
  handleRequest(method: string, params: JsonObject | undefined, context: IncomingContext): Promise<unknown>;
  handleNotification(
    method: string,
    params: JsonObject | undefined,
    context: IncomingNotificationContext,
  ): void | Promise<void>;
  /**
   * The revision's cancellation notification, whether this side may send it, and the requests
   * that must never be cancelled (the handshake): none is sent for them, and one received is ignored.
   */
  cancellation?: {
    method: string;
    send: boolean;
    notFor?: readonly string[];
    /**
     * The other side cancels nothing but this side's own requests of these methods (a server
     * ending a subscription stream): such a cancellation is accepted (the request's answer
     * follows); one naming anything else is ignored and reported.
     */
    endsOwn?: readonly string[];
  };
  /** The revision's progress notification, and whether this side may send it. */
  progress?: { method: string; send: boolean };
  /**
   * The `_meta` key with which notifications name the request they belong to (a subscription's
   * id): such a notification also goes to that pending request's `onNotification`.
   */
  tagMeta?: string;
  /**
   * The revision has JSON-RPC batches (2025-03-26): an incoming array is served element by element
   * and its requests are answered with one array. Otherwise an array gets one Invalid Request error.
   */
  batches?: boolean;
  /**
   * Params fields that make a request task-augmented: such a request is cancelled through the
   * task, not the cancellation notification, and its progress goes on after its answer while the
   * task runs.
   */
  taskFields?: readonly string[];
  /**
   * How a task reports its status (from the model): with it, a task-augmented request's progress
   * token is the task's until a terminal status is seen, both for tasks this side runs (its
   * status notifications and tasks/get answers) and for tasks it asked for (the other side's);
   * progress after that is refused, or dropped and reported. Without it, progress for a task goes
   * on after its answer with no end.
   */
  tasks?: TaskProgressFact;
  /** Default per-request timeout (60 s). */
  timeoutMs?: number;
  /**
   * Problems no caller can be told about (unanswerable messages, failed sends), and this side's
   * own faults the caller is told of (HandlerError: a handler that threw anything but an
   * RpcError, an answer failing inspectAnswer).
   */
  onError?: (error: Error) => void;
  onClose?: () => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** The incoming request this one serves (routes it on transports with one stream per request). */
  relatedRequestId?: RequestId;
  timeoutMs?: number;
  /** Restart the timeout whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  onProgress?: (progress: JsonObject) => void;
  /** Notifications that name this request in their `_meta` (see PeerOptions.tagMeta), before the listeners see them. */
  onNotification?: (method: string, params: JsonObject | undefined) => void;
}

interface Pending {
  method: string;
  params: JsonObject | undefined;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  onProgress: ((progress: JsonObject) => void) | undefined;
  onNotification: ((method: string, params: JsonObject | undefined) => void) | undefined;
  restartTimer: (() => void) | undefined;
  /** The last progress value reported: each report must go beyond it. */
  lastProgress: number;
  cleanup(): void;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Tasks tracked at most per map; the oldest go first (a peer whose tasks never end cannot grow this one). */
const MAX_TASKS = 1024;

/** Progress of a task the other side runs for a request of this side's, after the request's answer. */
interface TaskProgress {
  readonly method: string;
  readonly onProgress: (progress: JsonObject) => void;
  readonly restartTimer?: undefined;
  lastProgress: number;
}

/** Shared by every peer, so that a caller's signal gets one listener from all of them. */
const abortListeners = new AbortListeners();

/**
 * An incoming request being handled, and the context its handler gets. One object per request:
 * its AbortController is made only when the handler looks at `signal` (most never do), and
 * `progress` is made on first use; both are getters so that a handler may destructure them.
 */
class IncomingRequest implements IncomingContext {
  private controller: AbortController | undefined;
  private reason: unknown;
  private progressFn: IncomingContext["progress"] | undefined;
  private lastProgress = -Infinity;
  cancelled = false;
  /** The handler has returned: only its answer is left to send, and nothing is left to cancel. */
  finished = false;
  readonly requestId: RequestId;
  readonly method: string;
  /** A task-augmented request: its answer is the task, and progress may follow it. */
  readonly task: boolean;
  /** The task its answer created (when the Peer knows how tasks are spelled), and whether it ended. */
  taskId: string | undefined;
  taskEnded = false;
  readonly meta: JsonObject | undefined;
  readonly authInfo: AuthInfo | undefined;
  private readonly peer: Peer;

  constructor(
    peer: Peer,
    id: RequestId,
    method: string,
    task: boolean,
    meta: JsonObject | undefined,
    authInfo: AuthInfo | undefined,
  ) {
    this.peer = peer;
    this.requestId = id;
    this.method = method;
    this.task = task;
    this.meta = meta;
    this.authInfo = authInfo;
  }

  /** The request's progress token, when it asked for progress. */
  get progressToken(): RequestId | undefined {
    const token = this.meta?.["progressToken"];
    return isRequestId(token) ? token : undefined;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get progress(): IncomingContext["progress"] {
    return (this.progressFn ??= async (update) => {
      const token = this.progressToken;
      if (token === undefined || this.cancelled) return;
      if (this.finished && this.taskEnded)
        throw new RuleViolation(
          PROGRESS_TASK_TOKEN,
          `progress for ${this.method} after its task ${JSON.stringify(this.taskId)} reached a terminal status: not sent`,
        );
      if (this.finished && !(this.task && (this.taskId !== undefined || !this.peer.knowsTasks)))
        throw new RuleViolation(PROGRESS_ACTIVE, `progress for ${this.method} after it was answered: not sent`);
      if (!(update.progress > this.lastProgress))
        throw new RuleViolation(
          PROGRESS_INCREASES,
          `progress ${update.progress} for ${this.method} does not go beyond ${this.lastProgress}: not sent`,
        );
      this.lastProgress = update.progress;
      await this.peer.sendProgress(token, update, this.requestId);
    });
  }

  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

export class Peer {
  private nextId = 1;
  // Keyed by the id itself (1 and "1" apart), in tables that cost the GC nothing per request.
  private readonly pending = new RequestIdMap<Pending>();
  private readonly inflight = new RequestIdMap<IncomingRequest>();
  /** Incoming requests that asked for progress, by their token: no two active requests share one. */
  private readonly progressTokens = new RequestIdMap<IncomingRequest>();
  /** Tasks this side runs, created by the answer to a task-augmented request, by task id. */
  private readonly ownTasks = new Map<string, IncomingRequest>();
  /** Tasks the other side runs for this side's requests that asked for progress: their progress, by token. */
  private readonly theirTasks = new Map<RequestId, TaskProgress>();
  /** The tokens of those tasks, by task id. */
  private readonly theirTaskTokens = new Map<string, RequestId>();
  /** Tokens of the other side's tasks that ended (the latest few): progress for them is late. */
  private readonly endedTaskTokens = new Set<RequestId>();
  /** This side's requests the other side may end by cancelling them (cancellation.endsOwn), the latest few. */
  private readonly endable = new Set<RequestId>();
  private idleWaiters: (() => void)[] = [];
  private closedFlag = false;

  private readonly options: PeerOptions;

  constructor(options: PeerOptions) {
    this.options = options;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Whether this peer knows how tasks report their status (PeerOptions.tasks). */
  get knowsTasks(): boolean {
    return this.options.tasks !== undefined;
  }

  async start(): Promise<void> {
    const transport = this.options.transport;
    transport.onmessage = (message, extra) => this.receive(message, authInfoOf(extra));
    transport.onerror = (error) => this.transportError(error);
    transport.onclose = () => this.shutdown("the transport closed");
    await transport.start();
  }

  request(method: string, params: JsonObject | undefined, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.closedFlag) return Promise.reject(new ConnectionClosedError());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    const key = id;
    const progress = options.onProgress && this.options.progress ? options.onProgress : undefined;
    const sent = progress
      ? { ...params, _meta: { ...(isObject(params?.["_meta"]) ? params["_meta"] : {}), progressToken: id } }
      : params;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (this.options.cancellation?.endsOwn?.includes(method)) {
      this.endable.add(id);
      if (this.endable.size > MAX_TASKS) this.endable.delete(this.endable.values().next().value as RequestId);
    }

    return new Promise<JsonObject>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let unwatch: (() => void) | undefined;
      const onAbort = () => {
        if (!this.settle(key)) return;
        this.cancel(id, method, sent, String(signal?.reason ?? "aborted"));
        reject(abortReason(signal as AbortSignal));
      };
      const startTimer = () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => {
          if (!this.settle(key)) return;
          this.cancel(id, method, sent, `timed out after ${timeoutMs} ms`);
          reject(new RpcError(ErrorCode.RequestTimeout, `${method} timed out after ${timeoutMs} ms`, { timeoutMs }));
        }, timeoutMs);
      };
      this.pending.set(key, {
        method,
        params: sent,
        resolve,
        reject,
        onProgress: progress,
        onNotification: options.onNotification,
        restartTimer: options.resetTimeoutOnProgress ? startTimer : undefined,
        lastProgress: -Infinity,
        cleanup: () => {
          if (timer !== undefined) clearTimeout(timer);
          unwatch?.();
        },
      });
      startTimer();
      if (signal) unwatch = abortListeners.add(signal, onAbort);
      const message: JsonRpcMessage =
        sent === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: sent };
      const related =
        options.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId };
      this.options.transport.send(message, related).catch((error: unknown) => {
        if (this.settle(key)) reject(asError(error));
      });
    });
  }

  async notify(method: string, params?: JsonObject, options?: TransportSendOptions): Promise<void> {
    if (this.closedFlag) throw new ConnectionClosedError();
    const message: JsonRpcMessage =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    await this.options.transport.send(message, options);
    const tasks = this.options.tasks;
    if (tasks && method === tasks.notification) this.ownTaskStatus(tasks, params);
  }

  /** Resolves once no request from the other side is being answered (graceful shutdown). */
  idle(): Promise<void> {
    if (this.inflight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closedFlag) return;
    this.shutdown("closed by this side");
    await this.options.transport.close();
  }

  /** Removes a pending request; false when it was already settled. */
  private settle(key: RequestId): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    this.pending.delete(key);
    entry.cleanup();
    return true;
  }

  private cancel(requestId: RequestId, method: string, params: JsonObject | undefined, reason: string): void {
    const cancellation = this.options.cancellation;
    if (this.closedFlag) return;
    // The handshake is never cancelled, and a task only through its own request: the caller
    // stops waiting, the other side still answers.
    if (cancellation?.notFor?.includes(method) || this.isTask(params)) return;
    // A transport with a channel per request cancels by closing it (2026-07-28 HTTP), not by a notification.
    if (this.options.transport.cancel?.(requestId)) return;
    if (!cancellation?.send) return;
    this.notify(cancellation.method, { requestId, reason }).catch((error: unknown) => this.report(asError(error)));
  }

  private shutdown(reason: string): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const pending = this.pending.values();
    this.pending.clear();
    for (const entry of pending) {
      entry.cleanup();
      entry.reject(new ConnectionClosedError(`connection closed (${reason}) before ${entry.method} was answered`));
    }
    // One error for all, made only when something is cancelled: an Error's stack trace is costly.
    let closed: ConnectionClosedError | undefined;
    for (const inflight of this.inflight.values())
      if (!inflight.finished) inflight.cancel((closed ??= new ConnectionClosedError()));
    this.inflight.clear();
    this.progressTokens.clear();
    this.ownTasks.clear();
    this.theirTasks.clear();
    this.theirTaskTokens.clear();
    this.wakeIdle();
    this.options.onClose?.();
  }

  private report(error: Error): void {
    this.options.onError?.(error);
  }

  /** A transport that cannot parse its input reports a SyntaxError: answer with a parse error. */
  private transportError(error: Error): void {
    if (error instanceof SyntaxError && !this.closedFlag) {
      this.sendError(undefined, { code: ErrorCode.ParseError, message: `Parse error: ${error.message}` });
    }
    this.report(error);
  }

  private requestOf = (id: RequestId): SentRequest | undefined => this.pending.get(id);

  private receive(message: unknown, authInfo: AuthInfo | undefined): void {
    try {
      if (Array.isArray(message)) this.receiveBatch(message, authInfo);
      else this.route(message, undefined, authInfo);
    } catch (error) {
      // Nothing a message contains may take the peer down.
      this.report(asError(error));
    }
  }

  /**
   * Each element is routed as a message of its own would be, except that the answers to its
   * requests (and errors for invalid elements) go into one array, sent when all are done.
   */
  private receiveBatch(items: readonly unknown[], authInfo: AuthInfo | undefined): void {
    const refuse = (message: string) => this.sendError(undefined, { code: ErrorCode.InvalidRequest, message });
    if (!this.options.batches) return refuse("Invalid request: this revision has no JSON-RPC batches");
    if (items.length === 0) return refuse("Invalid request: an empty batch");
    const batch = new BatchReply((replies) => this.sendBatch(replies));
    // A loop, not forEach: a hole in a sparse array is an invalid element, not a skipped one.
    for (let i = 0; i < items.length; i++) {
      try {
        this.route(items[i], batch, authInfo);
      } catch (error) {
        this.report(asError(error));
      }
    }
    batch.end();
  }

  private route(message: unknown, batch: BatchReply | undefined, authInfo: AuthInfo | undefined): void {
    const m = isObject(message) ? message : undefined;
    const id = m !== undefined && isRequestId(m["id"]) ? m["id"] : undefined;
    if (m && m["method"] === undefined && (m["result"] !== undefined || m["error"] !== undefined)) {
      this.receiveResponse(m, id);
      return;
    }
    // An array inside a batch is no message (the revision's validator would take it for a batch).
    const verdict = Array.isArray(message)
      ? structural(undefined)
      : (this.options.inspect?.(message, this.requestOf) ?? structural(m));
    if (!verdict.ok) {
      const isNotification = m !== undefined && typeof m["method"] === "string" && m["id"] === undefined;
      const error = {
        code: verdict.code,
        message: describe(verdict.code, verdict.issues),
        data: { issues: verdict.issues },
      };
      if (isNotification) this.report(new RpcError(error.code, error.message, error.data));
      else this.sendError(id, error, batch);
      return;
    }
    const method = (m as JsonObject)["method"] as string;
    const params = isObject((m as JsonObject)["params"]) ? ((m as JsonObject)["params"] as JsonObject) : undefined;
    if (id !== undefined) this.receiveRequest(id, method, params, batch, authInfo);
    else this.receiveNotification(method, params, authInfo);
  }

  private receiveResponse(m: JsonObject, id: RequestId | undefined): void {
    const key = id;
    const entry = key === undefined ? undefined : this.pending.get(key);
    if (!entry || key === undefined || id === undefined) {
      this.report(new Error(`a response to no pending request (id ${JSON.stringify(m["id"])})`));
      return;
    }
    const verdict = this.options.inspect?.(m, this.requestOf) ?? structural(m);
    this.settle(key);
    if (!verdict.ok) {
      // A malformed answer never passes for the other side's own error: it is ours to report.
      entry.reject(
        m["error"] !== undefined
          ? new RpcError(ErrorCode.InternalError, "malformed error response", { issues: verdict.issues })
          : new ResultValidationError(entry.method, verdict.issues),
      );
    } else if (m["error"] !== undefined) {
      entry.reject(toRpcError(m["error"]));
    } else {
      const tasks = this.options.tasks;
      if (tasks) this.theirTaskAnswer(tasks, key, entry, m["result"]);
      entry.resolve(m["result"] as JsonObject);
    }
  }

  private receiveRequest(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    batch: BatchReply | undefined,
    authInfo: AuthInfo | undefined,
  ): void {
    if (this.inflight.has(id)) {
      // Also a second request with the same id in one batch: the first is still being served.
      const error = { code: ErrorCode.InvalidRequest, message: `request id ${JSON.stringify(id)} is already in use` };
      this.sendError(id, error, batch);
      return;
    }
    const meta = isObject(params?.["_meta"]) ? params["_meta"] : undefined;
    const request = new IncomingRequest(this, id, method, this.isTask(params), meta, authInfo);
    const token = meta === undefined ? undefined : request.progressToken;
    if (token !== undefined) {
      if (this.progressTokens.has(token)) {
        const taken = new RuleViolation(
          PROGRESS_TOKEN_UNIQUE,
          `progress token ${JSON.stringify(token)} is already used by an active request`,
          ErrorCode.InvalidParams,
        );
        this.sendError(id, taken.toJSON(), batch);
        return;
      }
      this.progressTokens.set(token, request);
    }
    this.inflight.set(id, request);
    batch?.begin();
    void this.serve(request, method, params, batch);
  }

  /** Whether a request's params make it task-augmented. */
  private isTask(params: JsonObject | undefined): boolean {
    const fields = this.options.taskFields;
    if (fields === undefined || params === undefined) return false;
    for (const field of fields) if (params[field] !== undefined) return true;
    return false;
  }

  /** Progress for an incoming request, where this side may send it. */
  async sendProgress(token: RequestId, update: object, requestId: RequestId): Promise<void> {
    const progress = this.options.progress;
    if (!progress?.send) return;
    await this.notify(progress.method, { progressToken: token, ...update }, { relatedRequestId: requestId });
  }

  /** Runs a request's handler and sends its answer: now, or in a batch's one array. */
  private async serve(
    request: IncomingRequest,
    method: string,
    params: JsonObject | undefined,
    batch: BatchReply | undefined,
  ): Promise<void> {
    const id = request.requestId;
    try {
      let result: unknown;
      try {
        result = await this.options.handleRequest(method, params, request);
        request.finished = true;
      } catch (error) {
        request.finished = true;
        // A cancelled request gets no answer.
        if (!request.cancelled)
          await this.reply({ jsonrpc: "2.0", id, error: this.failure(method, params, error) }, batch);
        return;
      }
      if (request.cancelled) return;
      const invalid = this.checkAnswer(request, params, result);
      if (invalid) {
        this.report(invalid);
        await this.reply({ jsonrpc: "2.0", id, error: invalid.toJSON() }, batch);
        return;
      }
      const tasks = this.options.tasks;
      if (tasks) this.ownTaskAnswer(tasks, request, result);
      try {
        await this.reply({ jsonrpc: "2.0", id, result: (result ?? {}) as JsonObject }, batch);
      } catch (error) {
        // The answer could not be sent (it cannot be serialised, say): the caller still gets one.
        const fault = HandlerError.thrown(method, params, error);
        this.report(fault);
        await this.reply({ jsonrpc: "2.0", id, error: fault.toJSON() }, batch);
      }
    } catch (error) {
      this.report(asError(error));
    } finally {
      if (this.inflight.get(id) === request) this.inflight.delete(id);
      // Cancelled: no answer follows, so the transport need not keep the request's stream open.
      if (request.cancelled && !this.closedFlag) this.options.transport.unanswered?.(id);
      // A running task keeps its token until it ends (ownTaskStatus).
      const token = request.meta === undefined ? undefined : request.progressToken;
      const running = request.taskId !== undefined && !request.taskEnded;
      if (token !== undefined && !running && this.progressTokens.get(token) === request)
        this.progressTokens.delete(token);
      batch?.end();
      if (this.inflight.size === 0) this.wakeIdle();
    }
  }

  /**
   * What a handler's failure is on the wire: an RpcError as it is (an invalid answer this side
   * received while handling the request is not the caller's fault: -32603); anything else is a
   * HandlerError naming the request, and reported.
   */
  private failure(method: string, params: JsonObject | undefined, error: unknown): JsonRpcErrorObject {
    if (error instanceof ResultValidationError) return { code: ErrorCode.InternalError, message: error.message };
    const fault = error instanceof RpcError ? error : HandlerError.thrown(method, params, error);
    if (fault instanceof HandlerError) this.report(fault);
    return fault.toJSON();
  }

  /** This side's answer, checked by inspectAnswer; undefined when it may be sent. */
  private checkAnswer(
    request: IncomingRequest,
    params: JsonObject | undefined,
    result: unknown,
  ): HandlerError | undefined {
    const inspect = this.options.inspectAnswer;
    if (!inspect) return undefined;
    const sent: SentRequest = { method: request.method, params };
    const verdict = inspect({ jsonrpc: "2.0", id: request.requestId, result: result ?? {} }, () => sent);
    if (verdict.ok) return undefined;
    // Paths relative to the result, as the handler wrote it.
    const issues = verdict.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^\/result(?=\/|$)/, "") }));
    return HandlerError.invalid(request.method, params, result, issues);
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** An answer in a batch waits for the others; sendBatch deals with one that cannot be sent. */
  private async reply(message: JsonRpcMessage, batch: BatchReply | undefined): Promise<void> {
    if (batch) batch.add(message);
    else await this.options.transport.send(message);
  }

  private receiveNotification(method: string, params: JsonObject | undefined, authInfo: AuthInfo | undefined): void {
    if (method === this.options.cancellation?.method) {
      const target = params?.["requestId"];
      const ends = this.options.cancellation.endsOwn;
      if (ends) {
        // Only a request of this side's that the other side may end; its answer closes it.
        if (isRequestId(target) && this.endable.has(target)) return;
        const detail = `${method} for ${JSON.stringify(target)}, which is no ${ends.join(" or ")} request of this side's: ignored`;
        this.report(new RuleViolation(CANCEL_SERVER_LISTEN_ONLY, detail));
        return;
      }
      const request = isRequestId(target) ? this.inflight.get(target) : undefined;
      if (request && this.options.cancellation.notFor?.includes(request.method)) {
        this.report(
          new RuleViolation(CANCEL_HANDSHAKE, `${method} for ${request.method}, which is never cancelled: ignored`),
        );
        return;
      }
      request?.cancel(params?.["reason"] ?? "cancelled by the other side");
      return;
    }
    if (method === this.options.progress?.method) {
      const token = params?.["progressToken"];
      const entry = isRequestId(token) ? (this.pending.get(token) ?? this.theirTasks.get(token)) : undefined;
      if (!entry && isRequestId(token) && this.endedTaskTokens.has(token)) {
        const detail = `progress for token ${JSON.stringify(token)} after its task reached a terminal status: ignored`;
        this.report(new RuleViolation(PROGRESS_TASK_TOKEN, detail));
        return;
      }
      if (entry && params) {
        const progress = params["progress"];
        if (typeof progress === "number" && !(progress > entry.lastProgress)) {
          const detail = `progress ${progress} for ${entry.method} does not go beyond ${entry.lastProgress}: ignored`;
          this.report(new RuleViolation(PROGRESS_INCREASES, detail));
          return;
        }
        if (typeof progress === "number") entry.lastProgress = progress;
        entry.restartTimer?.();
        entry.onProgress?.(params);
      }
      return;
    }
    const tasks = this.options.tasks;
    if (tasks && method === tasks.notification) this.theirTaskStatus(tasks, params);
    const meta = params?.["_meta"];
    const tag = this.options.tagMeta !== undefined && isObject(meta) ? meta[this.options.tagMeta] : undefined;
    if (isRequestId(tag)) this.pending.get(tag)?.onNotification?.(method, params);
    Promise.resolve()
      .then(() => this.options.handleNotification(method, params, { authInfo }))
      .catch((error: unknown) => this.report(asError(error)));
  }

  /**
   * This side's answer to a request: a task-augmented one that created a task keeps its progress
   * token for the task; a task's status (tasks/get, tasks/cancel) may end one.
   */
  private ownTaskAnswer(tasks: TaskProgressFact, request: IncomingRequest, result: unknown): void {
    if (tasks.results.includes(request.method)) this.ownTaskStatus(tasks, result);
    if (!request.task || !isObject(result)) return;
    const task = result[tasks.created];
    const taskId = isObject(task) ? task[tasks.id] : undefined;
    if (typeof taskId !== "string") return;
    request.taskId = taskId;
    this.ownTasks.set(taskId, request);
    if (this.ownTasks.size > MAX_TASKS) this.endOwnTask(this.ownTasks.keys().next().value as string);
    if (isObject(task) && tasks.terminal.includes(task[tasks.status] as string)) this.endOwnTask(taskId);
  }

  /** A status this side reports for a task it runs: a terminal one ends the task's progress. */
  private ownTaskStatus(tasks: TaskProgressFact, status: unknown): void {
    if (!isObject(status) || !tasks.terminal.includes(status[tasks.status] as string)) return;
    const taskId = status[tasks.id];
    if (typeof taskId === "string") this.endOwnTask(taskId);
  }

  private endOwnTask(taskId: string): void {
    const request = this.ownTasks.get(taskId);
    if (!request) return;
    this.ownTasks.delete(taskId);
    request.taskEnded = true;
    const token = request.meta === undefined ? undefined : request.progressToken;
    if (token !== undefined && this.progressTokens.get(token) === request) this.progressTokens.delete(token);
  }

  /**
   * The other side's answer to a request of this side's: a task created for one that asked for
   * progress keeps the progress coming; a task's status (tasks/get, tasks/cancel) may end one.
   */
  private theirTaskAnswer(tasks: TaskProgressFact, key: RequestId, entry: Pending, result: unknown): void {
    if (tasks.results.includes(entry.method)) this.theirTaskStatus(tasks, result);
    if (!entry.onProgress || !this.isTask(entry.params) || !isObject(result)) return;
    const task = result[tasks.created];
    const taskId = isObject(task) ? task[tasks.id] : undefined;
    if (typeof taskId !== "string") return;
    this.theirTasks.set(key, { method: entry.method, onProgress: entry.onProgress, lastProgress: entry.lastProgress });
    this.theirTaskTokens.set(taskId, key);
    if (this.theirTaskTokens.size > MAX_TASKS) this.endTheirTask(this.theirTaskTokens.keys().next().value as string);
    if (isObject(task) && tasks.terminal.includes(task[tasks.status] as string)) this.endTheirTask(taskId);
  }

  /** A status the other side reports for a task it runs: a terminal one ends the task's progress. */
  private theirTaskStatus(tasks: TaskProgressFact, status: unknown): void {
    if (!isObject(status) || !tasks.terminal.includes(status[tasks.status] as string)) return;
    const taskId = status[tasks.id];
    if (typeof taskId === "string") this.endTheirTask(taskId);
  }

  private endTheirTask(taskId: string): void {
    const token = this.theirTaskTokens.get(taskId);
    if (token === undefined) return;
    this.theirTaskTokens.delete(taskId);
    this.theirTasks.delete(token);
    this.endedTaskTokens.add(token);
    if (this.endedTaskTokens.size > MAX_TASKS)
      this.endedTaskTokens.delete(this.endedTaskTokens.values().next().value as RequestId);
  }

  /** An error response, sent now or, for an element of a batch, with the batch's other answers. */
  private sendError(id: RequestId | undefined, error: JsonRpcErrorObject, batch?: BatchReply): void {
    if (batch) return batch.add(errorMessage(id, error));
    if (this.closedFlag) return;
    this.options.transport.send(errorMessage(id, error)).catch((e: unknown) => this.report(asError(e)));
  }

  /**
   * A batch's answers, as one array. When the array cannot be sent (an answer that cannot be
   * serialised, say), the answers that can be go again, the others replaced by -32603 errors.
   */
  private sendBatch(replies: JsonRpcMessage[]): void {
    if (this.closedFlag) return;
    const transport = this.options.transport;
    transport
      .send(replies)
      .catch((error: unknown) => {
        this.report(asError(error));
        const internal = { code: ErrorCode.InternalError, message: "Internal error" };
        const repaired = replies.map((reply) =>
          serialisable(reply) ? reply : errorMessage("id" in reply ? reply.id : undefined, internal),
        );
        return transport.send(repaired);
      })
      .catch((error: unknown) => this.report(asError(error)));
  }
}

function errorMessage(id: RequestId | undefined, error: JsonRpcErrorObject): JsonRpcMessage {
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

function serialisable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** The authInfo a transport passes with a message (ours, and the official SDK's, put it there). */
function authInfoOf(extra: object | undefined): AuthInfo | undefined {
  const authInfo = isObject(extra) ? extra["authInfo"] : undefined;
  return isObject(authInfo) ? (authInfo as unknown as AuthInfo) : undefined;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** JSON-RPC structure only, for peers that run without the generated validators. */
function structural(m: JsonObject | undefined): Inspection {
  const fail = (message: string): Inspection => ({
    ok: false,
    code: ErrorCode.InvalidRequest,
    issues: [{ path: "", expected: "a JSON-RPC 2.0 message", message }],
  });
  if (!m) return fail("not a JSON object");
  if (m["jsonrpc"] !== "2.0") return fail('jsonrpc must be "2.0"');
  if (m["method"] !== undefined && typeof m["method"] !== "string") return fail("method must be a string");
  if (m["id"] !== undefined && !isRequestId(m["id"])) return fail("id must be a string or a number");
  if (m["method"] === undefined && m["result"] === undefined && m["error"] === undefined)
    return fail("no method, result or error");
  return { ok: true };
}

function describe(code: number, issues: readonly ValidationIssue[]): string {
  const name =
    code === ErrorCode.ParseError
      ? "Parse error"
      : code === ErrorCode.InvalidRequest
        ? "Invalid request"
        : code === ErrorCode.MethodNotFound
          ? "Method not found"
          : code === ErrorCode.InvalidParams
            ? "Invalid params"
            : "Error";
  const first = issues[0];
  if (!first) return name;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${name}: ${first.path || "(root)"}: ${first.message}${more}`;
}

function toRpcError(error: unknown): RpcError {
  if (isObject(error)) {
    const { code, message, data } = error;
    if (typeof code === "number" && typeof message === "string") return new RpcError(code, message, data);
  }
  return new RpcError(ErrorCode.InternalError, "malformed error response", { error });
}

/** The error an aborted call rejects with: the signal's reason when it is an Error. */
export class AbortError extends Error {
  constructor(reason: unknown) {
    super(typeof reason === "string" ? reason : "aborted");
    this.name = "AbortError";
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new AbortError(signal.reason);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

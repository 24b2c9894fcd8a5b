// One server's life: start it, negotiate, keep its session; when its connection ends on its own
// (a crash), mark it down, fail what was pending with ServerDownError and start it again after a
// delay that doubles up to a bound, giving up after a bounded number of failures in a row. A start
// refused authorization is not tried again on its own (that would send the user to the browser
// again and again): the next call starts it, and so asks anew. Its status carries the latest
// authorization that failed, whether at a start or for one call while the server stays up.
import { AuthorizationError } from "../runtime/auth/client/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { ConnectionClosedError, ErrorCode, RpcError, isObject, type Transport } from "../runtime/index.js";
import type { ServerSpec } from "./config.js";
import { ServerDownError, ServerTimeoutError } from "./errors.js";
import { Handover } from "./handover.js";
import { negotiate, type OpenClient } from "./negotiate.js";
import type { Implementation, Revision } from "./revisions.js";
import { Session } from "./session.js";
import { transportKind, type TransportKind } from "./transport.js";

export type ServerState = "idle" | "starting" | "up" | "down" | "failed" | "unauthorized" | "closed";

export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  /** The revision negotiated on the last successful start. */
  readonly revision: Revision | undefined;
  /** How the server was reached on the last successful start (undefined for the caller's own transport). */
  readonly transport: TransportKind | undefined;
  /** The process id of a stdio server's current (or last) process. */
  readonly pid: number | undefined;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** How many times the server was started again after a failure. */
  readonly restarts: number;
  /** Why the server is down, failed or unauthorized. */
  readonly error: Error | undefined;
  /**
   * The latest authorization for this server that failed (the user declined, a wrong `iss`, not
   * enough scope, …), until a new token comes: at a start (state `unauthorized`) or for one call,
   * which failed with it while the others went on.
   */
  readonly authorization: AuthorizationError | undefined;
  /** The end of what a stdio server wrote to stderr. */
  readonly stderr: string;
}

export interface RestartPolicy {
  /** Delay before the first restart (ms, default 250); it doubles with each failure in a row. */
  initialDelayMs?: number;
  /** Longest delay (ms, default 10 000); a server up this long is forgiven its earlier failures. */
  maxDelayMs?: number;
  /** Failures in a row before the server is given up as failed (default 6). */
  maxAttempts?: number;
}

export interface SupervisorOptions {
  spec: ServerSpec;
  /** `onAuthorization` hears of the server's authorization (host/auth.ts), for its status. */
  createTransport(spec: ServerSpec, onAuthorization: (failure: AuthorizationError | undefined) => void): Transport;
  open: OpenClient;
  restart: Required<RestartPolicy> | false;
  /** Runs on each successful start before the server counts as up (the host loads its lists). */
  onSession(session: Session): Promise<void>;
  onStatus(status: ServerStatus): void;
}

const STDERR_TAIL = 4096;

export class Supervisor {
  private state: ServerState = "idle";
  private session: Session | undefined;
  private handover: Handover | undefined;
  private revision: Revision | undefined;
  private transport: TransportKind | undefined;
  private pid: number | undefined;
  private error: Error | undefined;
  private authorization: AuthorizationError | undefined;
  /** The start a call made after a refused authorization: calls meanwhile wait for it too. */
  private asking: Promise<void> | undefined;
  private stderr = "";
  private restarts = 0;
  private failures = 0;
  private upSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closing = false;
  private starting: Promise<void> | undefined;

  constructor(private readonly options: SupervisorOptions) {}

  get name(): string {
    return this.options.spec.name;
  }

  get status(): ServerStatus {
    return {
      name: this.name,
      state: this.state,
      revision: this.revision,
      transport: this.transport,
      pid: this.pid,
      serverInfo: this.session?.serverInfo,
      instructions: this.session?.instructions,
      restarts: this.restarts,
      error: this.error,
      authorization: this.authorization,
      stderr: this.stderr,
    };
  }

  /** The current session; ServerDownError when there is none. */
  current(): Session {
    if (this.state === "up" && this.session) return this.session;
    throw new ServerDownError(
      this.name,
      this.state === "idle" ? "the host is not connected" : (this.error?.message ?? this.state),
    );
  }

  /** The current session, once a server refused authorization at its start has been started again. */
  async ready(): Promise<Session> {
    if (this.state === "unauthorized") this.asking = this.attempt().finally(() => (this.asking = undefined));
    await this.asking;
    // Refused again: the call that asked fails with the refusal itself.
    if (this.state === "unauthorized" && this.error) throw this.error;
    return this.current();
  }

  /** Runs one request on the current session, with errors that name this server. */
  async use<T>(method: string, call: (session: Session) => Promise<T>): Promise<T> {
    const session = await this.ready();
    try {
      return await call(session);
    } catch (error) {
      if (error instanceof ConnectionClosedError && !(error instanceof ServerDownError))
        throw new ServerDownError(this.name, error.message);
      if (error instanceof RpcError && error.code === ErrorCode.RequestTimeout && isObject(error.data))
        throw new ServerTimeoutError(this.name, method, error.data["timeoutMs"]);
      throw error;
    }
  }

  /** The first start; resolves when the server is up or has failed its first attempt. */
  start(): Promise<void> {
    return this.attempt();
  }

  /** Stops the server (and any start or restart in progress); resolves when its process is gone. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const session = this.session;
    this.session = undefined;
    await session?.close().catch(() => {});
    await this.handover?.close().catch(() => {});
    await this.starting;
    this.set("closed");
  }

  private attempt(): Promise<void> {
    this.timer = undefined;
    this.starting = this.run().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async run(): Promise<void> {
    if (this.closing) return;
    this.set("starting");
    let transport: Transport;
    try {
      transport = this.options.createTransport(this.options.spec, (failure) => this.authorized(failure));
    } catch (error) {
      // No way to reach the server (the caller's transport factory threw): starting again cannot help.
      this.error = error instanceof Error ? error : new Error(String(error));
      return this.set("failed");
    }
    let handover: Handover | undefined;
    const gone = () =>
      new ConnectionClosedError(this.closing ? "the host is closing" : "the server's connection closed");
    try {
      handover = new Handover(transport, () => this.lost(handover));
      this.handover = handover;
      await handover.start();
      this.watchProcess(transport);
      // close() may have come while the process was being spawned.
      if (this.closing) throw gone();
      const { module, client } = await negotiate(this.name, handover, this.options.open);
      const session = new Session(module, client);
      this.session = session;
      this.revision = session.revision;
      this.transport = transportKind(transport);
      await this.options.onSession(session);
      if (this.closing || handover.closed) throw gone();
      this.upSince = Date.now();
      this.error = undefined;
      this.set("up");
    } catch (error) {
      this.session = undefined;
      await handover?.close().catch(() => {});
      if (this.closing) return;
      const reason = error instanceof Error ? error : new Error(String(error));
      if (!(reason instanceof AuthorizationError) || reason.reason === "unavailable") return this.down(reason, false);
      // Refused, not unreachable: only a call starts it again (ready()), asking the user anew.
      this.error = reason;
      this.set("unauthorized");
    }
  }

  /** What the server's authorizing fetch reports: a failed authorization, or undefined for a new token. */
  private authorized(failure: AuthorizationError | undefined): void {
    if (failure === this.authorization) return;
    this.authorization = failure;
    this.options.onStatus(this.status);
  }

  /** The connection ended. While starting, the start fails on its own; once up, this is a crash. */
  private lost(handover: Handover | undefined): void {
    if (handover !== this.handover || this.closing || this.state !== "up") return;
    this.session = undefined;
    this.down(new ConnectionClosedError("the server's connection closed"), true);
  }

  private down(error: Error, wasUp: boolean): void {
    this.error = error;
    const policy = this.options.restart;
    if (!policy) return this.set("down");
    // A server that stayed up long enough starts a new count of failures.
    if (wasUp && Date.now() - this.upSince >= policy.maxDelayMs) this.failures = 0;
    this.failures += 1;
    if (this.failures > policy.maxAttempts) return this.set("failed");
    this.set("down");
    const delay = Math.min(policy.initialDelayMs * 2 ** (this.failures - 1), policy.maxDelayMs);
    this.timer = setTimeout(() => {
      this.restarts += 1;
      void this.attempt();
    }, delay);
  }

  private watchProcess(transport: Transport): void {
    if (!(transport instanceof StdioClientTransport)) return;
    this.pid = transport.pid;
    const stderr = transport.stderr;
    stderr?.setEncoding("utf8");
    stderr?.on("data", (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
  }

  private set(state: ServerState): void {
    this.state = state;
    this.options.onStatus(this.status);
  }
}

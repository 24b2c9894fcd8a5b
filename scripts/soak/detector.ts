// What the soak measures in its own process, and when that is a leak: process warnings, the heap
// after a full GC, active resources (process.getActiveResourcesInfo(): sockets, timers, child
// processes, …; unref'd timers are not among them) and the listeners on long-lived emitters and
// signals. The emitters watched are the process, every socket (client and server side, seen
// through node:diagnostics_channel), every node:http server, every signal handed to fetch more
// than once, and whatever the caller adds.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { defaultMaxListeners, EventEmitter, getEventListeners } from "node:events";
import { Server as HttpServer } from "node:http";
import { Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The limits of issue 19. */
export const LIMITS = {
  /** Heap after GC may grow this much between the 10% and 100% marks. */
  heapGrowthBytes: 5 * 1024 * 1024,
} as const;

/** One measurement, taken with nothing in flight. */
export interface Sample {
  readonly label: string;
  /** Heap in use after a full GC, in bytes. */
  readonly heapBytes: number;
  /** Active resources by type (TCPSocketWrap, Timeout, ProcessWrap, …). */
  readonly resources: { readonly [type: string]: number };
  /** Listeners on each watched emitter or signal that is still alive, by emitter. */
  readonly listeners: ReadonlyMap<object, number>;
}

let gc: (() => void) | undefined;

/** A full garbage collection (`--expose-gc` is switched on here when the process lacks it). */
export function collectGarbage(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    }
  }
  gc();
}

/** Lets the event loop turn until whatever just ended (sockets closing, finalizers) has run. */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

export function activeResources(): { [type: string]: number } {
  const counts: { [type: string]: number } = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

function listenerCount(target: object): number | undefined {
  if (target instanceof EventEmitter) {
    // A destroyed socket is no longer long-lived: its listeners go with it.
    if ((target as { destroyed?: boolean }).destroyed === true) return undefined;
    return target.eventNames().reduce((sum, name) => sum + target.listenerCount(name), 0);
  }
  if (target instanceof AbortSignal) return getEventListeners(target, "abort").length;
  return undefined;
}

/** What an emitter is, for a report: its class and the events it has listeners for. */
export function describeTarget(target: object): string {
  const name = target.constructor?.name ?? "object";
  if (target instanceof EventEmitter) {
    const events = target.eventNames().map((event) => `${String(event)}×${target.listenerCount(event)}`);
    return `${name} (${events.join(", ")})`;
  }
  return name;
}

const CHANNELS = ["net.client.socket", "net.server.socket", "http.server.request.start"] as const;

export class Detector {
  readonly warnings: Error[] = [];
  /** Signals given to fetch again and again that gathered listeners, one line each. */
  readonly crowdedSignals: string[] = [];
  private readonly watched: WeakRef<object>[] = [];
  private readonly seen = new WeakSet<object>();
  private readonly onWarning = (warning: Error) => this.warnings.push(warning);
  private readonly onChannel = (message: unknown) => {
    const { socket, server } = message as { socket?: object; server?: object };
    if (socket) this.watch(socket);
    if (server) this.watch(server);
  };
  private realFetch: typeof fetch | undefined;
  /** Signals handed to fetch once: one handed over again is long-lived, and watched. */
  private readonly fetchSignals = new WeakSet<AbortSignal>();
  private readonly crowded = new WeakSet<AbortSignal>();
  /** Fetches waiting for their response (a cancellation notification still being posted, say). */
  private fetching = 0;

  /** Starts listening: warnings, sockets and servers as they appear, and the signals given to fetch. */
  start(): this {
    process.on("warning", this.onWarning);
    for (const channel of CHANNELS) subscribe(channel, this.onChannel);
    this.watch(process);
    const realFetch = globalThis.fetch;
    this.realFetch = realFetch;
    globalThis.fetch = async (input, init) => {
      if (init?.signal) this.handedToFetch(init.signal);
      this.fetching++;
      try {
        return await realFetch(input, init);
      } finally {
        this.fetching--;
      }
    };
    return this;
  }

  stop(): void {
    process.off("warning", this.onWarning);
    for (const channel of CHANNELS) unsubscribe(channel, this.onChannel);
    if (this.realFetch) globalThis.fetch = this.realFetch;
  }

  /**
   * A signal given to a fetch. Fetch leaves an abort listener on it per request until that request
   * is garbage-collected, so one given again and again gathers them; they are counted here, as
   * they gather (a collection before a sample may hide them), against Node's own limit of 10.
   */
  private handedToFetch(signal: AbortSignal): void {
    if (!this.fetchSignals.has(signal)) return void this.fetchSignals.add(signal);
    this.watch(signal);
    const count = getEventListeners(signal, "abort").length;
    if (count <= defaultMaxListeners || this.crowded.has(signal)) return;
    this.crowded.add(signal);
    this.crowdedSignals.push(
      `an AbortSignal given to fetch again and again held ${count} abort listeners (Node warns past ${defaultMaxListeners})`,
    );
  }

  /** Watches a long-lived emitter or signal (held weakly: it may go away). */
  watch(target: object): void {
    if (this.seen.has(target)) return;
    this.seen.add(target);
    this.watched.push(new WeakRef(target));
  }

  /**
   * Measures, once the event loop has settled and garbage is collected. Idle keep-alive
   * connections to this process's HTTP servers are closed first: a pool's size follows the load,
   * and what is counted is what something holds open. That includes a connection fetch's pool
   * opened and never sent a request on: node:http counts it as awaiting its first request's
   * headers (until headersTimeout), so closeIdleConnections() leaves it, and it is closed here.
   */
  async sample(label: string): Promise<Sample> {
    // What the clients still send on their own (cancellations follow a rejected call) goes first.
    for (let waited = 0; this.fetching > 0 && waited < 100; waited++) await settle(1);
    for (const ref of this.watched) {
      const target = ref.deref();
      if (target instanceof HttpServer) target.closeIdleConnections();
      else if (target instanceof Socket && neverUsed(target)) target.destroy();
    }
    await settle();
    collectGarbage();
    // Finalizers (fetch drops a request's abort listener in one) run after the collection.
    await settle(2);
    collectGarbage();
    const heapBytes = process.memoryUsage().heapUsed;
    // Only now: whatever deref() returns is kept alive until the event loop turns.
    const listeners = new Map<object, number>();
    const alive = this.watched.filter((ref) => {
      const target = ref.deref();
      const count = target && listenerCount(target);
      if (target && count !== undefined) listeners.set(target, count);
      return target !== undefined;
    });
    this.watched.length = 0;
    this.watched.push(...alive);
    return { label, heapBytes, resources: activeResources(), listeners };
  }
}

/** A connection to one of this process's HTTP servers that has not carried a byte. */
function neverUsed(socket: Socket): boolean {
  return (socket as { server?: unknown }).server instanceof HttpServer && socket.bytesRead === 0 && !socket.destroyed;
}

/**
 * What is wrong between a phase's 10% and 100% marks: the heap after GC grew more than the limit,
 * a type of active resource grew at all, or the listeners on a long-lived emitter or signal grew.
 */
export function judgePhase(first: Sample, last: Sample): string[] {
  const problems: string[] = [];
  const heapGrowth = last.heapBytes - first.heapBytes;
  if (heapGrowth > LIMITS.heapGrowthBytes)
    problems.push(
      `heap after GC grew ${mb(heapGrowth)} from ${first.label} to ${last.label} (limit ${mb(LIMITS.heapGrowthBytes)})`,
    );
  problems.push(...judgeResources(first, last));
  for (const [target, count] of last.listeners) {
    const before = first.listeners.get(target);
    if (before !== undefined && count > before)
      problems.push(`listeners on a long-lived ${describeTarget(target)} grew from ${before} to ${count}`);
  }
  return problems;
}

/**
 * Active resources that grew from one mark to the next, by type. No growth is allowed: at a mark
 * nothing is in flight and idle connections are closed (see sample()), so what the soak holds
 * open (child processes and their pipes, its servers, the 2025-era GET stream, the host's listen
 * request) is the same at every mark of a phase. Only something still closing when a sample is
 * taken could tell otherwise, and such a mark is taken again a few times (run.ts).
 */
export function judgeResources(first: Sample, last: Sample): string[] {
  return Object.entries(last.resources)
    .filter(([type, count]) => count > (first.resources[type] ?? 0))
    .map(([type, count]) => `active ${type} grew from ${first.resources[type] ?? 0} to ${count}`);
}

/** Resources left behind: more of a type after everything closed than before it started. */
export function judgeLeftovers(before: Sample, after: Sample): string[] {
  return Object.keys(after.resources)
    .filter((type) => (after.resources[type] ?? 0) > (before.resources[type] ?? 0))
    .map(
      (type) => `${type} left open after close: ${before.resources[type] ?? 0} before, ${after.resources[type]} after`,
    );
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// The soak's load: `calls` tools/call and `lists` tools/list against one client, one at a time or
// with `concurrency` in flight. Every 10th call reports progress twice, every 100th is cancelled
// once the server says it runs; every answer is checked. Requests are counted in and out: one that
// has not settled when nothing else has for `stallMs` is one that never will, and ends the phase.

/** What the workload asks of a client, whatever stands behind it (a generated client, the host). */
export interface SoakClient {
  /** tools/call of a tool that echoes `text`; resolves with the text answered. */
  echo(text: string, options: CallOptions): Promise<string>;
  /** tools/call of a tool that reports progress twice before it answers. */
  progress(options: CallOptions & { onProgress: () => void }): Promise<void>;
  /** tools/call of a tool that reports progress once, then runs until cancelled. */
  hang(options: CallOptions & { onProgress: () => void }): Promise<void>;
  /** tools/list (or what stands for it); resolves once answered. */
  list(options: CallOptions): Promise<void>;
}

export interface CallOptions {
  readonly signal: AbortSignal;
}

export interface Mix {
  readonly calls: number;
  readonly lists: number;
}

export interface PhaseCounts {
  calls: number;
  lists: number;
  progressed: number;
  cancelled: number;
  failed: number;
}

/** The phase ended with requests that never settled. */
export class StalledError extends Error {
  constructor(
    readonly outstanding: number,
    stallMs: number,
  ) {
    super(`${outstanding} request(s) had not settled after ${stallMs} ms without any other settling`);
    this.name = "StalledError";
  }
}

const PROGRESS_EVERY = 10;
const CANCEL_EVERY = 100;

/** The kind of the i-th operation of a mix: lists are spread evenly among the calls. */
function kindOf(i: number, mix: Mix): { kind: "list" } | { kind: "call"; call: number } {
  const total = mix.calls + mix.lists;
  // List k sits at the end of the k-th of `lists` equal slices.
  const slice = total / mix.lists;
  if (mix.lists > 0 && Math.floor((i + 1) / slice) > Math.floor(i / slice)) return { kind: "list" };
  return { kind: "call", call: i - Math.floor(i / slice) };
}

export class Workload {
  readonly counts: PhaseCounts = { calls: 0, lists: 0, progressed: 0, cancelled: 0, failed: 0 };
  /** The first failures, for the report. */
  readonly failures: string[] = [];
  private outstanding = 0;
  private lastSettled = 0;

  constructor(
    private readonly client: SoakClient,
    private readonly mix: Mix,
    /** A long-lived signal every call carries (an application's shutdown signal, say). */
    private readonly signal: AbortSignal,
    private readonly stallMs: number,
  ) {}

  get total(): number {
    return this.mix.calls + this.mix.lists;
  }

  /** Runs operations [from, to) with `concurrency` in flight; rejects with StalledError. */
  async run(from: number, to: number, concurrency: number): Promise<void> {
    let next = from;
    const worker = async () => {
      while (next < to) await this.one(next++);
    };
    this.lastSettled = performance.now();
    let watchdog: ReturnType<typeof setInterval> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      watchdog = setInterval(
        () => {
          if (this.outstanding > 0 && performance.now() - this.lastSettled > this.stallMs)
            reject(new StalledError(this.outstanding, this.stallMs));
        },
        Math.min(1000, this.stallMs),
      );
    });
    try {
      await Promise.race([Promise.all(Array.from({ length: concurrency }, worker)), stalled]);
    } finally {
      clearInterval(watchdog);
    }
  }

  private async one(i: number): Promise<void> {
    const op = kindOf(i, this.mix);
    this.outstanding++;
    try {
      if (op.kind === "list") {
        await this.client.list({ signal: this.signal });
        this.counts.lists++;
      } else if (op.call % CANCEL_EVERY === CANCEL_EVERY - 1) await this.cancelled();
      else if (op.call % PROGRESS_EVERY === PROGRESS_EVERY - 1) await this.progressed();
      else {
        const text = `soak ${i}`;
        const answer = await this.client.echo(text, { signal: this.signal });
        if (answer !== text) throw new Error(`echo answered ${JSON.stringify(answer)} to ${JSON.stringify(text)}`);
        this.counts.calls++;
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.outstanding--;
      this.lastSettled = performance.now();
    }
  }

  private async progressed(): Promise<void> {
    let reports = 0;
    await this.client.progress({ signal: this.signal, onProgress: () => reports++ });
    if (reports !== 2) throw new Error(`a call reporting progress twice was heard ${reports} time(s)`);
    this.counts.calls++;
    this.counts.progressed++;
  }

  /** A call cancelled once it runs: it must reject with the reason given. */
  private async cancelled(): Promise<void> {
    const controller = new AbortController();
    const reason = new Error("cancelled by the soak");
    try {
      await this.client.hang({ signal: controller.signal, onProgress: () => controller.abort(reason) });
    } catch (error) {
      if (error !== reason) throw error;
      this.counts.calls++;
      this.counts.cancelled++;
      return;
    }
    throw new Error("a cancelled call was answered");
  }

  private fail(error: unknown): void {
    this.counts.failed++;
    if (this.failures.length < 5) this.failures.push(error instanceof Error ? error.message : String(error));
  }
}

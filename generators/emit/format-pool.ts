// Prettier on worker threads, for the repository build: formatting is most of a cold `generate`, and
// the main thread meanwhile parses the next revision with ts-morph. A worker loads prettier as it starts.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { formatCache } from "./format-cache.js";

type Options = Readonly<Record<string, unknown>>;

// babel-ts rather than typescript: the same output on everything mcp-gen prints (checked on all the
// generated files) in about half the time, and most of a cold `generate` is prettier.
export const PRETTIER = { parser: "babel-ts", printWidth: 100 } as const;

interface Job {
  resolve: (formatted: string) => void;
  reject: (error: Error) => void;
  /** The source's length: what a worker has outstanding is the sum of its jobs'. */
  chars: number;
}

// Plain JavaScript evaluated in the worker (`eval: true`), so it runs the same from the compiled
// package and under tsx. It loads prettier from the URL the main thread resolved, as soon as it starts.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
// Loaded at once, while the main thread still parses the first revision, with the parser and
// printer the jobs use (prettier loads its plugins on the first call).
const loaded = import(workerData.prettier).then(async (prettier) => {
  await prettier.format("export const a: A = { b };", workerData.options);
  return prettier;
});
loaded.catch(() => {}); // reported with the first job
parentPort.on("message", async ({ id, source, options }) => {
  try {
    const prettier = await loaded;
    parentPort.postMessage({ id, formatted: await prettier.format(source, options) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/**
 * A fixed set of workers. Each job is posted at once to the worker with the fewest characters
 * outstanding: the main thread parses revisions synchronously and reads no message meanwhile, so a
 * worker that waited for the main thread to hand it its next job sat idle until the parse was done.
 * Idle workers are unref'd, so a run that fails before formatting still exits; a worker that
 * failed fails its jobs and gets no more.
 */
export class FormatPool {
  private readonly workers: { worker: Worker; chars: number; jobs: Map<number, Job>; failed?: Error }[] = [];
  private next = 0;

  /**
   * `eager`: start the workers (and their prettier) now, for a run that will format; otherwise on
   * the first job, so a run the format cache serves whole starts none.
   */
  constructor(
    private readonly size: number,
    eager: boolean,
  ) {
    if (eager) this.start();
  }

  private start(): void {
    const prettier = import.meta.resolve("prettier");
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(WORKER, { eval: true, workerData: { prettier, options: PRETTIER } });
      const slot: (typeof this.workers)[number] = { worker, chars: 0, jobs: new Map<number, Job>() };
      worker.on("message", (message: { id: number; formatted?: string; error?: string }) => {
        const job = slot.jobs.get(message.id);
        if (!job) return;
        slot.jobs.delete(message.id);
        slot.chars -= job.chars;
        if (slot.jobs.size === 0) worker.unref();
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.formatted as string);
      });
      worker.on("error", (error) => {
        slot.failed = error;
        for (const job of slot.jobs.values()) job.reject(error);
        slot.jobs.clear();
      });
      // After the listeners: adding a "message" listener refs the worker's port again.
      worker.unref();
      this.workers.push(slot);
    }
  }

  format(source: string, options: Options): Promise<string> {
    if (this.workers.length === 0) this.start();
    const live = this.workers.filter((w) => !w.failed);
    if (live.length === 0) return Promise.reject(this.workers[0]?.failed as Error);
    const slot = live.reduce((least, w) => (w.chars < least.chars ? w : least));
    const id = this.next++;
    const done = new Promise<string>((resolve, reject) => slot.jobs.set(id, { resolve, reject, chars: source.length }));
    slot.chars += source.length;
    slot.worker.ref();
    slot.worker.postMessage({ id, source, options });
    return done;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }
}

/**
 * How many format workers a repository build uses: `$MCP_GEN_FORMAT_WORKERS`, else one on a machine
 * with two cores or more (0 formats on the main thread). One, not one per core: since most of the
 * validators are laid out without prettier, what prettier formats is small, and each worker pays
 * for loading and warming up prettier; on the shared 2-vCPU machine of BENCHMARKS.md two workers
 * were about 1 s slower than one or none.
 */
export function formatWorkerCount(): number {
  const set = process.env.MCP_GEN_FORMAT_WORKERS;
  if (set !== undefined && set !== "") {
    const n = Number(set);
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return availableParallelism() > 1 ? 1 : 0;
}

let early: FormatPool | undefined;

/**
 * Starts the format workers before the generating command loads its parser (ts-morph takes most
 * of a second to load), so prettier is loaded by the time the first revision is emitted; only when
 * the cache is off, since a run the cache serves needs no worker. openFormatPool() adopts them, and
 * idle workers keep no process alive if the command fails before.
 */
export function startFormatWorkersEarly(): void {
  const size = formatWorkerCount();
  if (size > 0 && formatCache() === "off") early ??= new FormatPool(size, true);
}

/** The workers of a repository build (none with formatWorkerCount() 0): those started early, else new ones. */
export function openFormatPool(): FormatPool | undefined {
  const size = formatWorkerCount();
  if (size === 0) return undefined;
  // With the cache on, most runs format nothing: workers start on the first miss.
  const pool = early ?? new FormatPool(size, formatCache() === "off");
  early = undefined;
  return pool;
}

// Prettier on worker threads, for the repository build: formatting is most of a cold `generate`, and
// the main thread meanwhile parses the next revision with ts-morph. A worker loads prettier as it starts.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

type Options = Readonly<Record<string, unknown>>;

interface Job {
  resolve: (formatted: string) => void;
  reject: (error: Error) => void;
}

// Plain JavaScript evaluated in the worker (`eval: true`), so it runs the same from the compiled
// package and under tsx. It loads prettier from the URL the main thread resolved, as soon as it starts.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
// Loaded at once, while the main thread still parses the first revision.
const loaded = import(workerData.prettier);
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

/** A fixed set of workers, each given the next job when it is free (the longest jobs are queued first by the caller). */
export class FormatPool {
  private readonly workers: { worker: Worker; busy: boolean }[] = [];
  private readonly queue: { id: number; source: string; options: Options }[] = [];
  private readonly jobs = new Map<number, Job>();
  private readonly owner = new Map<number, number>();
  private next = 0;

  /**
   * `eager`: start the workers (and their prettier) now, for a run that will format; otherwise on
   * the first job, so a run the format cache serves whole starts none.
   */
  private readonly size: number;

  constructor(size: number, eager: boolean) {
    this.size = size;
    if (eager) this.start();
  }

  private start(): void {
    const prettier = import.meta.resolve("prettier");
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(WORKER, { eval: true, workerData: { prettier } });
      const slot = { worker, busy: false };
      worker.on("message", (message: { id: number; formatted?: string; error?: string }) => {
        const job = this.jobs.get(message.id);
        this.jobs.delete(message.id);
        this.owner.delete(message.id);
        slot.busy = false;
        this.dispatch();
        if (!job) return;
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.formatted as string);
      });
      worker.on("error", (error) => {
        for (const [id, index] of this.owner) {
          if (index !== i) continue;
          this.jobs.get(id)?.reject(error);
          this.jobs.delete(id);
          this.owner.delete(id);
        }
      });
      this.workers.push(slot);
    }
  }

  format(source: string, options: Options): Promise<string> {
    if (this.workers.length === 0) this.start();
    const id = this.next++;
    const done = new Promise<string>((resolve, reject) => this.jobs.set(id, { resolve, reject }));
    this.queue.push({ id, source, options });
    this.dispatch();
    return done;
  }

  private dispatch(): void {
    for (let i = 0; i < this.workers.length && this.queue.length > 0; i++) {
      const slot = this.workers[i] as { worker: Worker; busy: boolean };
      if (slot.busy) continue;
      const job = this.queue.shift() as { id: number; source: string; options: Options };
      slot.busy = true;
      this.owner.set(job.id, i);
      slot.worker.postMessage(job);
    }
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

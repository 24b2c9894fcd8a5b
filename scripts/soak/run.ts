// One scenario of the soak, measured: open it, run the workload one request at a time and then
// with many in flight, sample at 10% and 100% of each phase, count the tools/list its servers
// answered, close, and say what is wrong.
import { Detector, judgeLeftovers, judgePhase, judgeResources, mb, settle, type Sample } from "./detector.js";
import type { Opened, Scenario } from "./scenarios.js";
import type { ServerStats } from "./server.js";
import { StalledError, Workload, type Mix, type PhaseCounts } from "./workload.js";

export interface RunOptions {
  readonly mix: Mix;
  /** Requests in flight in each phase, e.g. [1, 32]. */
  readonly concurrency: readonly number[];
  /** A request not settled while nothing settled for this long never will (ms). */
  readonly stallMs: number;
  /** Told about progress, one line at a time. */
  readonly log?: (line: string) => void;
  /** The fetch HTTP clients use (the detector's test gives a broken one). */
  readonly fetch?: typeof fetch;
}

export interface PhaseReport {
  readonly concurrency: number;
  /** Requests (calls and lists) per second of the phase's run, sampling excluded. */
  readonly perSecond: number;
  /** The same per second of this process's CPU time (user and system; children not counted). */
  readonly perCpuSecond: number;
  readonly counts: PhaseCounts;
  /**
   * tools/list the soak's own servers answered during the phase, at least `counts.lists` (through
   * the host, each list request makes the host list a server's tools); undefined for server-everything.
   */
  readonly listed: number | undefined;
  readonly marks: readonly Sample[];
}

export interface ScenarioReport {
  readonly name: string;
  readonly setup: string;
  readonly phases: PhaseReport[];
  /** Active resources before the scenario opened, and after it closed. */
  readonly start: { readonly [type: string]: number };
  readonly end: { readonly [type: string]: number };
  readonly problems: string[];
}

/** The fractions of a phase at which it is sampled. */
const MARKS = [0.1, 1] as const;

export async function runScenario(
  scenario: Scenario,
  detector: Detector,
  options: RunOptions,
): Promise<ScenarioReport> {
  const problems: string[] = [];
  const phases: PhaseReport[] = [];
  const warningsBefore = detector.warnings.length;
  const crowdedBefore = detector.crowdedSignals.length;
  const before = await detector.sample("start");
  let opened: Opened | undefined;
  try {
    opened = await scenario.open(options.fetch ? { fetch: options.fetch } : {});
    // What an application passes to every call to stop them all at shutdown: it must gather no listeners.
    const shutdown = new AbortController();
    detector.watch(shutdown.signal);
    let stats = await opened.stats();
    for (const concurrency of options.concurrency) {
      const workload = new Workload(opened.client, options.mix, shutdown.signal, options.stallMs);
      const where = `${concurrency} in flight`;
      const ran = await runPhase(scenario.name, workload, concurrency, detector, options.log);
      if (ran instanceof StalledError) {
        problems.push(`${where}: ${ran.message}`);
        break;
      }
      const before = stats;
      stats = await opened.stats();
      const phase = { ...ran, listed: listsBetween(before, stats) };
      phases.push(phase);
      options.log?.(`${scenario.name}, ${where}: ${describeLists(phase)}`);
      if (workload.counts.failed > 0)
        problems.push(`${where}: ${workload.counts.failed} request(s) failed, e.g. ${workload.failures.join("; ")}`);
      if (phase.listed !== undefined && phase.listed < workload.counts.lists)
        problems.push(`${where}: ${describeLists(phase)}, fewer than were asked for`);
      const [first, last] = phase.marks;
      if (first && last) for (const problem of judgePhase(first, last)) problems.push(`${where}: ${problem}`);
      for (const [i, server] of stats.entries())
        if (server.inflight > 0) problems.push(`${where}: server ${i} still runs ${server.inflight} handler(s)`);
    }
  } catch (error) {
    problems.push(`stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await opened?.close();
  }
  problems.push(...(opened?.problems() ?? []));
  const end = await settledSample(detector, "end", (after) => judgeLeftovers(before, after), 21);
  problems.push(...judgeLeftovers(before, end));
  problems.push(...detector.crowdedSignals.slice(crowdedBefore));
  for (const warning of detector.warnings.slice(warningsBefore))
    problems.push(`process warning: ${warning.name}: ${warning.message}`);
  return { name: scenario.name, setup: scenario.setup, phases, start: before.resources, end: end.resources, problems };
}

/** The tools/list the servers answered from one reading of their counters to the next; undefined without counters. */
function listsBetween(before: readonly ServerStats[], after: readonly ServerStats[]): number | undefined {
  if (after.length === 0) return undefined;
  const total = (stats: readonly ServerStats[]) => stats.reduce((sum, server) => sum + server.lists, 0);
  return total(after) - total(before);
}

/** `5000 lists, 5000 tools/list answered by the servers`. */
function describeLists(phase: PhaseReport): string {
  const answered = phase.listed === undefined ? "not counted" : `${phase.listed} tools/list answered by the servers`;
  return `${phase.counts.lists} lists, ${answered}`;
}

/** Runs one phase to its end, sampling at each mark; the error when a request never settled. */
async function runPhase(
  name: string,
  workload: Workload,
  concurrency: number,
  detector: Detector,
  log: (line: string) => void = () => {},
): Promise<Omit<PhaseReport, "listed"> | StalledError> {
  const marks: Sample[] = [];
  let busyMs = 0;
  let cpuMs = 0;
  let done = 0;
  for (const fraction of MARKS) {
    const to = Math.round(workload.total * fraction);
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      await workload.run(done, to, concurrency);
    } catch (error) {
      if (error instanceof StalledError) return error;
      throw error;
    }
    busyMs += performance.now() - started;
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1000;
    done = to;
    const label = `${fraction * 100}%`;
    const [first] = marks;
    const sample = first
      ? await settledSample(detector, label, (last) => judgeResources(first, last), 5)
      : await detector.sample(label);
    marks.push(sample);
    log(`${name}, ${concurrency} in flight: ${done}/${workload.total} (${describeSample(sample)})`);
  }
  return {
    concurrency,
    perSecond: done / (busyMs / 1000),
    perCpuSecond: done / (cpuMs / 1000),
    counts: workload.counts,
    marks,
  };
}

/**
 * A sample in which `wrong` finds nothing, or the last of `attempts`: sockets and child processes
 * take a moment to go, so a sample that finds more of them than expected is taken again a little later.
 */
async function settledSample(
  detector: Detector,
  label: string,
  wrong: (sample: Sample) => string[],
  attempts: number,
): Promise<Sample> {
  for (let attempt = 1; ; attempt++) {
    const sample = await detector.sample(label);
    if (wrong(sample).length === 0 || attempt >= attempts) return sample;
    await settle(10);
  }
}

export function describeResources(resources: { readonly [type: string]: number }): string {
  const entries = Object.entries(resources).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? "none" : entries.map(([type, count]) => `${type}×${count}`).join(", ");
}

function describeSample(sample: Sample): string {
  return `heap ${mb(sample.heapBytes)}, ${describeResources(sample.resources)}`;
}

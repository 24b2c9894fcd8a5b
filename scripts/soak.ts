// The soak (issue 19): `npm run soak`. Drives every client transport and the host with
// 100,000 tools/call and 10,000 tools/list each, half of them one at a time and half with 32 in
// flight, with progress reports and a cancellation every 100 calls, and fails on any process
// warning, the heap after GC growing more than 5 MB from 10% to 100% of a phase, active resources
// or listeners on long-lived emitters growing, anything left open after close, a request that
// never settles, or its servers answering fewer tools/list than were asked for (see scripts/soak/). Loopback only. Run it on every change to runtime/ or host/;
// its figures are in BENCHMARKS.md.
//
// Environment:
//   SOAK_CALLS        tools/call per scenario, shared by its phases (default 100000)
//   SOAK_LISTS        tools/list per scenario, likewise (default 10000)
//   SOAK_CONCURRENCY  requests in flight in the second phase (default 32)
//   SOAK_ONLY         scenarios to run, comma-separated (default all; see scripts/soak/scenarios.ts)
//   SOAK_STALL_MS     a request unsettled while nothing settles for this long fails the run (default 30000)
//   SOAK_TIMEOUT_MS   the whole run's bound (default 2400000: 40 minutes)
import { cpus, loadavg } from "node:os";
import { Detector, mb } from "./soak/detector.js";
import { describeResources, runScenario, type ScenarioReport } from "./soak/run.js";
import { SCENARIOS } from "./soak/scenarios.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const concurrency = [1, env("SOAK_CONCURRENCY", 32)];
const mix = {
  calls: Math.round(env("SOAK_CALLS", 100_000) / concurrency.length),
  lists: Math.round(env("SOAK_LISTS", 10_000) / concurrency.length),
};
const only = process.env["SOAK_ONLY"]?.split(",").map((name) => name.trim());
const scenarios = SCENARIOS.filter((scenario) => !only || only.includes(scenario.name));
const log = (line: string) => process.stderr.write(`${line}\n`);

const bound = setTimeout(
  () => {
    log(`soak: FAIL: not done after ${env("SOAK_TIMEOUT_MS", 2_400_000)} ms`);
    process.exit(1);
  },
  env("SOAK_TIMEOUT_MS", 2_400_000),
);
bound.unref();

const loads = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");
log(`soak: ${mix.calls} calls and ${mix.lists} lists per phase, in flight: ${concurrency.join(" then ")}`);
log(`soak: ${cpus().length} CPUs, Node ${process.version}, load average ${loads()}`);
const detector = new Detector().start();
const started = performance.now();
const reports: ScenarioReport[] = [];
for (const scenario of scenarios) {
  log(`soak: ${scenario.name}: ${scenario.setup}`);
  const report = await runScenario(scenario, detector, {
    mix,
    concurrency,
    stallMs: env("SOAK_STALL_MS", 30_000),
    log,
  });
  reports.push(report);
  for (const problem of report.problems) log(`soak: ${scenario.name}: FAIL: ${problem}`);
}
detector.stop();
const minutes = ((performance.now() - started) / 60_000).toFixed(1);

// The figures, as BENCHMARKS.md shows them.
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(
  row([
    "scenario",
    "in flight",
    "requests/s",
    "per CPU-second",
    "heap at 10%",
    "heap at 100%",
    "resources at 10%",
    "resources at 100%",
    "lists (tools/list answered)",
  ]),
);
console.log(row(Array(9).fill("---")));
for (const report of reports)
  for (const phase of report.phases) {
    const [first, last] = phase.marks;
    console.log(
      row([
        report.name,
        String(phase.concurrency),
        phase.perSecond.toFixed(0),
        phase.perCpuSecond.toFixed(0),
        first ? mb(first.heapBytes) : "",
        last ? mb(last.heapBytes) : "",
        first ? describeResources(first.resources) : "",
        last ? describeResources(last.resources) : "",
        `${phase.counts.lists} (${phase.listed ?? "not counted"})`,
      ]),
    );
  }
console.log();
console.log(row(["scenario", "resources at start", "resources at end", "verdict"]));
console.log(row(Array(4).fill("---")));
for (const report of reports)
  console.log(
    row([
      report.name,
      describeResources(report.start),
      describeResources(report.end),
      report.problems.length === 0 ? "pass" : `FAIL (${report.problems.length})`,
    ]),
  );
const failed = reports.filter((report) => report.problems.length > 0);
log(`soak: ${failed.length === 0 ? "PASS" : "FAIL"} in ${minutes} min (load average now ${loads()})`);
process.exitCode = failed.length === 0 ? 0 : 1;

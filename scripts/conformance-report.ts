// Reading what the conformance suite says and writes: a revision's frozen requirement set (`list
// --requirements`), the results (`-o DIR`: one folder per scenario with a checks.json, auth
// scenarios under `auth/`), the expected-failures baseline; and the table `npm run conformance`
// prints for each revision.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Side = "server" | "client";

export interface Check {
  readonly id: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  readonly name?: string;
  readonly errorMessage?: string;
}

/**
 * How a scenario counts: required by the revision (authorization scenarios apart: they need an
 * OAuth client, a separate piece of work), required of an earlier revision the client still
 * supports (`back-compat: <revision>`), or run and reported without counting, for a reason the
 * requirement set gives (`extension`, `pending`, `added-after-release`).
 */
export type Category = "required" | "authorization" | `back-compat: ${string}` | `not scored: ${string}`;

export interface ScenarioResult {
  readonly side: Side;
  readonly scenario: string;
  readonly category: Category;
  /** Undefined when the suite wrote no checks for the scenario (it did not run to the end). */
  readonly checks: readonly Check[] | undefined;
}

export type Baseline = { readonly [side in Side]: ReadonlySet<string> };

export interface Requirements {
  readonly server: readonly string[];
  readonly client: readonly string[];
  readonly notScored: readonly { readonly scenario: string; readonly side: Side; readonly reason: string }[];
}

/**
 * The requirement set as `list --requirements <revision>` prints it: "Server scenarios" and
 * "Client scenarios" lists, then "never scored" entries grouped by reason, each `- name [side]`.
 */
export function parseRequirements(text: string): Requirements {
  const server: string[] = [];
  const client: string[] = [];
  const notScored: { scenario: string; side: Side; reason: string }[] = [];
  let section: "server" | "client" | "unscored" | undefined;
  let reason = "";
  for (const line of text.split("\n")) {
    if (/^Server scenarios/.test(line)) section = "server";
    else if (/^Client scenarios/.test(line)) section = "client";
    else if (/never scored/.test(line)) section = "unscored";
    else if (section === "unscored" && /^\s+([\w-]+) \(\d+\):$/.test(line))
      reason = /^\s+([\w-]+)/.exec(line)?.[1] ?? "";
    else {
      const item = /^\s+- (\S+)(?: \[(server|client)\])?$/.exec(line);
      if (!item || !section) continue;
      const scenario = item[1] as string;
      if (section === "unscored") notScored.push({ scenario, side: (item[2] ?? "client") as Side, reason });
      else (section === "server" ? server : client).push(scenario);
    }
  }
  if (server.length === 0 && client.length === 0) throw new Error(`no requirement set in:\n${text.slice(0, 500)}`);
  return { server, client, notScored };
}

/** Every scenario of a requirement set, with how it counts. */
export function scenariosOf(requirements: Requirements, side: Side): { scenario: string; category: Category }[] {
  const required = side === "server" ? requirements.server : requirements.client;
  return [
    ...required.map((scenario) => ({
      scenario,
      category: (scenario.startsWith("auth/") ? "authorization" : "required") as Category,
    })),
    ...requirements.notScored
      .filter((entry) => entry.side === side)
      .map((entry) => ({ scenario: entry.scenario, category: `not scored: ${entry.reason}` as Category })),
  ];
}

/** The suite names each folder `[server-]<scenario>-<ISO time with : and . as ->`. */
const FOLDER = /^(?:server-)?(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** The checks of every scenario the suite wrote under `dir` (auth scenarios in `auth/`), by scenario name. */
export function readChecks(dir: string, prefix = ""): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const scenario = FOLDER.exec(entry.name)?.[1];
    if (scenario === undefined) {
      // A group of scenarios (auth/): its folders are named like the others, inside.
      for (const [name, checks] of readChecks(join(dir, entry.name), `${prefix}${entry.name}/`))
        found.set(name, checks);
      continue;
    }
    try {
      found.set(
        `${prefix}${scenario}`,
        JSON.parse(readFileSync(join(dir, entry.name, "checks.json"), "utf8")) as Check[],
      );
    } catch {
      // No checks.json: the scenario did not finish; it shows as failed.
    }
  }
  return found;
}

/**
 * The baseline file, in the block style the suite documents: `server:` and `client:` keys, each
 * followed by `  - <scenario>` lines; `#` starts a comment (the reason, by convention).
 */
export function parseBaseline(text: string): Baseline {
  const baseline = { server: new Set<string>(), client: new Set<string>() };
  let side: Side | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trimEnd();
    const key = /^(server|client):\s*(\[\s*\])?$/.exec(line);
    if (key) side = key[1] as Side;
    else if (line.trim() !== "") {
      const item = /^\s+-\s+["']?([^"'\s]+)["']?$/.exec(line);
      if (!item || !side) throw new Error(`expected-failures: cannot read line ${JSON.stringify(raw)}`);
      baseline[side].add(item[1] as string);
    }
  }
  return baseline;
}

/** A scenario passes when no check failed and none warned (the suite's own baseline rule). */
export function passed(result: ScenarioResult): boolean {
  return result.checks !== undefined && !result.checks.some((c) => c.status === "FAILURE" || c.status === "WARNING");
}

function count(result: ScenarioResult, status: string): number {
  return result.checks?.filter((c) => c.status === status).length ?? 0;
}

function verdict(result: ScenarioResult, baseline: Baseline): string {
  const expected = baseline[result.side].has(result.scenario);
  if (passed(result)) return expected ? "pass (remove from baseline)" : "pass";
  if (expected) return "expected failure";
  return result.category.startsWith("not scored") ? "fail (not scored)" : "FAIL";
}

/** "passed/all" of the results in a category on one side. */
function score(results: readonly ScenarioResult[], side: Side, category: (c: Category) => boolean): string {
  const mine = results.filter((r) => r.side === side && category(r.category));
  return `${mine.filter(passed).length}/${mine.length}`;
}

/** The Markdown table of every scenario of one revision, then its scores. */
export function renderTable(revision: string, results: readonly ScenarioResult[], baseline: Baseline): string {
  const rows = results.map(
    (r) =>
      `| ${r.side} | ${r.scenario} | ${r.category} | ${count(r, "SUCCESS")} | ${count(r, "FAILURE")} | ${count(r, "WARNING")} | ${verdict(r, baseline)} |`,
  );
  const required = (c: Category) => c === "required";
  const scores = (["server", "client"] as const).map(
    (side) =>
      `${side} ${score(results, side, required)} required` +
      (results.some((r) => r.side === side && r.category === "authorization")
        ? `, ${score(results, side, (c) => c === "authorization")} authorization`
        : "") +
      (results.some((r) => r.side === side && r.category.startsWith("back-compat"))
        ? `, ${score(results, side, (c) => c.startsWith("back-compat"))} back-compat`
        : "") +
      `, ${score(results, side, (c) => c.startsWith("not scored"))} not scored`,
  );
  return [
    `### ${revision} (--requirements ${revision})`,
    "",
    "| side | scenario | counts as | checks passed | failed | warnings | result |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `${revision}: ${scores.join("; ")}.`,
  ].join("\n");
}

/** The scored scenarios that fail though the baseline does not expect it: their failing checks, one line each. */
export function failureDetails(results: readonly ScenarioResult[], baseline: Baseline): string[] {
  return results
    .filter((r) => !passed(r) && !baseline[r.side].has(r.scenario) && !r.category.startsWith("not scored"))
    .flatMap((r) =>
      r.checks === undefined
        ? [`${r.side} ${r.scenario}: no results (the scenario did not finish)`]
        : r.checks
            .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
            .map((c) => `${r.side} ${r.scenario}: ${c.status} ${c.name ?? c.id}: ${c.errorMessage ?? ""}`),
    );
}

// Reading what the conformance suite wrote (`-o DIR`: one folder per scenario with a checks.json)
// and the expected-failures baseline, and turning them into the table `npm run conformance` prints.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Side = "server" | "client";

export interface Check {
  readonly id: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  readonly name?: string;
  readonly errorMessage?: string;
}

export interface ScenarioResult {
  readonly side: Side;
  readonly scenario: string;
  /** Undefined when the suite wrote no checks for the scenario (it did not run to the end). */
  readonly checks: readonly Check[] | undefined;
}

export type Baseline = { readonly [side in Side]: ReadonlySet<string> };

/** The suite names each folder `[server-]<scenario>-<ISO time with : and . as ->`. */
const FOLDER = /^(?:server-)?(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** The checks of every scenario the suite wrote under `dir`, by scenario name. */
export function readChecks(dir: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const scenario = entry.isDirectory() ? FOLDER.exec(entry.name)?.[1] : undefined;
    if (scenario === undefined) continue;
    try {
      found.set(scenario, JSON.parse(readFileSync(join(dir, entry.name, "checks.json"), "utf8")) as Check[]);
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
  return expected ? "expected failure" : "FAIL";
}

/** The Markdown table of every scenario, then the totals. */
export function renderTable(results: readonly ScenarioResult[], baseline: Baseline): string {
  const rows = results.map(
    (r) =>
      `| ${r.side} | ${r.scenario} | ${count(r, "SUCCESS")} | ${count(r, "FAILURE")} | ${count(r, "WARNING")} | ${verdict(r, baseline)} |`,
  );
  const totals = (["server", "client"] as const).map((side) => {
    const mine = results.filter((r) => r.side === side);
    return `${side} ${mine.filter(passed).length}/${mine.length}`;
  });
  const checks = results.reduce((sum, r) => sum + count(r, "SUCCESS"), 0);
  const failed = results.filter((r) => !passed(r)).length;
  return [
    "| side | scenario | checks passed | failed | warnings | result |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
    `Scenarios passed: ${totals.join(", ")}; ${checks} checks passed.`,
    `Conformance: ${results.length - failed} passed, ${failed} failed`,
  ].join("\n");
}

/** The failing checks of the failing scenarios, one line each, to show what went wrong. */
export function failureDetails(results: readonly ScenarioResult[]): string[] {
  return results
    .filter((r) => !passed(r))
    .flatMap((r) =>
      r.checks === undefined
        ? [`${r.side} ${r.scenario}: no results (the scenario did not finish)`]
        : r.checks
            .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
            .map((c) => `${r.side} ${r.scenario}: ${c.status} ${c.name ?? c.id}: ${c.errorMessage ?? ""}`),
    );
}

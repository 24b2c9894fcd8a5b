// The CI gate of `mcp-gen diff` (`--fail-on`, `--ignore`) and the findings as CI entries: each
// breaking finding the gate counts fails unless an --ignore entry accepts it; breaking findings
// for the other side and warnings need a look; the rest pass.
import { plainMarkup } from "../render/markup.js";
import { KIND_TITLES, changeText, whoMustAct } from "../render/phrases.js";
import type { DiffReport, Finding, Item } from "../rules/findings.js";
import { findingsOf } from "../rules/items.js";
import { RULES } from "../rules/rules.js";
import { arrows } from "../rules/subject.js";
import type { CiEntry, CiRun } from "./entries.js";
import { acceptedBy, type IgnoreEntry, type SubjectKeys } from "./ignore.js";

export type Gate = "breaking" | "client" | "server";

/** How `mcp-gen diff --ignore` entries name their subject: a finding's name. */
export const DIFF_SUBJECTS: SubjectKeys = { name: (value) => [value] };

/** Whether the gate counts a finding: breaking, for anyone or for the gate's side. */
export function trips(f: Finding, gate: Gate): boolean {
  return f.breaking && (gate === "breaking" || f.affects.includes(gate));
}

export interface Verdict {
  /** Findings that trip the gate, and no --ignore entry accepts. */
  failing: Finding[];
  /** Findings that would trip it, each with the entry that accepts it. */
  accepted: Map<Finding, IgnoreEntry>;
}

export function judge(report: DiffReport, gate: Gate, ignore: readonly IgnoreEntry[]): Verdict {
  const failing: Finding[] = [];
  const accepted = new Map<Finding, IgnoreEntry>();
  for (const f of report.changes.filter((f) => trips(f, gate))) {
    const entry = acceptedBy(ignore, f);
    if (entry) accepted.set(f, entry);
    else failing.push(f);
  }
  return { failing, accepted };
}

/** Every finding as a CI entry, in report order. */
export function diffRun(report: DiffReport, verdict: Verdict): CiRun {
  const failing = new Set(verdict.failing);
  return {
    name: `mcp-gen diff ${report.from} → ${report.to}`,
    entries: report.items.flatMap((item) =>
      findingsOf(item, report.changes).map((f): CiEntry => {
        const accepted = verdict.accepted.get(f);
        return {
          group: KIND_TITLES[f.kind],
          title: `${f.rule} ${findingLabel(f, item, report.changes)}`,
          message: `${RULES[f.rule].summary}${f.affects.length > 0 && f.breaking ? ` (${whoMustAct(f.affects)} must act)` : ""}`,
          details: [
            changeText(f, plainMarkup),
            f.detail,
            f.carriedBy.length > 0 ? `in ${f.carriedBy.join(", ")}` : "",
            f.link,
          ].filter((line) => line !== ""),
          ...judged(f, failing.has(f), accepted !== undefined),
          ...(accepted ? { reason: accepted.reason } : {}),
        };
      }),
    ),
  };
}

/** Failing findings are errors; accepted ones notices; other breaking ones and warnings need a look. */
function judged(f: Finding, failing: boolean, accepted: boolean): Pick<CiEntry, "outcome" | "annotation" | "failure"> {
  if (failing) return { outcome: "fail", annotation: "error", failure: "breaking" };
  if (accepted) return { outcome: "accepted", annotation: "notice" };
  return f.breaking || f.severity === "warning" ? { outcome: "pass", annotation: "warning" } : { outcome: "pass" };
}

/**
 * A finding's name, told apart from the other findings of its item: by direction where they
 * differ in it, else by the member or value it is about.
 */
export function findingLabel(f: Finding, item: Item, changes: Finding[]): string {
  const siblings = findingsOf(item, changes);
  if (siblings.length === 1) return f.name;
  const directions = new Set(siblings.map((s) => (s.directions ?? []).join(",")));
  if (directions.size > 1) return `${f.name} (${arrows(f.directions ?? [])})`;
  return `${f.name}: ${changeText(f, plainMarkup)}`;
}

// Findings → items: findings about the same thing under the same rule (one per union member,
// one per direction of a method) become one item that lists them all, so a report says each
// thing once. The findings themselves stay as they are: an item points at them. An item states
// one severity, so findings that disagree on it (or on `breaking`) are never merged: each makes
// an item of its own. A rule fixes its severity today; this keeps items true should a finding's
// severity ever depend on more than its rule (or a `select` of diffModels re-judge findings).
import type { Direction } from "../../model/model.js";
import { SIDES, type Change, type Finding, type Item } from "./findings.js";

const DIRECTIONS: Direction[] = ["clientToServer", "serverToClient"];

/** Items in the order of their first finding (findings come sorted by kind, name and rule). */
export function groupFindings(changes: Finding[]): Item[] {
  const groups = new Map<string, number[]>();
  changes.forEach((f, i) => {
    const key = JSON.stringify([f.kind, f.name, f.rule, f.severity, f.breaking]);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const used = new Map<string, number>();
  return [...groups.values()].map((positions) => {
    const findings = positions.map((i) => changes[i] as Finding);
    const first = findings[0] as Finding;
    const directions = DIRECTIONS.filter((d) => findings.some((f) => f.directions?.includes(d)));
    return {
      id: uniqueId(first, used),
      kind: first.kind,
      change: sameChange(findings),
      name: first.name,
      rule: first.rule,
      severity: first.severity,
      breaking: first.breaking,
      affects: SIDES.filter((side) => findings.some((f) => f.affects.includes(side))),
      ...(directions.length > 0 ? { directions } : {}),
      findings: positions,
    };
  });
}

/** The findings an item lists. */
export function findingsOf(item: Item, changes: Finding[]): Finding[] {
  return item.findings.map((i) => changes[i] as Finding);
}

function sameChange(findings: Finding[]): Change {
  const changes = new Set(findings.map((f) => f.change));
  return changes.size === 1 ? (findings[0] as Finding).change : "changed";
}

/** `<kind>-<name>-<rule>`, with what a URL fragment would garble replaced; numbered if that makes two equal. */
function uniqueId(f: Finding, used: Map<string, number>): string {
  const base = `${f.kind}-${f.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-${f.rule}`;
  const n = (used.get(base) ?? 0) + 1;
  used.set(base, n);
  return n === 1 ? base : `${base}-${n}`;
}

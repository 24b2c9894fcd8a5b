// The short phrases every view of findings shares (the report, its highlights, CI entries, the
// tools check): a kind's title, a change as `a → b`, who must act, a rule's headline.
import type { Finding, FindingKind } from "../rules/findings.js";
import { RULES, type RuleId } from "../rules/rules.js";
import type { Markup } from "./markup.js";

export const KIND_TITLES: Record<FindingKind, string> = {
  method: "Methods",
  notification: "Notifications",
  capability: "Capabilities",
  type: "Types",
  field: "Fields",
  "enum-member": "Enum members",
  constant: "Constants",
};

/** Who must act, in words: `clients`, `servers`, `clients and servers`. */
export function whoMustAct(sides: readonly string[]): string {
  return sides.map((side) => `${side}s`).join(" and ");
}

/** `a → b`; for something that appeared or went away inside a changed item, `+ b` or `− a`. */
export function changeText(f: Finding, markup: Markup): string {
  const value = (v: Finding["before"]) => markup.code(String(v));
  if (f.before !== null && f.after !== null) return `${value(f.before)} → ${value(f.after)}`;
  const inside = f.change === "changed";
  if (f.after !== null) return inside ? `+ ${value(f.after)}` : value(f.after);
  if (f.before !== null) return inside ? `− ${value(f.before)}` : `${markup.text("was")} ${value(f.before)}`;
  return "";
}

/** The first clause of a rule's summary: what changed, without the consequence. */
export function ruleHeadline(rule: RuleId): string {
  return RULES[rule].summary.split(/[:;]/)[0] as string;
}

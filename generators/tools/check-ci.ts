// `mcp-gen tools --check` in CI: --ignore entries name tools and prompts (`"tool": "get_*"`),
// every change no entry accepts fails the check (the module no longer matches the server), and
// the CI formats say, in tool words, whether calls written against the module break.
import type { CiEntry, CiRun } from "../diff/ci/entries.js";
import { acceptedBy, unusedEntries, type IgnoreEntry, type SubjectKeys, type Subject } from "../diff/ci/ignore.js";
import { plainMarkup } from "../diff/render/markup.js";
import { changeText } from "../diff/render/phrases.js";
import type { Finding, Item } from "../diff/rules/findings.js";
import { findingsOf } from "../diff/rules/items.js";
import { breaksCallers, otherChangeText, type CheckResult, type OtherChange } from "./check.js";

/** Entries name a tool or a prompt (its arguments and results included), `*` for any run of characters. */
export const TOOL_SUBJECTS: SubjectKeys = {
  tool: (name) => [`tools/call ${name}`, `tools.${name}.*`],
  prompt: (name) => [`prompts/get ${name}`, `prompts.${name}.*`],
};

export interface CheckVerdict {
  /** Findings and other changes no --ignore entry accepts: any of them fails the check. */
  open: number;
  accepted: Map<Finding | OtherChange, IgnoreEntry>;
  /** Entries that accept nothing. */
  unused: IgnoreEntry[];
}

/** An other change as what --ignore matches: the tool or prompt itself, under no rule. */
function otherSubject(c: OtherChange): Subject {
  return { name: `${c.owner === "tool" ? "tools/call" : "prompts/get"} ${c.name}` };
}

export function judgeCheck(result: CheckResult, ignore: readonly IgnoreEntry[]): CheckVerdict {
  const accepted = new Map<Finding | OtherChange, IgnoreEntry>();
  const subjects: [Finding | OtherChange, Subject][] = [
    ...result.report.changes.map((f): [Finding, Subject] => [f, f]),
    ...result.otherChanges.map((c): [OtherChange, Subject] => [c, otherSubject(c)]),
  ];
  for (const [change, subject] of subjects) {
    const entry = acceptedBy(ignore, subject);
    if (entry) accepted.set(change, entry);
  }
  return {
    open: subjects.length - accepted.size,
    accepted,
    unused: unusedEntries(
      ignore,
      subjects.map(([, s]) => s),
    ),
  };
}

/** Every finding and other change as a CI entry, annotated on the module file. */
export function checkRun(result: CheckResult, verdict: CheckVerdict, file: string): CiRun {
  const { report, words } = result;
  const judged = (
    change: Finding | OtherChange,
    breaks: boolean,
  ): Pick<CiEntry, "outcome" | "annotation" | "failure" | "reason"> => {
    const entry = verdict.accepted.get(change);
    if (entry) return { outcome: "accepted", annotation: "notice", reason: entry.reason };
    return breaks
      ? { outcome: "fail", annotation: "error", failure: "breaks callers" }
      : { outcome: "fail", annotation: "warning", failure: "changed" };
  };
  const consequence = (breaks: boolean) =>
    breaks ? `breaks calls written against ${file}` : `calls written against ${file} still work; regenerate it`;
  const findings = report.items.flatMap((item) =>
    findingsOf(item, report.changes).map((f): CiEntry => {
      const subject = words.subject(item, plainMarkup);
      return {
        group: subject.split(",")[0] as string,
        title: `${f.rule} ${subject}${label(f, item)}`,
        message: `${words.summary(item)} (${consequence(breaksCallers(f))})`,
        details: [...(words.facts?.(f, plainMarkup) ?? []), f.link],
        file,
        ...judged(f, breaksCallers(f)),
      };
    }),
  );
  const others = result.otherChanges.map((c): CiEntry => ({
    group: `${c.owner} ${c.name}`,
    title: otherChangeText(c),
    message: `no effect on types or checks (${consequence(false)})`,
    details: [],
    file,
    ...judged(c, false),
  }));
  return { name: `mcp-gen tools --check ${file}`, entries: [...findings, ...others] };
}

/** A finding told apart from the others of its item by the value it is about. */
function label(f: Finding, item: Item): string {
  return item.findings.length > 1 ? `: ${changeText(f, plainMarkup)}` : "";
}

// Deltas → findings, in report order: each structural fact's subject (subject.ts), its rule
// (classify.ts) and the rule's verdict, the sides that must act through the messages that carry
// the fact (carriers.ts), and the spec page it links to.
import type { Comparison } from "../compare/compare.js";
import type { Delta } from "../compare/deltas.js";
import type { ModelIndex } from "../compare/model-index.js";
import { carriersOf, otherSide, senderOf, type Carrier, type Carriers } from "./carriers.js";
import { affectedSides, ruleFor } from "./classify.js";
import { FINDING_KINDS, type Finding } from "./findings.js";
import { linkFor, type DiffEnv } from "./links.js";
import { RULES } from "./rules.js";
import { subjectOf, type Subject } from "./subject.js";

export function judgeDeltas({ before: a, after: b, deltas }: Comparison, env: DiffEnv): Finding[] {
  const carriers = { before: carriersOf(a.model), after: carriersOf(b.model) };
  return deltas.map((d) => toFinding(d, carriers, a, b, env)).sort(compareFindings);
}

function toFinding(
  d: Delta,
  carriers: { before: Carriers; after: Carriers },
  a: ModelIndex,
  b: ModelIndex,
  env: DiffEnv,
): Finding {
  const subject = subjectOf(d);
  const rule = ruleFor(d);
  const carried = carriedBy(d, subject, carriers);
  const { severity, breaks } = RULES[rule];
  const inheritedBy = "observedIn" in d ? d.observedIn.filter((n) => n !== subject.anchor.type) : [];
  return {
    kind: subject.kind,
    change: subject.change,
    name: subject.name,
    rule,
    severity,
    breaking: severity === "breaking",
    affects: affectedSides(breaks, d, carried),
    before: subject.before,
    after: subject.after,
    detail: subject.detail,
    ...(inheritedBy.length > 0 ? { inheritedBy } : {}),
    ...("directions" in d ? { directions: d.directions } : {}),
    carriedBy: [...new Set(carried.map((c) => c.label))].sort(),
    link: linkFor(subject.anchor, subject.anchor.revision === "before" ? a : b, env[subject.anchor.revision]),
  };
}

/**
 * The messages that carry a fact. A method's own change needs no list, except a result change
 * (the result travels back). Data changes count in the revision whose messages must conform:
 * the new one, or the old one for removals (where old receivers read it); the other revision
 * only if the first carries none of it. Relatives' carriers count only when nothing carries the
 * declarations directly.
 */
function carriedBy(d: Delta, subject: Subject, carriers: { before: Carriers; after: Carriers }): Carrier[] {
  if ("method" in d) {
    return d.fact === "method-result"
      ? d.directions.map((dir) => ({ label: `${d.method} result`, sender: otherSide(senderOf(dir)) }))
      : [];
  }
  const order = subject.change === "removed" ? [carriers.before, carriers.after] : [carriers.after, carriers.before];
  for (const kind of ["direct", "derived"] as const) {
    for (const model of order) {
      const found: Carrier[] = [];
      for (const name of subject.declarations) {
        for (const c of model[kind].get(name) ?? []) {
          if (!found.some((x) => x.label === c.label && x.sender === c.sender)) found.push(c);
        }
      }
      if (found.length > 0) return found;
    }
  }
  return [];
}

const KIND_ORDER = new Map(FINDING_KINDS.map((k, i) => [k, i]));

function compareFindings(x: Finding, y: Finding): number {
  return (
    (KIND_ORDER.get(x.kind) ?? 0) - (KIND_ORDER.get(y.kind) ?? 0) ||
    compareText(x.name, y.name) ||
    compareText(x.rule, y.rule) ||
    compareText(JSON.stringify(x), JSON.stringify(y))
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

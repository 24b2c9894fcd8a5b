// Two models → one findings list. Structural diff first (methods, declarations, constants),
// then the rules over it. Pure: no I/O.
import type { Model } from "../model/model.js";
import { carriersOf, otherSide, senderOf, type Carrier, type Carriers } from "./carriers.js";
import { affectedSides, ruleFor } from "./classify.js";
import { compareConstants } from "./compare-constants.js";
import { compareMethods } from "./compare-methods.js";
import { DeclarationDiff } from "./compare-types.js";
import { mergeDeltas, type Delta } from "./deltas.js";
import { CHANGES, FINDING_KINDS, SIDES, type DiffReport, type Finding, type Summary } from "./findings.js";
import { highlightsOf } from "./highlights.js";
import { groupFindings } from "./items.js";
import { linkFor, type DiffEnv } from "./links.js";
import { ModelIndex } from "./model-index.js";
import { findRenames } from "./renames.js";
import { RULES } from "./rules.js";
import { Sides } from "./sides.js";
import { subjectOf, type Subject } from "./subject.js";
import { TypeRelation, type Identity } from "./type-relation.js";

export interface DiffModelOptions {
  /**
   * Pair a removed type with an added one that looks like it (default true). Off where names are
   * identities, as for one server's tools: a tool under another name is another tool.
   */
  renames?: boolean;
  /** Keep only some findings (the tools check drops what a listing's own model makes up). */
  select?: (changes: Finding[]) => Finding[];
}

export function diffModels(before: Model, after: Model, env: DiffEnv, options: DiffModelOptions = {}): DiffReport {
  const a = new ModelIndex(before);
  const b = new ModelIndex(after);
  const sameName: Identity = (o, n) => o === n && a.has(o) && b.has(n) && a.form(o) === b.form(n);
  const renames = options.renames === false ? [] : findRenames(a, b, new TypeRelation(a, b, sameName));
  const renamed = new Map(renames.map((r) => [r.before, r.after]));
  const identical: Identity = (o, n) => sameName(o, n) || renamed.get(o) === n;
  const relation = new TypeRelation(a, b, identical);
  const sides = new Sides(a, b, relation, identical, renames);
  const declarations = new DeclarationDiff(sides);
  const deltas = mergeDeltas([
    ...compareMethods(sides, (x, y, expand) => declarations.explain(x, y, expand)),
    ...declarations.run(),
    ...compareConstants(before, after),
  ]);
  const carriers = { before: carriersOf(before), after: carriersOf(after) };
  const all = deltas.map((d) => toFinding(d, carriers, a, b, env)).sort(compareFindings);
  const changes = options.select ? options.select(all) : all;
  const items = groupFindings(changes);
  return {
    from: before.revision,
    to: after.revision,
    ...(env.after.changelogUrl ? { changelog: env.after.changelogUrl } : {}),
    summary: summarize(changes),
    highlights: highlightsOf(items, changes, before, after),
    items,
    changes,
  };
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

export function summarize(changes: Finding[]): Summary {
  const byKind = Object.fromEntries(
    FINDING_KINDS.map((k) => [k, Object.fromEntries(CHANGES.map((c) => [c, 0]))]),
  ) as Summary["byKind"];
  const summary: Summary = {
    total: changes.length,
    breaking: 0,
    warning: 0,
    info: 0,
    breakingFor: { client: 0, server: 0 },
    byKind,
  };
  for (const f of changes) {
    summary[f.severity]++;
    byKind[f.kind][f.change]++;
    if (f.breaking) for (const side of SIDES) if (f.affects.includes(side)) summary.breakingFor[side]++;
  }
  return summary;
}

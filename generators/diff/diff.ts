// generators/diff/: two revisions' models → one findings report → Markdown, JSON, HTML and the CI
// formats, in folders by role: compare/ (the structural diff), rules/ (the judgement, and the
// report's shape), render/ (the formats), ci/ (the gate and the CI formats), command/ (mcp-gen
// diff, generated/diffs/).
// This file, the entry: two models → one findings list. Structural diff first (compare/), then the
// rules over it (rules/). Pure: no I/O.
import type { Model } from "../model/model.js";
import { compareModels } from "./compare/compare.js";
import { CHANGES, FINDING_KINDS, SIDES, type DiffReport, type Finding, type Summary } from "./rules/findings.js";
import { highlightsOf } from "./rules/highlights.js";
import { groupFindings } from "./rules/items.js";
import { judgeDeltas } from "./rules/judge.js";
import type { DiffEnv } from "./rules/links.js";

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
  const all = judgeDeltas(compareModels(before, after, options.renames !== false), env);
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

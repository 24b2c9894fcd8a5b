// command/: what the command line runs over the diff: `mcp-gen diff` (command.ts; report-file.ts
// tells which files its --out may overwrite) and generated/diffs/ for generate and check (tree.ts),
// both from the checked-in models (models.ts).
// This file: `mcp-gen diff --from A --to B`: the report between two revisions' checked-in models,
// on stdout or into a file, and the CI gate (`--fail-on`, with `--ignore` for accepted changes;
// `--format github|junit` for CI). Only the models are read: no parser is loaded, so the command
// stays fast.
import { EXIT, InputError } from "../../errors.js";
import { writeOwnedFiles } from "../../output/overwrite.js";
import { outputFile } from "../../output/target.js";
import { findRevision, loadRevisionTable } from "../../spec/revisions.js";
import { CI_FORMATS, type CiFormat } from "../ci/formats.js";
import { DIFF_SUBJECTS, diffRun, judge, type Gate } from "../ci/gate.js";
import { describeEntry, readIgnoreFile, unusedEntries } from "../ci/ignore.js";
import { diffModels } from "../diff.js";
import type { Format } from "../render/renderer.js";
import { RENDERERS } from "../render/renderers.js";
import { totalsOf } from "../render/view.js";
import { revisionLinks } from "../rules/links.js";
import { checkedInModel } from "./models.js";
import { isDiffReport } from "./report-file.js";

export interface DiffOptions {
  from: string;
  to: string;
  format: Format | CiFormat;
  out?: string;
  failOn?: Gate;
  /** A file of accepted changes, each with its reason (generators/diff/ci/ignore.ts). */
  ignore?: string;
  /** Overwrite an --out file that is not an earlier report of mcp-gen diff. */
  force?: boolean;
}

export function diffCommand(options: DiffOptions, log: (line: string) => void, write: (text: string) => void): number {
  // A refused place is reported before any work, as for the other --out options.
  const out = options.out !== undefined ? outputFile(options.out) : undefined;
  if (options.force && out === undefined) throw new InputError("--force needs --out FILE");
  const table = loadRevisionTable();
  for (const revision of [options.from, options.to]) findRevision(table, revision);
  const ci = options.format === "github" || options.format === "junit";
  if (options.ignore !== undefined && options.failOn === undefined && !ci) {
    throw new InputError("--ignore accepts changes for --fail-on and --format github|junit: give one of them");
  }
  const ignore = options.ignore !== undefined ? readIgnoreFile(options.ignore, DIFF_SUBJECTS) : [];
  const started = performance.now();
  const links = { from: revisionLinks(table, options.from), to: revisionLinks(table, options.to) };
  const report = diffModels(checkedInModel(options.from), checkedInModel(options.to), {
    before: links.from,
    after: links.to,
  });
  // Without --fail-on, the CI formats mark every breaking change as failing.
  const gate = options.failOn ?? "breaking";
  const verdict = judge(report, gate, ignore);
  const text = ci
    ? CI_FORMATS[options.format as CiFormat](diffRun(report, verdict))
    : RENDERERS[options.format as Format].render(report, { links });
  if (out !== undefined) {
    writeOwnedFiles(new Map([[out, text]]), (_, existing) => isDiffReport(existing), {
      force: options.force,
      lacks: "it does not start as a report of mcp-gen diff does",
    });
  } else {
    write(text);
  }
  const t = totalsOf(report);
  log(
    `${options.from} → ${options.to}: ${t.items} changes (${t.findings} findings), ${t.breaking} breaking ` +
      `(${t.both} for clients and servers, ${t.clientOnly} for clients only, ${t.serverOnly} for servers only), ` +
      `${t.warning} warnings${options.out ? `; wrote ${options.out}` : ""} (${Math.round(performance.now() - started)} ms)`,
  );
  for (const entry of unusedEntries(ignore, report.changes)) {
    log(`warning: ${entry.where} (${describeEntry(entry)}) accepts no change of ${options.from} → ${options.to}`);
  }
  if (verdict.accepted.size > 0) {
    log(`${verdict.accepted.size} breaking finding(s) accepted by ${options.ignore}`);
  }
  if (options.failOn !== undefined && verdict.failing.length > 0) {
    log(`gate tripped: ${verdict.failing.length} breaking finding(s) for --fail-on ${options.failOn}`);
    return EXIT.drift;
  }
  return EXIT.ok;
}

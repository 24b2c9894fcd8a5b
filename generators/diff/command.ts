// `mcp-gen diff --from A --to B`: the report between two revisions' checked-in models, on
// stdout or into a file, and the CI gate (`--fail-on`). Only the models are read: no parser is
// loaded, so the command stays fast.
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { makeDirectories } from "../emit/write-tree.js";
import { EXIT } from "../errors.js";
import { findRevision, loadRevisionTable } from "../spec/revisions.js";
import { diffModels } from "./diff.js";
import type { DiffReport } from "./findings.js";
import { revisionLinks } from "./links.js";
import { checkedInModel } from "./models.js";
import type { Format } from "./render/renderer.js";
import { RENDERERS } from "./render/renderers.js";

export type Gate = "breaking" | "client" | "server";

export interface DiffOptions {
  from: string;
  to: string;
  format: Format;
  out?: string;
  failOn?: Gate;
}

export function diffCommand(options: DiffOptions, log: (line: string) => void, write: (text: string) => void): number {
  const table = loadRevisionTable();
  for (const revision of [options.from, options.to]) findRevision(table, revision);
  const started = performance.now();
  const links = { from: revisionLinks(table, options.from), to: revisionLinks(table, options.to) };
  const report = diffModels(checkedInModel(options.from), checkedInModel(options.to), {
    before: links.from,
    after: links.to,
  });
  const text = RENDERERS[options.format].render(report, { links });
  if (options.out) {
    const file = resolve(options.out);
    makeDirectories(dirname(file));
    writeFileSync(file, text);
  } else {
    write(text);
  }
  const s = report.summary;
  log(
    `${options.from} → ${options.to}: ${s.total} changes, ${s.breaking} breaking (${s.breakingFor.client} for clients, ${s.breakingFor.server} for servers), ${s.warning} warnings${options.out ? `; wrote ${options.out}` : ""} (${Math.round(performance.now() - started)} ms)`,
  );
  const tripped = options.failOn ? gateCount(report, options.failOn) : 0;
  if (tripped > 0) {
    log(`gate tripped: ${tripped} breaking change(s) for --fail-on ${options.failOn}`);
    return EXIT.drift;
  }
  return EXIT.ok;
}

/** Breaking findings the gate counts: all of them, or those that affect one side. */
export function gateCount(report: DiffReport, gate: Gate): number {
  return gate === "breaking" ? report.summary.breaking : report.summary.breakingFor[gate];
}

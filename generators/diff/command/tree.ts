// Everything checked in under generated/diffs/: a report per consecutive pair of revisions in
// each format, and the evolution page over all of them. Pure: models in, files out.
import { renderTemplate } from "../../emit/render.js";
import type { Model } from "../../model/model.js";
import type { RevisionTable } from "../../spec/revisions.js";
import { diffModels } from "../diff.js";
import { evolutionView } from "../render/evolution.js";
import { FORMATS } from "../render/renderer.js";
import { RENDERERS } from "../render/renderers.js";
import type { DiffReport } from "../rules/findings.js";
import { revisionLinks, type RevisionLinks } from "../rules/links.js";
import { checkedInModel } from "./models.js";

export const DIFFS_DIR = "generated/diffs";

export interface RevisionModel {
  revision: string;
  model: Model;
  links: RevisionLinks;
}

/** `2025-06-18..2025-11-25` */
export function pairName(from: string, to: string): string {
  return `${from}..${to}`;
}

/** File name (inside generated/diffs/) → content, for revisions in protocol order. */
export function buildDiffTree(revisions: RevisionModel[]): Map<string, string> {
  const files = new Map<string, string>();
  const reports: DiffReport[] = [];
  for (let i = 1; i < revisions.length; i++) {
    const from = revisions[i - 1] as RevisionModel;
    const to = revisions[i] as RevisionModel;
    const report = diffModels(from.model, to.model, { before: from.links, after: to.links });
    reports.push(report);
    const base = pairName(from.revision, to.revision);
    const nav = {
      index: "index.html",
      files: FORMATS.filter((f) => f !== "html").map((format) => ({ format, file: `${base}.${format}` })),
    };
    for (const format of FORMATS) {
      files.set(
        `${base}.${format}`,
        RENDERERS[format].render(report, { links: { from: from.links, to: to.links }, nav }),
      );
    }
  }
  const view = evolutionView(revisions, reports, (r) => `${pairName(r.from, r.to)}.html`);
  files.set("index.html", renderTemplate("diff/index.html", view));
  return files;
}

/**
 * generated/diffs/ for the repository: every pinned revision in table order, using the models
 * just built where given and the checked-in model of every other revision.
 */
export function repositoryDiffs(table: RevisionTable, built: Map<string, Model>): Map<string, string> {
  const revisions = table.revisions.map(({ revision }) => ({
    revision,
    model: built.get(revision) ?? checkedInModel(revision),
    links: revisionLinks(table, revision),
  }));
  const files = new Map<string, string>();
  for (const [file, content] of buildDiffTree(revisions)) files.set(`${DIFFS_DIR}/${file}`, content);
  return files;
}

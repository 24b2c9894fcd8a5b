// render/: the report as people read it: one renderer per format (md, json, html) over the one
// findings list, the view the templates lay out and its markups, and the evolution page.
// This file: one renderer per format over the one findings list.
import type { DiffReport } from "../rules/findings.js";
import type { RevisionLinks } from "../rules/links.js";

export type Format = "md" | "json" | "html";

export const FORMATS: Format[] = ["md", "json", "html"];

export interface RenderContext {
  links: { from: RevisionLinks; to: RevisionLinks };
  /** Sibling pages to link to, when the report is part of generated/diffs/. */
  nav?: { index: string; files: { format: Format; file: string }[] };
}

export interface Renderer {
  format: Format;
  /** Report → file content. Pure and deterministic. */
  render(report: DiffReport, context: RenderContext): string;
}

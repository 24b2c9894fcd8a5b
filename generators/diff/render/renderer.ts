// One renderer per format over the one findings list.
import type { DiffReport } from "../findings.js";
import type { RevisionLinks } from "../links.js";

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

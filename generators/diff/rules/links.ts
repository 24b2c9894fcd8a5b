// Spec pages for findings: the revision's schema reference anchor of the declaring type where
// the revision publishes one (as generated code's `@see` lines do), else the revision's spec site.
import { findRevision, specUrl, type RevisionTable } from "../../spec/revisions.js";
import type { ModelIndex } from "../compare/model-index.js";

export interface RevisionLinks {
  specUrl: string;
  /** Page with one anchor per (non-internal) schema type, when the revision has one. */
  schemaReferenceUrl?: string;
  /** The revision's changelog page (what changed since the revision before), when it has one. */
  changelogUrl?: string;
}

/** Spec pages of the old (`before`) and new (`after`) revision. */
export interface DiffEnv {
  before: RevisionLinks;
  after: RevisionLinks;
}

export function linkFor(anchor: { type?: string }, index: ModelIndex, links: RevisionLinks): string {
  const decl = anchor.type ? index.decl(anchor.type) : undefined;
  if (!links.schemaReferenceUrl || !decl || decl.internal) return links.specUrl;
  return `${links.schemaReferenceUrl}#${decl.name.toLowerCase()}`;
}

/** A revision's spec pages, from spec/revisions.json (the same pages generated code's `@see` lines use). */
export function revisionLinks(table: RevisionTable, revision: string): RevisionLinks {
  const url = specUrl(table, revision);
  const pin = findRevision(table, revision);
  return {
    specUrl: url,
    ...(pin.schemaReference ? { schemaReferenceUrl: `${url}/schema` } : {}),
    ...(pin.changelog ? { changelogUrl: `${url}/changelog` } : {}),
  };
}

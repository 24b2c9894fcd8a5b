// The protocol revisions mcp-gen tools speaks, newest first: the dated ones of
// spec/revisions.json (a draft is used only when asked for by name).
import { findRevision, loadRevisionTable, releasedRevisions, specUrl } from "../spec/revisions.js";

export function datedRevisions(): string[] {
  return releasedRevisions(loadRevisionTable());
}

/** A known revision by name (an InputError names the known ones otherwise). */
export function knownRevision(revision: string): string {
  return findRevision(loadRevisionTable(), revision).revision;
}

/** The spec's page on tools for a revision (the newest dated one when it is not known here). */
export function toolsSpecPage(revision: string | undefined): string {
  const table = loadRevisionTable();
  const known = table.revisions.some((r) => r.revision === revision) ? (revision as string) : datedRevisions()[0];
  return `${specUrl(table, known as string)}/server/tools`;
}

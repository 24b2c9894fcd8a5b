// The pinned revision table (spec/revisions.json) and where each revision's schema.ts is found.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";
import { paths } from "../paths.js";

export interface RevisionPin {
  revision: string;
  commit: string;
  sha256: string;
  /** The JSON type the spec's JSON Schema build gives a plain `number` (typescript-json-schema's defaultNumberType). */
  numberType: "integer" | "number";
  /** The spec site has a schema reference page with one anchor per type. */
  schemaReference?: boolean;
  /**
   * The other files of the revision's schema folder the tests read (`schema.json`, `examples/…`):
   * path relative to the folder → sha256. `mcp-gen sync` fetches and checks them with schema.ts.
   */
  files?: Record<string, string>;
  /** The spec site has a changelog page for the revision (its changes since the one before). */
  changelog?: boolean;
}

export interface RevisionTable {
  repository: string;
  /** A revision's folder in the repository: `{revision}`. */
  folder: string;
  /** A file at a commit: `{repository}`, `{commit}`, `{folder}`, `{file}` (a path in the folder). */
  rawUrl: string;
  /** The repository's file tree at a commit (GitHub's trees API), to list a folder when pinning. */
  treeUrl: string;
  specUrl: string;
  revisions: RevisionPin[];
}

export function loadRevisionTable(file = paths.revisions): RevisionTable {
  return JSON.parse(readFileSync(file, "utf8")) as RevisionTable;
}

/** Whether a revision is released: named by its date. Others (`draft`) are used only when asked for by name. */
export function isReleased(revision: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(revision);
}

/** The table's released revisions, newest first: the order hosts and `mcp-gen tools` offer them in. */
export function releasedRevisions(table: RevisionTable): string[] {
  return table.revisions
    .map((r) => r.revision)
    .filter(isReleased)
    .sort()
    .reverse();
}

export function findRevision(table: RevisionTable, revision: string): RevisionPin {
  const pin = table.revisions.find((r) => r.revision === revision);
  if (!pin) {
    throw new InputError(
      `unknown revision "${revision}"; known revisions: ${table.revisions.map((r) => r.revision).join(", ")}`,
    );
  }
  return pin;
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

export function sourceFolder(table: RevisionTable, revision: string): string {
  return fillTemplate(table.folder, { revision });
}

export function rawUrl(table: RevisionTable, pin: RevisionPin, file = "schema.ts"): string {
  const folder = sourceFolder(table, pin.revision);
  return fillTemplate(table.rawUrl, { repository: table.repository, commit: pin.commit, folder, file });
}

/** Every pinned file of a revision's schema folder, schema.ts first: path in the folder → sha256. */
export function pinnedFiles(pin: RevisionPin): [path: string, sha256: string][] {
  return [["schema.ts", pin.sha256], ...Object.entries(pin.files ?? {})];
}

export function specUrl(table: RevisionTable, revision: string): string {
  return fillTemplate(table.specUrl, { revision });
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export type SourceOrigin = "--spec-dir" | "MCP_GEN_SPEC_DIR" | "cache" | "--schema";

export interface SchemaSource {
  path: string;
  origin: SourceOrigin;
  text: string;
}

/** The directories searched for `<revision>/schema.ts`, in order. */
export function searchDirectories(specDir?: string): { dir: string; origin: SourceOrigin }[] {
  const dirs: { dir: string; origin: SourceOrigin }[] = [];
  if (specDir) dirs.push({ dir: specDir, origin: "--spec-dir" });
  const fromEnv = process.env.MCP_GEN_SPEC_DIR;
  if (fromEnv) dirs.push({ dir: fromEnv, origin: "MCP_GEN_SPEC_DIR" });
  dirs.push({ dir: paths.cache, origin: "cache" });
  return dirs;
}

/**
 * Finds a revision's schema.ts (--spec-dir, then MCP_GEN_SPEC_DIR, then the cache) and checks
 * its sha256 against the pin. Returns undefined when no directory has it.
 */
export function locateSchema(pin: RevisionPin, specDir?: string): SchemaSource | undefined {
  for (const { dir, origin } of searchDirectories(specDir)) {
    const path = join(dir, pin.revision, "schema.ts");
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8");
    verifyHash(path, text, pin);
    return { path, origin, text };
  }
  return undefined;
}

/** A schema.ts whose content is not the pinned one. */
export class HashMismatchError extends InputError {}

/** Checks a file of the revision's folder against its pin (by default schema.ts's). */
export function verifyHash(path: string, data: string | Buffer, pin: RevisionPin, expected = pin.sha256): void {
  const actual = sha256(data);
  if (actual !== expected) {
    throw new HashMismatchError(
      `${path}: sha256 mismatch for revision ${pin.revision}: expected ${expected} (spec/revisions.json), got ${actual}`,
    );
  }
}

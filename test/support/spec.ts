// Test access to the spec inputs (read at run time, never committed) and the checked-in models.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Model } from "../../generators/model/model.js";
import { paths } from "../../generators/paths.js";
import { loadRevisionTable, pinnedFiles } from "../../generators/spec/revisions.js";

const table = loadRevisionTable();

/**
 * The spec directory: MCP_GEN_SPEC_DIR when set (CI: ../shared/mcp-spec), else the cache
 * `mcp-gen sync` fills, once it holds every pinned file.
 */
export const SPEC_DIR = (() => {
  const dir = process.env.MCP_GEN_SPEC_DIR;
  if (dir) {
    if (!existsSync(dir)) throw new Error(`MCP_GEN_SPEC_DIR=${dir}: no such directory`);
    return resolve(dir);
  }
  const missing = table.revisions.flatMap((pin) =>
    pinnedFiles(pin)
      .map(([path]) => join(paths.cache, pin.revision, path))
      .filter((file) => !existsSync(file)),
  );
  if (missing.length > 0) {
    throw new Error(
      `tests need the spec sources, and ${missing[0]} is missing (${missing.length} files): run \`npm run sync\` ` +
        "once to download them, or set MCP_GEN_SPEC_DIR to a directory that has them",
    );
  }
  return resolve(paths.cache);
})();

export const REVISIONS = table.revisions.map((r) => r.revision);

export function schemaTsPath(revision: string): string {
  return join(SPEC_DIR, revision, "schema.ts");
}

export type JsonSchema = Record<string, unknown>;

export function officialSchema(revision: string): {
  root: JsonSchema;
  defs: Record<string, JsonSchema>;
  defsKey: string;
} {
  const root = JSON.parse(readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8")) as JsonSchema;
  const defsKey = "$defs" in root ? "$defs" : "definitions";
  return { root, defs: root[defsKey] as Record<string, JsonSchema>, defsKey };
}

export function checkedInModel(revision: string): Model {
  return JSON.parse(readFileSync(paths.model(revision), "utf8")) as Model;
}

/** Official example instances: type folder → [file, value]. */
export function officialExamples(revision: string): { folder: string; file: string; value: unknown }[] {
  const dir = join(SPEC_DIR, revision, "examples");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((folder) =>
      readdirSync(join(dir, folder))
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((file) => ({ folder, file, value: JSON.parse(readFileSync(join(dir, folder, file), "utf8")) as unknown })),
    );
}

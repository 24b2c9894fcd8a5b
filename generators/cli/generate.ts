// `mcp-gen generate` and `mcp-gen --rev R` without --out: revisions into this repository's
// spec/ and generated/ (a maintainer's job; an installed package is never rewritten).
import { writeTree } from "../emit/write-tree.js";
import { refuseInstalled } from "../output/target.js";
import { paths } from "../paths.js";
import type { LoadOptions } from "../pipeline.js";
import { loadRevisionTable } from "../spec/revisions.js";
import { buildRepositoryTree, type Log } from "./build.js";

export async function generateRepository(
  revisions: string[] | undefined,
  options: LoadOptions,
  log: Log,
  command = "mcp-gen generate",
): Promise<number> {
  refuseInstalled(command);
  const table = loadRevisionTable();
  const selected = revisions ?? table.revisions.map((r) => r.revision);
  const built = await buildRepositoryTree(table, selected, options, log);
  const drift = writeTree(paths.root, built.tree, built.ownedDirs);
  log(
    drift.length === 0
      ? "up to date: nothing changed"
      : `wrote ${drift.length} file(s): ${drift.map((d) => d.path).join(", ")}`,
  );
  return 0;
}

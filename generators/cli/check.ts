// `mcp-gen check`: regenerate in memory and fail, with a unified diff, on any drift
// between spec sources, checked-in models and generated files.
import { EXIT } from "../errors.js";
import { compareTree } from "../emit/write-tree.js";
import { paths } from "../paths.js";
import type { LoadOptions } from "../pipeline.js";
import { HashMismatchError, loadRevisionTable } from "../spec/revisions.js";
import { buildRepositoryTree, type Log } from "./build.js";
import { printDrift } from "../output/drift-report.js";

export async function check(options: LoadOptions, log: Log, print: Log): Promise<number> {
  const table = loadRevisionTable();
  let built;
  try {
    built = await buildRepositoryTree(
      table,
      table.revisions.map((r) => r.revision),
      options,
      log,
    );
  } catch (error) {
    if (!(error instanceof HashMismatchError)) throw error;
    print(`drift: ${error.message}`);
    return EXIT.drift;
  }
  const drift = compareTree(paths.root, built.tree, built.ownedDirs);
  if (built.offline.length > 0) {
    log(`note: no schema.ts for ${built.offline.join(", ")}: their models were not checked against sources`);
  }
  if (drift.length === 0) {
    log(`check: ${built.tree.size} files match the generator`);
    return EXIT.ok;
  }
  printDrift(drift, print, "check", "run `npm run generate` to update them");
  return EXIT.drift;
}

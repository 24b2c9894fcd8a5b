// `mcp-gen check`: regenerate in memory and fail, with a unified diff, on any drift
// between spec sources, checked-in models and generated files.
import { createTwoFilesPatch } from "diff";
import { EXIT } from "../errors.js";
import { compareTree, type Drift } from "../emit/write-tree.js";
import { paths } from "../paths.js";
import type { LoadOptions } from "../pipeline.js";
import { HashMismatchError, loadRevisionTable } from "../spec/revisions.js";
import { buildRepositoryTree, type Log } from "./build.js";

const MAX_DIFF_LINES = 120;

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
  for (const d of drift) print(renderDrift(d));
  print(`check: ${drift.length} file(s) differ from what the generator produces now:`);
  for (const d of drift) print(`  ${d.status.padEnd(7)} ${d.path}`);
  print("run `npm run generate` to update them");
  return EXIT.drift;
}

function renderDrift(d: Drift): string {
  const patch = createTwoFilesPatch(
    `a/${d.path}`,
    `b/${d.path}`,
    d.actual ?? "",
    d.expected ?? "",
    d.status === "stale" ? "on disk, not generated" : "on disk",
    d.status === "stale" ? "" : "generated now",
  );
  const lines = patch.split("\n");
  if (lines.length <= MAX_DIFF_LINES) return patch;
  return [...lines.slice(0, MAX_DIFF_LINES), `... (${lines.length - MAX_DIFF_LINES} more diff lines)`].join("\n");
}

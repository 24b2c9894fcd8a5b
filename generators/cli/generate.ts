// `mcp-gen generate` (all revisions into the repository) and the main job
// `mcp-gen --rev R [--out DIR]` (one revision, optionally as a self-contained tree elsewhere).
import { resolve } from "node:path";
import { writeTree } from "../emit/write-tree.js";
import { paths } from "../paths.js";
import { emitEnv, emitRevision, ModelLoader, runtimeFiles, type LoadOptions } from "../pipeline.js";
import { loadRevisionTable } from "../spec/revisions.js";
import { buildRepositoryTree, type Log } from "./build.js";

export async function generateRepository(
  revisions: string[] | undefined,
  options: LoadOptions,
  log: Log,
): Promise<number> {
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

export async function generateOut(revision: string, out: string, options: LoadOptions, log: Log): Promise<number> {
  const table = loadRevisionTable();
  const started = performance.now();
  const { model, from } = new ModelLoader(table).load(revision, options);
  if (from.kind === "checked-in") {
    log(
      `note: no schema.ts for ${revision} found (--spec-dir, MCP_GEN_SPEC_DIR, cache); generating from the checked-in model`,
    );
  }
  const files = await emitRevision(model, emitEnv(table, revision, "out"));
  // Vendored code is self-contained: the runtime it imports comes along.
  for (const [path, content] of runtimeFiles()) files.set(path, content);
  const root = resolve(out);
  const drift = writeTree(root, files, []);
  log(
    `${revision}: ${files.size} files in ${root} (${drift.length} changed, ${Math.round(performance.now() - started)} ms)`,
  );
  return 0;
}

// The main job, `mcp-gen --rev R --out DIR`: one revision as a self-contained tree in the user's
// project (the generated modules, the runtime they import, and a manifest). Files mcp-gen did not
// write are never overwritten (unless --force) nor removed; `--check` compares instead of writing.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isGenerated } from "../emit/banner.js";
import { applyDrift, compareTree, type Drift } from "../emit/write-tree.js";
import { EXIT, InputError } from "../errors.js";
import { MANIFEST_FILE, readManifest, serializeManifest } from "../output/manifest.js";
import { planWrites } from "../output/overwrite.js";
import { outputDirectory } from "../output/target.js";
import { emitEnv, emitRevision, ModelLoader, runtimeFiles, type LoadOptions } from "../pipeline.js";
import { loadRevisionTable, searchDirectories } from "../spec/revisions.js";
import type { Log } from "./build.js";
import { printDrift } from "../output/drift-report.js";

export interface VendorOptions extends LoadOptions {
  /** Overwrite files without mcp-gen's banner, and replace a manifest that is not one. */
  force?: boolean;
  /** Compare the tree with what would be written; exit 1 with a diff when it differs. */
  check?: boolean;
}

export async function vendor(
  revision: string,
  out: string,
  options: VendorOptions,
  log: Log,
  print: Log,
): Promise<number> {
  const root = outputDirectory(out);
  if (options.check && !existsSync(root)) throw new InputError(`--out ${out}: no such directory, nothing to check`);
  const previous = options.force ? safeManifest(root) : readManifest(root);
  const table = loadRevisionTable();
  const started = performance.now();
  const { model, from } = new ModelLoader(table).load(revision, options);
  // The checked-in model is the pinned schema's, so falling back to it only matters to someone who
  // pointed mcp-gen at spec sources that turn out not to have this revision.
  const named = searchDirectories(options.specDir).filter((d) => d.origin !== "cache");
  if (from.kind === "checked-in" && named.length > 0) {
    log(
      `note: no schema.ts for ${revision} in ${named.map((d) => `${d.dir} (${d.origin})`).join(", ")}; generating from the checked-in model`,
    );
  }
  const files = await emitRevision(model, emitEnv(table, revision, "out"));
  // Vendored code is self-contained: the runtime it imports comes along.
  for (const [path, content] of runtimeFiles()) files.set(path, content);
  files.set(MANIFEST_FILE, serializeManifest(revision, files.keys()));

  const owned = (d: Drift) => d.path === MANIFEST_FILE || isGenerated(d.actual ?? "");
  const plan = planWrites(compareTree(root, files, [], previous?.files ?? []), owned, {
    force: options.force || options.check,
    shown: (path) => join(out, path),
  });
  for (const path of plan.kept)
    log(`note: ${join(out, path)} is no longer generated but has no mcp-gen banner: left alone`);
  if (options.check) {
    if (plan.drift.length === 0) {
      log(`${revision}: ${out} is up to date (${files.size} files)`);
      return EXIT.ok;
    }
    printDrift(plan.drift, print, out, `run \`mcp-gen --rev ${revision} --out ${out}\` to update them`);
    return EXIT.drift;
  }
  applyDrift(root, plan.drift);
  const removed = plan.drift.filter((d) => d.status === "stale").length;
  log(
    `${revision}: ${files.size} files in ${out} (${plan.drift.length - removed} written, ${removed} removed, ${Math.round(performance.now() - started)} ms)`,
  );
  return EXIT.ok;
}

/** With --force, a manifest that is not one is replaced, and lists nothing to remove. */
function safeManifest(root: string) {
  try {
    return readManifest(root);
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
}

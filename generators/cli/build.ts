// Builds, in memory, everything the repository checks in for a set of revisions:
// spec/<rev>/model.json and generated/<rev>/*.
import { relative } from "node:path";
import { emitEnv, emitRevision, ModelLoader, serializeModel, type LoadOptions } from "../pipeline.js";
import type { RevisionTable } from "../spec/revisions.js";
import type { Tree } from "../emit/write-tree.js";

export interface RepositoryTree {
  tree: Tree;
  /** Directories whose every file the tree accounts for. */
  ownedDirs: string[];
  /** Revisions built from their checked-in model because no schema.ts was found. */
  offline: string[];
}

export type Log = (line: string) => void;

export async function buildRepositoryTree(
  table: RevisionTable,
  revisions: string[],
  options: LoadOptions,
  log: Log,
): Promise<RepositoryTree> {
  const loader = new ModelLoader(table);
  const result: RepositoryTree = { tree: new Map(), ownedDirs: [], offline: [] };
  for (const revision of revisions) {
    const started = performance.now();
    const { model, from } = loader.load(revision, options);
    const files = await emitRevision(model, emitEnv(table, revision));
    if (from.kind === "source") {
      result.tree.set(`spec/${revision}/model.json`, serializeModel(model));
    } else {
      result.offline.push(revision);
    }
    for (const [file, content] of files) result.tree.set(`generated/${revision}/${file}`, content);
    result.ownedDirs.push(`generated/${revision}`);
    const origin =
      from.kind === "source"
        ? `parsed ${from.source.path} (${from.source.origin})`
        : `no schema.ts found; used checked-in ${relative(process.cwd(), from.path)}`;
    log(
      `${revision.padEnd(10)}  ${String(model.declarations.length).padStart(3)} types  ${String(model.methods.length).padStart(2)} methods  ${files.size} files  ${Math.round(performance.now() - started)} ms  ${origin}`,
    );
  }
  return result;
}

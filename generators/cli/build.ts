// Builds, in memory, everything the repository checks in for a set of revisions:
// spec/<rev>/model.json, generated/<rev>/*, generated/diffs/, generated/revisions.ts (the host's
// revision list) and docs/protocol-rules.md.
import { relative } from "node:path";
import { DIFFS_DIR, repositoryDiffs } from "../diff/command/tree.js";
import type { Model } from "../model/model.js";
import { formatModule, withFormatWorkers } from "../emit/render.js";
import { emitRevisionList, REVISION_LIST_FILE } from "../emit/revision-list.js";
import { emitEnv, emitRevision, ModelLoader, serializeModel, type LoadOptions } from "../pipeline.js";
import { PROTOCOL_RULES_DOC, readLedger, renderProtocolRules } from "../spec/protocol-rules.js";
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
  const models = new Map<string, Model>();
  let diffs: ReturnType<typeof repositoryDiffs> = new Map();
  let diffsMs = 0;
  await withFormatWorkers(async () => {
    // The host's revision list (generated/revisions.ts) is the table's alone, whichever revisions are built.
    const revisionList = formatModule(emitRevisionList(table), REVISION_LIST_FILE);
    revisionList.catch(() => {}); // awaited below; this only keeps a failure from being unhandled meanwhile
    // Each revision is parsed and emitted on this thread while the ones before it are formatted.
    const built = revisions.map((revision) => {
      const started = performance.now();
      const { model, from } = loader.load(revision, options);
      models.set(revision, model);
      const files = emitRevision(model, emitEnv(table, revision));
      files.catch(() => {}); // awaited below, in order; this only keeps a failure from being unhandled meanwhile
      return { revision, model, from, files, ms: performance.now() - started };
    });
    // generated/diffs/ spans all revisions: the ones built now and the checked-in models of the
    // rest. Built while the format workers (if any) still format the revisions' files.
    const diffsStarted = performance.now();
    diffs = repositoryDiffs(table, models);
    diffsMs = performance.now() - diffsStarted;
    for (const { revision, model, from, files: pending, ms } of built) {
      const files = await pending;
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
        `${revision.padEnd(10)}  ${String(model.declarations.length).padStart(3)} types  ${String(model.methods.length).padStart(2)} methods  ${files.size} files  ${Math.round(ms)} ms parse and emit  ${origin}`,
      );
    }
    result.tree.set(REVISION_LIST_FILE, await revisionList);
  });
  for (const [file, content] of diffs) result.tree.set(file, content);
  result.ownedDirs.push(DIFFS_DIR);
  log(`${"diffs".padEnd(10)}  ${diffs.size} files  ${Math.round(diffsMs)} ms`);
  // The ledger of protocol rules, rendered (spec/protocol-rules.json → docs/protocol-rules.md).
  result.tree.set(PROTOCOL_RULES_DOC, renderProtocolRules(readLedger(), table));
  return result;
}

// Writes a set of files under a root, or compares them with what is there.
// Writing is all-or-nothing for content: every new file is staged next to its target
// first, and only when all are staged are they renamed into place.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type Tree = Map<string, string>;

export interface Drift {
  path: string;
  status: "added" | "changed" | "stale";
  expected?: string;
  actual?: string;
}

/** Files under `dirs` (relative to root) that the tree does not contain. */
function staleFiles(root: string, tree: Tree, dirs: string[]): string[] {
  const stale: string[] = [];
  for (const dir of dirs) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const rel = join(entry.parentPath, entry.name).slice(root.length + 1);
      if (!tree.has(rel)) stale.push(rel);
    }
  }
  return stale.sort();
}

/** How the files on disk differ from `tree`; `ownedDirs` may hold no other files. */
export function compareTree(root: string, tree: Tree, ownedDirs: string[]): Drift[] {
  const drift: Drift[] = [];
  for (const [path, expected] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const abs = join(root, path);
    if (!existsSync(abs)) {
      drift.push({ path, status: "added", expected });
      continue;
    }
    const actual = readFileSync(abs, "utf8");
    if (actual !== expected) drift.push({ path, status: "changed", expected, actual });
  }
  for (const path of staleFiles(root, tree, ownedDirs)) {
    drift.push({ path, status: "stale", actual: readFileSync(join(root, path), "utf8") });
  }
  return drift;
}

export function writeTree(root: string, tree: Tree, ownedDirs: string[]): Drift[] {
  const drift = compareTree(root, tree, ownedDirs);
  const staged: [string, string][] = [];
  try {
    for (const d of drift) {
      if (d.expected === undefined) continue;
      const target = join(root, d.path);
      mkdirSync(dirname(target), { recursive: true });
      const temp = `${target}.mcp-gen-${process.pid}.tmp`;
      writeFileSync(temp, d.expected);
      staged.push([temp, target]);
    }
  } catch (error) {
    for (const [temp] of staged) rmSync(temp, { force: true });
    throw error;
  }
  for (const [temp, target] of staged) renameSync(temp, target);
  for (const d of drift) if (d.status === "stale") rmSync(join(root, d.path));
  return drift;
}

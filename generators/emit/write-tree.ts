// Writes a set of files under a root, or compares them with what is there.
// Writing is all-or-nothing for content: every new file is staged next to its target
// first, and only when all are staged are they renamed into place.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileSystemError, InputError } from "../errors.js";

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

/**
 * How the files on disk differ from `tree`. Stale files are those under `ownedDirs` the tree does not
 * contain, plus `staleCandidates` (files a previous run wrote) that still exist.
 */
export function compareTree(root: string, tree: Tree, ownedDirs: string[], staleCandidates: string[] = []): Drift[] {
  const drift: Drift[] = [];
  for (const [path, expected] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const actual = readIfFile(join(root, path));
    if (actual === undefined) drift.push({ path, status: "added", expected });
    else if (actual !== expected) drift.push({ path, status: "changed", expected, actual });
  }
  const stale = new Set(staleFiles(root, tree, ownedDirs));
  // Only regular files: a listed path that is now a directory or a symbolic link is not removed.
  for (const path of staleCandidates) {
    if (!tree.has(path) && lstatSync(join(root, path), { throwIfNoEntry: false })?.isFile()) stale.add(path);
  }
  for (const path of [...stale].sort()) {
    drift.push({ path, status: "stale", actual: readFileSync(join(root, path), "utf8") });
  }
  return drift;
}

export function writeTree(root: string, tree: Tree, ownedDirs: string[]): Drift[] {
  const drift = compareTree(root, tree, ownedDirs);
  applyDrift(root, drift);
  return drift;
}

/** Makes the disk match: writes added and changed files (staged, then renamed), removes stale ones. */
export function applyDrift(root: string, drift: Drift[]): void {
  const staged: [string, string][] = [];
  let target = root;
  try {
    for (const d of drift) {
      if (d.expected === undefined) continue;
      target = join(root, d.path);
      makeDirectories(dirname(target));
      const temp = `${target}.mcp-gen-${process.pid}.tmp`;
      writeFileSync(temp, d.expected);
      staged.push([temp, target]);
    }
  } catch (error) {
    for (const [temp] of staged) rmSync(temp, { force: true });
    throw fileSystemError(error, target);
  }
  for (const [temp, target] of staged) renameSync(temp, target);
  for (const d of drift) if (d.status === "stale") rmSync(join(root, d.path));
}

/** A file's text, or undefined when there is none; a directory in its place is an input error. */
function readIfFile(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (statSync(path).isDirectory()) throw new InputError(`${path}: is a directory, where a generated file goes`);
  return readFileSync(path, "utf8");
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir never returns for some paths it cannot
 * create (under /proc), and this way the error names the directory that failed.
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      throw fileSystemError(error, d);
    }
  }
}

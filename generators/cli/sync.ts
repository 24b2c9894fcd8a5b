// `mcp-gen sync`: fill the git-ignored cache with each revision's pinned spec sources (schema.ts,
// and the schema.json and examples/ the tests read), copied from a directory or downloaded, each
// file checked against its pinned sha256. With `--commit`, (re)pin one revision to an upstream
// commit instead, recording the hash of every file.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeDirectories } from "../emit/write-tree.js";
import { fileSystemError, InputError } from "../errors.js";
import { paths } from "../paths.js";
import {
  fillTemplate,
  findRevision,
  loadRevisionTable,
  pinnedFiles,
  rawUrl,
  sha256,
  sourceFolder,
  verifyHash,
  type RevisionPin,
  type RevisionTable,
} from "../spec/revisions.js";
import type { Log } from "./build.js";

export interface SyncOptions {
  revisions?: string[];
  from?: string;
  commit?: string;
}

/** Downloads at a time: a revision has over a hundred small example files. */
const PARALLEL_DOWNLOADS = 8;

export async function sync(options: SyncOptions, log: Log): Promise<number> {
  const table = loadRevisionTable();
  if (options.commit) return pin(table, options, log);
  const pins = (options.revisions ?? table.revisions.map((r) => r.revision)).map((r) => findRevision(table, r));
  for (const p of pins) {
    const source = sourceOf(table, p, options.from);
    const files = await readAll(
      source,
      pinnedFiles(p).map(([path]) => path),
      // A download reuses what the cache already holds at the pinned hash.
      options.from === undefined ? (path) => cachedFile(p, path) : () => undefined,
    );
    for (const [path, expected] of pinnedFiles(p)) verifyHash(source.name(path), files.get(path) ?? "", p, expected);
    const target = writeCache(p.revision, files);
    log(`${p.revision.padEnd(10)}  sha256 ok  ${String(files.size).padStart(3)} files  ${source.origin} → ${target}`);
  }
  return 0;
}

async function pin(table: RevisionTable, options: SyncOptions, log: Log): Promise<number> {
  const [revision, ...rest] = options.revisions ?? [];
  if (!revision || rest.length > 0) throw new InputError("--commit pins one revision: give exactly one --rev");
  if (!/^[0-9a-f]{40}$/.test(options.commit ?? "")) throw new InputError("--commit needs a full 40-hex commit id");
  const existing = table.revisions.find((r) => r.revision === revision);
  const draft: RevisionPin = {
    ...(existing ?? { revision, numberType: "integer" }),
    commit: options.commit as string,
    sha256: "",
    files: {},
  };
  const source = sourceOf(table, draft, options.from);
  const listed = options.from ? listDirectory(join(options.from, revision)) : await listTree(table, draft);
  const files = await readAll(source, ["schema.ts", ...listed], () => undefined);
  draft.sha256 = sha256(files.get("schema.ts") ?? "");
  draft.files = Object.fromEntries(listed.map((path) => [path, sha256(files.get(path) ?? "")]));
  const revisions = existing
    ? table.revisions.map((r) => (r.revision === revision ? draft : r))
    : [...table.revisions, draft];
  writeFileSync(paths.revisions, JSON.stringify({ ...table, revisions }, null, 2) + "\n");
  const target = writeCache(revision, files);
  log(
    `${revision}: pinned to ${draft.commit}, sha256 ${draft.sha256}, ${listed.length} more files (${source.origin} → ${target})`,
  );
  log("next: `npm run generate` to rebuild its model and generated code");
  return 0;
}

/** Where a revision's files come from: a local directory (`--from`) or the pinned commit upstream. */
interface Source {
  origin: string;
  /** The file as messages name it: its path or URL. */
  name(path: string): string;
  read(path: string): Promise<Buffer>;
}

function sourceOf(table: RevisionTable, p: RevisionPin, from: string | undefined): Source {
  if (from !== undefined) {
    const dir = join(from, p.revision);
    return {
      origin: dir,
      name: (path) => join(dir, path),
      read: async (path) => {
        const file = join(dir, path);
        if (!existsSync(file)) throw new InputError(`${file}: no such file`);
        try {
          return readFileSync(file);
        } catch (error) {
          throw fileSystemError(error, file);
        }
      },
    };
  }
  return {
    origin: rawUrl(table, p, "…"),
    name: (path) => rawUrl(table, p, path),
    read: (path) => download(rawUrl(table, p, path)),
  };
}

async function download(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new InputError(
      `${url}: download failed (${(error as Error).message}); use --from DIR to copy from a local checkout`,
    );
  }
  if (!response.ok) throw new InputError(`${url}: download failed with HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Reads every file (a few at a time), taking `known(path)` where it has one. */
async function readAll(
  source: Source,
  files: string[],
  known: (path: string) => Buffer | undefined,
): Promise<Map<string, Buffer>> {
  for (const path of files) checkPath(path);
  const read = new Map<string, Buffer>();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let path = files[next++]; path !== undefined; path = files[next++]) {
      read.set(path, known(path) ?? (await source.read(path)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, files.length) }, worker));
  return new Map(files.map((path) => [path, read.get(path) as Buffer]));
}

/** A path inside the revision's folder, never outside it: the listing and the pins name where files are written. */
function checkPath(path: string): void {
  if (!/^[\w.-]+(\/[\w.-]+)*$/.test(path) || path.split("/").some((part) => part === "." || part === "..")) {
    throw new InputError(`refusing the spec source path ${JSON.stringify(path)}`);
  }
}

/** The files the tests read besides schema.ts: the spec's JSON Schema and its example instances. */
function isTestSource(path: string): boolean {
  return path === "schema.json" || (path.startsWith("examples/") && path.endsWith(".json"));
}

function listDirectory(dir: string): string[] {
  if (!existsSync(join(dir, "schema.ts"))) throw new InputError(`${join(dir, "schema.ts")}: no such file`);
  const walk = (relative: string): string[] =>
    readdirSync(join(dir, relative)).flatMap((name) => {
      const path = relative ? `${relative}/${name}` : name;
      return statSync(join(dir, path)).isDirectory() ? walk(path) : [path];
    });
  return walk("").filter(isTestSource).sort();
}

/** The revision's folder at the commit, from the repository's tree (one request for the whole tree). */
async function listTree(table: RevisionTable, p: RevisionPin): Promise<string[]> {
  const url = fillTemplate(table.treeUrl, { repository: table.repository, commit: p.commit });
  const tree = JSON.parse((await download(url)).toString("utf8")) as {
    tree?: { path: string; type: string }[];
    truncated?: boolean;
  };
  if (!Array.isArray(tree.tree) || tree.truncated) {
    throw new InputError(`${url}: no complete file tree; use --from DIR to pin from a local checkout`);
  }
  const folder = `${sourceFolder(table, p.revision)}/`;
  return tree.tree
    .filter((entry) => entry.type === "blob" && entry.path.startsWith(folder))
    .map((entry) => entry.path.slice(folder.length))
    .filter(isTestSource)
    .sort();
}

function cachedFile(p: RevisionPin, path: string): Buffer | undefined {
  const file = join(paths.cache, p.revision, path);
  const expected = pinnedFiles(p).find(([pinned]) => pinned === path)?.[1];
  if (!existsSync(file)) return undefined;
  const data = readFileSync(file);
  return sha256(data) === expected ? data : undefined;
}

/** Replaces the revision's cache folder as a whole, so it never mixes files of two pins. */
function writeCache(revision: string, files: Map<string, Buffer>): string {
  makeDirectories(paths.cache);
  const target = join(paths.cache, revision);
  const staging = join(paths.cache, `.${revision}.${process.pid}.partial`);
  rmSync(staging, { recursive: true, force: true });
  for (const [path, data] of files) {
    const file = join(staging, path);
    makeDirectories(dirname(file));
    writeFileSync(file, data);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return target;
}

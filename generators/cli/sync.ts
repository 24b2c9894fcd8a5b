// `mcp-gen sync`: fill the git-ignored cache with each revision's pinned schema.ts,
// copied from a directory or downloaded, always checked against the pinned sha256.
// With `--commit`, (re)pin one revision to an upstream commit instead.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDirectories } from "../emit/write-tree.js";
import { InputError } from "../errors.js";
import { paths } from "../paths.js";
import {
  findRevision,
  loadRevisionTable,
  rawUrl,
  sha256,
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

export async function sync(options: SyncOptions, log: Log): Promise<number> {
  const table = loadRevisionTable();
  if (options.commit) return pin(table, options, log);
  const pins = (options.revisions ?? table.revisions.map((r) => r.revision)).map((r) => findRevision(table, r));
  for (const p of pins) {
    const { text, origin } = await fetchSchema(table, p, options.from);
    verifyHash(origin, text, p);
    const target = writeCache(p.revision, text);
    log(`${p.revision.padEnd(10)}  sha256 ok  ${origin} → ${target}`);
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
  };
  const { text, origin } = await fetchSchema(table, draft, options.from);
  draft.sha256 = sha256(text);
  const revisions = existing
    ? table.revisions.map((r) => (r.revision === revision ? draft : r))
    : [...table.revisions, draft];
  writeFileSync(paths.revisions, JSON.stringify({ ...table, revisions }, null, 2) + "\n");
  const target = writeCache(revision, text);
  log(`${revision}: pinned to ${draft.commit}, sha256 ${draft.sha256} (${origin} → ${target})`);
  log("next: `npm run generate` to rebuild its model and generated code");
  return 0;
}

async function fetchSchema(
  table: RevisionTable,
  p: RevisionPin,
  from?: string,
): Promise<{ text: string; origin: string }> {
  if (from) {
    const path = join(from, p.revision, "schema.ts");
    if (!existsSync(path)) throw new InputError(`${path}: no such file`);
    return { text: readFileSync(path, "utf8"), origin: path };
  }
  const url = rawUrl(table, p);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new InputError(
      `${url}: download failed (${(error as Error).message}); use --from DIR to copy from a local checkout`,
    );
  }
  if (!response.ok) throw new InputError(`${url}: download failed with HTTP ${response.status}`);
  return { text: await response.text(), origin: url };
}

function writeCache(revision: string, text: string): string {
  const dir = join(paths.cache, revision);
  makeDirectories(dir);
  const target = join(dir, "schema.ts");
  writeFileSync(target, text);
  return target;
}

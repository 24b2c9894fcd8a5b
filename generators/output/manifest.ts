// The manifest a `--out` tree carries: which revision and generator version wrote it, and which files.
// A later run removes the files it lists that are no longer generated, and touches no others.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, posix } from "node:path";
import { InputError } from "../errors.js";
import { GENERATOR_VERSION } from "../paths.js";

export const MANIFEST_FILE = ".mcp-gen-manifest.json";

export interface Manifest {
  generator: "mcp-gen";
  version: string;
  revision: string;
  /** Paths relative to the directory, sorted; the manifest itself is not listed. */
  files: string[];
}

export function serializeManifest(revision: string, files: Iterable<string>): string {
  const manifest: Manifest = {
    generator: "mcp-gen",
    version: GENERATOR_VERSION,
    revision,
    files: [...files].filter((f) => f !== MANIFEST_FILE).sort(),
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

/** A path a manifest may list: relative, normalized, inside the directory (`/`-separated on every system). */
const isInsidePath = (path: string) =>
  path !== "" &&
  !isAbsolute(path) &&
  posix.normalize(path) === path &&
  path !== ".." &&
  !path.startsWith("../") &&
  path !== MANIFEST_FILE;

/**
 * The manifest in `dir`, or undefined when there is none. One that is not a manifest (or lists a
 * path outside `dir`, which would let it remove foreign files) is an input error.
 */
export function readManifest(dir: string): Manifest | undefined {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const fail = (why: string): never => {
    throw new InputError(`${file}: not an mcp-gen manifest (${why}); remove it, or pass --force to replace it`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return fail((error as Error).message);
  }
  const m = raw as Partial<Manifest> | null;
  if (typeof m !== "object" || m === null || m.generator !== "mcp-gen") return fail('no "generator": "mcp-gen"');
  if (typeof m.revision !== "string" || typeof m.version !== "string") return fail("no revision or version");
  if (!Array.isArray(m.files) || !m.files.every((f) => typeof f === "string" && isInsidePath(f))) {
    return fail('"files" must list relative paths inside the directory');
  }
  return m as Manifest;
}

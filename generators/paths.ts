// Where the package's own files live, whether running from source or from dist/.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

interface PackageJson {
  name?: string;
  version?: string;
}

function findPackageRoot(start: string): { root: string; manifest: PackageJson } {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as PackageJson) : undefined;
    if (manifest?.name === "mcp-gen") return { root: dir, manifest };
    if (dirname(dir) === dir) throw new Error(`mcp-gen: package root not found above ${start}`);
  }
}

const found = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const PACKAGE_ROOT = found.root;

/** The version every generated file is stamped with. */
export const GENERATOR_VERSION = found.manifest.version ?? "0.0.0";

/**
 * Whether this mcp-gen runs from an installed package rather than a checkout of its repository:
 * every package manager (npm, pnpm, yarn's node_modules linker, npx, global installs) puts packages
 * under a `node_modules` directory, and a checkout is never inside one. `npm install <folder>`
 * links the checkout, whose real path then has no `node_modules`: it is the repository.
 */
export const INSTALLED = realpathSync(PACKAGE_ROOT).split(sep).includes("node_modules");

export const paths = {
  root: PACKAGE_ROOT,
  spec: join(PACKAGE_ROOT, "spec"),
  revisions: join(PACKAGE_ROOT, "spec", "revisions.json"),
  inferences: join(PACKAGE_ROOT, "spec", "method-inferences.json"),
  /** Reviewed down-conversions for serving older revisions from one set of handlers. */
  conversions: join(PACKAGE_ROOT, "spec", "down-conversions.json"),
  templates: join(PACKAGE_ROOT, "templates"),
  /** The hand-written runtime generated clients and servers import (TypeScript sources). */
  runtime: join(PACKAGE_ROOT, "runtime"),
  generated: join(PACKAGE_ROOT, "generated"),
  /** Downloaded schema.ts files (git-ignored). */
  cache: process.env.MCP_GEN_CACHE_DIR ?? join(PACKAGE_ROOT, ".cache", "spec"),
  model: (revision: string) => join(PACKAGE_ROOT, "spec", revision, "model.json"),
};

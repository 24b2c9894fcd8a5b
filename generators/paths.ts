// Where the package's own files live, whether running from source or from dist/.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "mcp-gen") {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`mcp-gen: package root not found above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const paths = {
  root: PACKAGE_ROOT,
  spec: join(PACKAGE_ROOT, "spec"),
  revisions: join(PACKAGE_ROOT, "spec", "revisions.json"),
  inferences: join(PACKAGE_ROOT, "spec", "method-inferences.json"),
  templates: join(PACKAGE_ROOT, "templates"),
  /** The hand-written runtime generated clients and servers import (TypeScript sources). */
  runtime: join(PACKAGE_ROOT, "runtime"),
  generated: join(PACKAGE_ROOT, "generated"),
  /** Downloaded schema.ts files (git-ignored). */
  cache: process.env.MCP_GEN_CACHE_DIR ?? join(PACKAGE_ROOT, ".cache", "spec"),
  model: (revision: string) => join(PACKAGE_ROOT, "spec", revision, "model.json"),
};

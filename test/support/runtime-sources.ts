// @mcp-gen/runtime's subpaths, as its package.json exports them, mapped to the sources they are
// built from: the tests compile and import code that imports the package (the docs' snippets,
// `mcp-gen tools` modules) against the runtime of this commit, not a stale build of it
// (test/packaging.test.ts checks the built package).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { paths } from "../../generators/paths.js";

/** Each subpath (`@mcp-gen/runtime/tools`; a pattern: `@mcp-gen/runtime/*`) with its source file (`*` where the pattern's is). */
export function runtimeSources(): [specifier: string, source: string][] {
  const manifest = JSON.parse(readFileSync(join(paths.root, "packages/runtime/package.json"), "utf8")) as {
    exports: { [subpath: string]: string | { types: string } };
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]): [string, string][] =>
    typeof target === "string"
      ? []
      : [
          [
            `@mcp-gen/runtime${subpath.slice(1)}`,
            join(paths.root, target.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")),
          ],
        ],
  );
}

/** The same, as the compiler's `paths`. */
export function runtimePaths(): { [specifier: string]: string[] } {
  return Object.fromEntries(runtimeSources().map(([specifier, source]) => [specifier, [source]]));
}

/** The same, as vite's `resolve.alias`: exact subpaths first, patterns after. */
export function runtimeAliases(): { find: RegExp; replacement: string }[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return runtimeSources()
    .sort(([a], [b]) => Number(a.includes("*")) - Number(b.includes("*")))
    .map(([specifier, source]) => ({
      find: new RegExp(`^${escape(specifier).replace("\\*", "(.+)")}$`),
      replacement: source.replace("*", "$1"),
    }));
}

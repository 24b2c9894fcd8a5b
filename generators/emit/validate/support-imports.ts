// What a module that imports the validators' support (runtime/validation/, published as
// @mcp-gen/runtime/validation) instead of inlining it takes from there: the names its code refers
// to, and the validation API it passes on (what a validators.ts that inlines the support exports,
// the `api` region). Names are read from the sources' `export` lines (regions.ts).
import type { Export } from "./regions.js";
import { API_REGION, supportSources } from "./support-code.js";

export interface SupportImports {
  /** The names `code` refers to, sorted, types as `type Name`. */
  imported: string[];
  /** The names of the validation API, as `imported`. */
  exported: string[];
}

export function supportImports(code: string): SupportImports {
  const exports = supportExports();
  const named = identifiers(code);
  const listed = (keep: (name: string, exported: Export) => boolean) =>
    [...exports]
      .filter(([name, exported]) => keep(name, exported))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, exported]) => (exported.type ? `type ${name}` : name));
  return {
    imported: listed((name) => named.has(name)),
    exported: listed((_, exported) => exported.region === API_REGION),
  };
}

/** Every name runtime/validation/ exports. */
function supportExports(): Map<string, Export> {
  const sources = supportSources();
  return new Map([...sources.support.exports, ...sources.helpers.exports, ...sources.formats.exports]);
}

/**
 * The identifiers `code` refers to: outside its comments and string literals (where a tool's own
 * names and texts are), and not after a `.` (a property).
 */
function identifiers(code: string): Set<string> {
  const bare = code.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g,
    " ",
  );
  return new Set(bare.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g));
}

// The import graph of the repository's own source, and the circles in it (test tooling, no
// dependency): each file's relative imports (static, `import type`, `export … from`, `import("…")`
// with a literal) read by a regular expression once comments and template literals are blanked,
// resolved to files (`./x.js` → x.ts), and its circles (generators/cycles.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { cycles } from "../../generators/cycles.js";

/** File → the files it imports, all as paths relative to the root. */
export type Graph = Map<string, string[]>;

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = /\b(?:return|typeof|case|do|else|in|of|void|yield|await|delete|throw|new)$/;

/**
 * The source with comments removed and template literals emptied (their `${…}` code kept), so
 * neither a commented-out import nor an import written inside generated text counts. Strings and
 * regular expressions are skipped whole, so `"//"` or `/[/*]/` starts no comment.
 */
export function stripComments(source: string): string {
  let out = "";
  let i = 0;
  const braces: number[] = []; // open `{` per `${` we are inside, innermost last
  const skipQuoted = (quote: string) => {
    const start = i++;
    let inClass = false;
    while (i < source.length && source[i] !== "\n" && (source[i] !== quote || inClass)) {
      if (source[i] === "\\") i++;
      else if (quote === "/" && (source[i] === "[" || source[i] === "]")) inClass = source[i] === "[";
      i++;
    }
    out += source.slice(start, ++i);
  };
  const skipTemplate = () => {
    // From after a ` or a `}` closing `${…}`: to the closing ` (kept) or into the next `${`.
    while (i < source.length && source[i] !== "`" && !(source[i] === "$" && source[i + 1] === "{")) {
      i += source[i] === "\\" ? 2 : 1;
    }
    if (source[i] === "`") {
      out += source[i++];
    } else if (i < source.length) {
      out += "${";
      i += 2;
      braces.push(0);
    }
  };
  /** A `/` here starts a regular expression: it does not follow a value (a name, `)` or `]`). */
  const regexHere = () => {
    let end = out.length;
    while (end > 0 && /\s/.test(out[end - 1] as string)) end--;
    const before = out.slice(Math.max(0, end - 12), end);
    return !/[\w$)\]]$/.test(before) || BEFORE_REGEX.test(before);
  };
  while (i < source.length) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? source.length : end + 2;
      out += " ";
    } else if (c === '"' || c === "'") {
      skipQuoted(c);
    } else if (c === "/" && regexHere()) {
      skipQuoted("/");
    } else if (c === "`") {
      out += source[i++];
      skipTemplate();
    } else if (braces.length > 0 && (c === "{" || c === "}")) {
      const depth = braces.pop() as number;
      out += source[i++];
      if (c === "{") braces.push(depth + 1);
      else if (depth > 0) braces.push(depth - 1);
      else skipTemplate();
    } else {
      out += source[i++];
    }
  }
  return out;
}

const STATIC = /\b(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

/** The relative specifiers a module imports or re-exports, in order of appearance. */
export function importsOf(source: string): string[] {
  const code = stripComments(source);
  const found = [...code.matchAll(STATIC), ...code.matchAll(DYNAMIC)].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return found.map((m) => m[1] as string).filter((spec) => spec.startsWith("."));
}

/** The file a relative specifier names, if it is one of `files`: `./x.js` → x.ts, `./x.mjs` → x.mts. */
function resolveSpecifier(from: string, spec: string, files: Set<string>): string | undefined {
  const base = join(dirname(from), spec);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    base,
    `${base}.ts`,
    join(base, "index.ts"),
  ];
  return candidates.find((file) => files.has(file));
}

function sourceFiles(root: string, dir: string): string[] {
  const full = resolve(root, dir);
  return readdirSync(full).flatMap((name) => {
    const path = join(full, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(root, path);
    return /\.m?ts$/.test(name) && !name.endsWith(".d.ts") ? [relative(root, path)] : [];
  });
}

/** The graph of every .ts/.mts file under `dirs`; imports of files elsewhere are left out. */
export function importGraph(root: string, dirs: string[]): Graph {
  const files = dirs.flatMap((dir) => sourceFiles(root, dir)).sort();
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const specs = importsOf(readFileSync(join(root, file), "utf8"));
      const targets = specs.flatMap((spec) => resolveSpecifier(file, spec, known) ?? []);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The circles of a graph: each strongly connected component of two or more files, or a file importing itself. */
export function circles(graph: Graph): string[][] {
  return cycles(graph.keys(), graph);
}

// Handlebars lays out a file from its view model; prettier formats the result.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import Handlebars from "handlebars";
import { INSTALLED, paths } from "../paths.js";

const hbs = Handlebars.create();
// Templates only place code built (and escaped) by the emitters; nothing is HTML.
const compiled = new Map<string, Handlebars.TemplateDelegate>();

// Every file under templates/partials/ is a partial named by its path: "header", "formats/uri".
const partials = join(paths.templates, "partials");
for (const entry of readdirSync(partials, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".hbs")) continue;
  const file = join(entry.parentPath, entry.name);
  hbs.registerPartial(relative(partials, file).replace(/\.hbs$/, ""), readFileSync(file, "utf8"));
}

export function renderTemplate(name: string, view: object): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(join(paths.templates, `${name}.hbs`), "utf8");
    template = hbs.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(view);
}

const PRETTIER = { parser: "typescript", printWidth: 100 } as const;

/**
 * Formatted sources, keyed by prettier's version, its options and the unformatted text: prettier
 * is deterministic, and on large validator files it is most of a run's time. The cache is
 * `.cache/format/` (git-ignored), `$MCP_GEN_FORMAT_CACHE`, or off with `MCP_GEN_FORMAT_CACHE=off`;
 * off by default in an installed package, which mcp-gen never writes into.
 */
const formatCache = () =>
  process.env.MCP_GEN_FORMAT_CACHE ?? (INSTALLED ? "off" : join(paths.root, ".cache", "format"));

let prettier: typeof import("prettier") | undefined;

export async function formatTypeScript(source: string, file: string): Promise<string> {
  // Loaded on first use: commands that format nothing (diff --format json) do not pay for it.
  prettier ??= await import("prettier");
  const options = { ...PRETTIER, filepath: file };
  const cache = formatCache();
  if (cache === "off") return prettier.format(source, options);
  const key = createHash("sha256")
    .update(`${prettier.version}\0${JSON.stringify(options)}\0${source}`)
    .digest("hex");
  const cached = join(cache, key.slice(0, 2), key);
  try {
    return readFileSync(cached, "utf8");
  } catch {
    // Not cached yet.
  }
  const formatted = await prettier.format(source, options);
  try {
    mkdirSync(join(cache, key.slice(0, 2)), { recursive: true });
    const temp = `${cached}.${process.pid}.tmp`;
    writeFileSync(temp, formatted);
    renameSync(temp, cached);
  } catch {
    // A read-only install still works, only slower.
  }
  return formatted;
}

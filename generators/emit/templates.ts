// Handlebars lays out a file from its view model (templates/). The templates are also precompiled
// when mcp-gen is built (`npm run build` writes dist/templates.json): compiling the ones a
// generating run uses took about 0.3 s of every run. A precompiled template is used only while the
// file's text, the options and Handlebars' version are the ones it was compiled from; any other
// template (edited since the build, or no build) is compiled here on first use, as before.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { paths } from "../paths.js";

// Templates only place code built (and escaped) by the emitters; nothing is HTML.
const OPTIONS = { noEscape: true, strict: true } as const;

/** The build's precompiled templates. */
const TEMPLATE_SPECS = join(paths.root, "dist", "templates.json");

/** A template's path under templates/ ("types.hbs", "partials/validators/table.hbs") → its precompiled source. */
export type TemplateSpecs = Record<string, { key: string; spec: string }>;

const keyOf = (text: string): string =>
  createHash("sha256")
    .update(`${Handlebars.VERSION}\0${JSON.stringify(OPTIONS)}\0`)
    .update(text)
    .digest("hex");

/** Every template file, by its path under templates/ ("/"-separated), with its text. */
function templateFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(paths.templates, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".hbs")) continue;
    const file = join(entry.parentPath, entry.name);
    files.set(relative(paths.templates, file).split(sep).join("/"), readFileSync(file, "utf8"));
  }
  return files;
}

/** Every template precompiled, in path order. */
export function precompileTemplates(): TemplateSpecs {
  const specs: TemplateSpecs = {};
  for (const [path, text] of [...templateFiles()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    specs[path] = { key: keyOf(text), spec: Handlebars.precompile(text, { ...OPTIONS }) as string };
  }
  return specs;
}

/** The build's step (scripts/precompile-templates.mjs). */
export function writeTemplateSpecs(file = TEMPLATE_SPECS): void {
  writeFileSync(file, JSON.stringify(precompileTemplates()));
}

function readTemplateSpecs(file: string): TemplateSpecs {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as TemplateSpecs;
  } catch {
    return {}; // no build (a run from source): every template is compiled on first use
  }
}

/**
 * A renderer over templates/: every file under templates/partials/ is a partial named by its path
 * there ("header", "validators/table"); `render("types", view)` renders templates/types.hbs. Templates
 * come from `specs` when they were compiled from the same text, else are compiled on first use.
 */
export function templateRenderer(
  specs: TemplateSpecs = readTemplateSpecs(TEMPLATE_SPECS),
): (name: string, view: object) => string {
  const hbs = Handlebars.create();
  const files = templateFiles();
  const precompiled = (path: string, text: string): Handlebars.TemplateDelegate | undefined => {
    const entry = specs[path];
    if (entry?.key !== keyOf(text)) return undefined;
    // The build's own output, as trusted as dist/*.js: how Handlebars loads a precompiled template.
    return hbs.template(new Function(`return ${entry.spec};`)() as TemplateSpecification);
  };
  for (const [path, text] of files) {
    if (!path.startsWith("partials/")) continue;
    // Compiled here when stale: a partial registered as text is compiled when first called, with
    // the options of the template calling it, and a precompiled one carries none (noEscape is lost).
    hbs.registerPartial(
      path.slice("partials/".length, -".hbs".length),
      precompiled(path, text) ?? hbs.compile(text, { ...OPTIONS }),
    );
  }
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  return (name, view) => {
    let template = compiled.get(name);
    if (!template) {
      const path = `${name}.hbs`;
      const text = files.get(path) ?? readFileSync(join(paths.templates, path), "utf8");
      template = precompiled(path, text) ?? hbs.compile(text, { ...OPTIONS });
      compiled.set(name, template);
    }
    return template(view);
  };
}

export const renderTemplate = templateRenderer();

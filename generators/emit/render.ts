// Handlebars lays out a file from its view model; prettier formats the result.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import Handlebars from "handlebars";
import * as prettier from "prettier";
import { paths } from "../paths.js";

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

const PRETTIER: prettier.Options = { parser: "typescript", printWidth: 100 };

export function formatTypeScript(source: string, file: string): Promise<string> {
  return prettier.format(source, { ...PRETTIER, filepath: file });
}

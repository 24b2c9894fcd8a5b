// Handlebars lays out a file from its view model; prettier formats the result.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import * as prettier from "prettier";
import { paths } from "../paths.js";

const hbs = Handlebars.create();
// Templates only place code built (and escaped) by the emitters; nothing is HTML.
const compiled = new Map<string, Handlebars.TemplateDelegate>();

hbs.registerPartial("header", readFileSync(join(paths.templates, "partials", "header.hbs"), "utf8"));

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

// The Markdown format: an upgrade guide (templates/diff/report.md.hbs).
import { renderTemplate } from "../../emit/render.js";
import { markdownMarkup } from "./markup.js";
import type { Renderer } from "./renderer.js";
import { reportView } from "./view.js";

export const markdownRenderer: Renderer = {
  format: "md",
  render: (report, context) => renderTemplate("diff/report.md", reportView(report, context.links, markdownMarkup)),
};

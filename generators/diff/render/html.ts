// The HTML format: the upgrade guide as one self-contained page with filters
// (templates/diff/report.html.hbs; styles and script are partials shared with the index page).
import { renderTemplate } from "../../emit/render.js";
import { htmlMarkup } from "./markup.js";
import type { Renderer } from "./renderer.js";
import { reportView } from "./view.js";

export const htmlRenderer: Renderer = {
  format: "html",
  render: (report, context) =>
    renderTemplate("diff/report.html", {
      ...reportView(report, context.links, htmlMarkup),
      nav: context.nav ?? null,
    }),
};

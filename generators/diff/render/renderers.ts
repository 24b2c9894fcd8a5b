// The renderers, by format.
import { htmlRenderer } from "./html.js";
import { jsonRenderer } from "./json.js";
import { markdownRenderer } from "./markdown.js";
import type { Format, Renderer } from "./renderer.js";

export const RENDERERS: Record<Format, Renderer> = { md: markdownRenderer, json: jsonRenderer, html: htmlRenderer };

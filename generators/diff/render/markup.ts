// How text is marked up for a format (Markup), and the markups: Markdown and HTML, which the
// templates receive text in, and plain text for CI. Escaping happens here, once, so templates
// only place strings.

/** How a format writes prose and code. Every string the templates place went through one of these. */
export interface Markup {
  text(s: string): string;
  code(s: string): string;
  url(s: string): string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

export const htmlMarkup: Markup = {
  text: escapeHtml,
  code: (s) => `<code>${escapeHtml(s)}</code>`,
  url: escapeHtml,
};

/** Characters that start emphasis, links, HTML or table cells in CommonMark prose. */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>|#]/g;

export const markdownMarkup: Markup = {
  text: (s) => s.replace(MARKDOWN_SPECIAL, (c) => `\\${c}`),
  // A code span needs a longer backtick fence than any run of backticks inside it.
  code: (s) => {
    const fence = "`".repeat(Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length)) + 1);
    return fence.length > 1 ? `${fence} ${s} ${fence}` : `\`${s}\``;
  },
  // A link destination in Markdown ends at a space or an unbalanced parenthesis.
  url: (s) => s.replace(/[ ()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
};

/** Plain text (CI annotations, test names): nothing to escape, nothing marked. */
export const plainMarkup: Markup = { text: (s) => s, code: (s) => s, url: (s) => s };

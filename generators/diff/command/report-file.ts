// Which file `mcp-gen diff --out FILE` may overwrite without --force: one of its own reports, in any
// format (a run may switch formats). Reports carry no banner (Markdown, JSON and CI files are read
// as they are), so each format is told by how it starts (docs/decisions.md, "Safe writes").
const TITLE = String.raw`MCP \S+ → \S+: upgrade report`;
/** The name CI formats give the run (ci/gate.ts `diffRun`). */
const RUN = String.raw`mcp-gen diff \S+ → \S+`;

const OPENINGS: RegExp[] = [
  // md: the heading line.
  new RegExp(`^# ${TITLE}\n`),
  // html: the page's title, in its head.
  new RegExp(`^<!doctype html>\n[^]{0,400}?<title>${TITLE}</title>`),
  // junit: the root element, named after the run.
  new RegExp(`^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\n<testsuites name="${RUN}"`),
  // github: annotations only, each titled after the run (`:` escaped); none at all is an empty file.
  new RegExp(`^(?:::(?:error|warning|notice) [^\n]*title=${RUN}%3A[^\n]*\n)*$`),
];

/** Whether `text` is a report `mcp-gen diff` wrote, in any of its formats. */
export function isDiffReport(text: string): boolean {
  return OPENINGS.some((opening) => opening.test(text)) || isJsonReport(text);
}

/** json: an object with the report's first keys (docs/diff-report.schema.json). */
function isJsonReport(text: string): boolean {
  if (!text.startsWith('{\n  "from": ')) return false;
  try {
    const report = JSON.parse(text) as Record<string, unknown>;
    return (
      typeof report.from === "string" &&
      typeof report.to === "string" &&
      typeof report.summary === "object" &&
      Array.isArray(report.changes)
    );
  } catch {
    return false;
  }
}

// `--format github`: GitHub Actions workflow commands, one annotation per entry that has one
// (`::error`, `::warning`, or `::notice` for what --ignore accepted, with the reason).
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions
import type { CiEntry, CiRun } from "./entries.js";

export function renderGithub(run: CiRun): string {
  return run.entries.flatMap((e) => annotation(run, e)).join("");
}

function annotation(run: CiRun, e: CiEntry): string[] {
  const command = e.annotation;
  if (command === undefined) return [];
  const title = e.outcome === "accepted" ? `accepted: ${e.title}` : e.title;
  const lines = e.outcome === "accepted" ? [`${e.reason ?? ""} (${e.message})`] : [e.message, ...e.details];
  const properties = [
    ...(e.file !== undefined ? [`file=${property(e.file)}`] : []),
    `title=${property(`${run.name}: ${title}`)}`,
  ];
  return [`::${command} ${properties.join(",")}::${data(lines.join("\n"))}\n`];
}

/** Message text: `%`, CR and LF are escaped so one command stays one line. */
function data(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Property values also escape the `:` and `,` that separate properties. */
function property(s: string): string {
  return data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

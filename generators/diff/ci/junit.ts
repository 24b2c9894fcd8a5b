// `--format junit`: a JUnit XML report, one test case per entry, one suite per group: a case
// fails when its entry trips the check and is skipped (with the reason) when --ignore accepts
// it; a passing entry that is annotated (a warning) carries its message as output.
// Deterministic: no timestamps or host names.
import type { CiEntry, CiRun } from "./entries.js";

export function renderJunit(run: CiRun): string {
  const groups = [...new Set(run.entries.map((e) => e.group))];
  const suites = groups.map((group) =>
    suite(
      `${run.name}: ${group}`,
      group,
      run.entries.filter((e) => e.group === group),
    ),
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites ${attributes({ name: run.name, ...counts(run.entries) })}>`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}

function suite(name: string, group: string, entries: CiEntry[]): string {
  return [
    `  <testsuite ${attributes({ name, ...counts(entries) })}>`,
    ...entries.map((e) => testCase(group, e)),
    `  </testsuite>`,
  ].join("\n");
}

function testCase(group: string, e: CiEntry): string {
  const open = `    <testcase ${attributes({ classname: group, name: e.title, time: "0" })}`;
  const body = [e.message, ...e.details].join("\n");
  switch (e.outcome) {
    case "fail":
      return `${open}>\n      <failure ${attributes({ message: e.message, type: e.failure ?? "failure" })}>${text(body)}</failure>\n    </testcase>`;
    case "accepted":
      return `${open}>\n      <skipped ${attributes({ message: `accepted: ${e.reason ?? ""}` })}/>\n    </testcase>`;
    case "pass":
      return e.annotation ? `${open}>\n      <system-out>${text(body)}</system-out>\n    </testcase>` : `${open}/>`;
  }
}

function counts(entries: CiEntry[]): Record<string, string> {
  const n = (outcome: CiEntry["outcome"]) => String(entries.filter((e) => e.outcome === outcome).length);
  return { tests: String(entries.length), failures: n("fail"), errors: "0", skipped: n("accepted"), time: "0" };
}

function attributes(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key}="${text(value).replace(/"/g, "&quot;").replace(/\n/g, "&#10;")}"`)
    .join(" ");
}

/** XML text: markup characters escaped, and the control characters XML 1.0 cannot carry dropped. */
function text(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

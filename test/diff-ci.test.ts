// `mcp-gen diff` in CI: --ignore (accepted changes, each with a reason) for --fail-on, GitHub
// annotations (one per breaking finding) and a JUnit file, read back by a JUnit parser that CI
// reporting tools use (test-results-parser).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { parse } from "test-results-parser";
import { afterAll, describe, expect, it } from "vitest";
import type { DiffReport } from "../generators/diff/rules/findings.js";
import { paths } from "../generators/paths.js";

const TSX = join(paths.root, "node_modules", ".bin", "tsx");
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-diff-ci-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function diff(...args: string[]) {
  const result = spawnSync(TSX, ["generators/cli/main.ts", "diff", ...args], { cwd: paths.root, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const NEW = ["--from", "2025-11-25", "--to", "2026-07-28"];
const OLD = ["--from", "2024-11-05", "--to", "2025-03-26"];
const report = (from: string, to: string) =>
  JSON.parse(readFileSync(join(paths.root, "generated", "diffs", `${from}..${to}.json`), "utf8")) as DiffReport;

let files = 0;
function ignoreFile(content: unknown): string {
  const file = join(temp, `ignore-${++files}.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/** GitHub workflow commands in the output, as [command, title, message]. */
function annotations(stdout: string): [string, string, string][] {
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((line) => {
      const m = /^::(error|warning|notice) (?:file=[^,]*,)?title=([^:]*)::(.*)$/.exec(line);
      expect(m, line).not.toBeNull();
      const [, command, title, message] = m as unknown as [string, string, string, string];
      return [command, decodeURIComponent(title), decodeURIComponent(message)];
    });
}

describe("--format github", () => {
  const r = report("2025-11-25", "2026-07-28");

  it("annotates every breaking finding as an error, and warnings as warnings", () => {
    const out = diff(...NEW, "--format", "github");
    expect(out.status).toBe(0);
    const list = annotations(out.stdout);
    const errors = list.filter(([c]) => c === "error");
    expect(errors).toHaveLength(r.summary.breaking);
    expect(new Set(errors.map(([, title]) => title)).size).toBe(errors.length);
    expect(list.filter(([c]) => c === "warning")).toHaveLength(r.summary.warning);
    expect(errors.map(([, title]) => title)).toContain(
      "mcp-gen diff 2025-11-25 → 2026-07-28: REQUEST_REMOVED initialize",
    );
    // Both directions of a method are annotated, each under its own title.
    expect(errors.map(([, title]) => title)).toEqual(
      expect.arrayContaining([
        "mcp-gen diff 2025-11-25 → 2026-07-28: REQUEST_REMOVED tasks/get (client → server)",
        "mcp-gen diff 2025-11-25 → 2026-07-28: REQUEST_REMOVED tasks/get (server → client)",
      ]),
    );
  });

  it("with --fail-on client, errors are the findings that break clients; the rest are warnings; exit 1", () => {
    const out = diff(...NEW, "--format", "github", "--fail-on", "client");
    expect(out.status).toBe(1);
    const list = annotations(out.stdout);
    expect(list.filter(([c]) => c === "error")).toHaveLength(r.summary.breakingFor.client);
    expect(list.filter(([c]) => c === "warning")).toHaveLength(
      r.summary.warning + r.summary.breaking - r.summary.breakingFor.client,
    );
  });
});

describe("--ignore", () => {
  const r = report("2024-11-05", "2025-03-26");
  const breaking = r.changes.filter((f) => f.breaking);

  it("accepts the listed breaking changes for --fail-on, and says so", () => {
    const all = ignoreFile({
      ignore: [
        ...[...new Set(breaking.map((f) => f.name))].map((name) => ({ name, reason: `reviewed ${name}` })),
        { rule: "TYPE_REMOVED", name: "NoSuchType", reason: "stale" },
      ],
    });
    const out = diff(...OLD, "--fail-on", "breaking", "--ignore", all);
    expect(out.status).toBe(0);
    expect(out.stderr).toContain(`${breaking.length} breaking finding(s) accepted by ${all}`);
    expect(out.stderr).toContain(`warning: ${all}: ignore[${new Set(breaking.map((f) => f.name)).size}]`);

    // All but one rule-and-name pair accepted: the gate trips on that pair's findings only.
    const pairs = [...new Set(breaking.map((f) => `${f.rule} ${f.name}`))];
    const [left, ...accepted] = pairs.map((p) => p.split(" ") as [string, string]);
    const rest = ignoreFile({ ignore: accepted.map(([rule, name]) => ({ rule, name, reason: "reviewed" })) });
    const tripped = diff(...OLD, "--fail-on", "breaking", "--ignore", rest);
    expect(tripped.status).toBe(1);
    const count = breaking.filter((f) => `${f.rule} ${f.name}` === (left as string[]).join(" ")).length;
    expect(tripped.stderr).toContain(`gate tripped: ${count} breaking finding(s) for --fail-on breaking`);
  });

  it("turns accepted findings into notices carrying the reason, in GitHub annotations", () => {
    const file = ignoreFile({
      ignore: [{ rule: "UNION_MEMBER_ADDED", name: "JSONRPCMessage", reason: "we never batch" }],
    });
    const list = annotations(diff(...OLD, "--format", "github", "--ignore", file).stdout);
    const notices = list.filter(([c]) => c === "notice");
    expect(notices).toHaveLength(2);
    for (const [, title, message] of notices) {
      expect(title).toMatch(/accepted: UNION_MEMBER_ADDED JSONRPCMessage: \+ JSONRPCBatch(Request|Response)$/);
      expect(message).toMatch(/^we never batch \(/);
    }
    expect(list.filter(([c]) => c === "error")).toHaveLength(r.summary.breaking - 2);
  });

  it("matches names with * and rules alone", () => {
    const file = ignoreFile({
      ignore: [
        { name: "*.content*", reason: "we handle every content block" },
        { rule: "UNION_MEMBER_ADDED", reason: "unions grow" },
        { name: "completion/*", reason: "we declare completions" },
      ],
    });
    const out = diff(...OLD, "--fail-on", "breaking", "--ignore", file);
    expect(out.stderr).toContain(`${breaking.length} breaking finding(s) accepted`);
    expect(out.stderr).not.toContain("warning:");
    expect(out.status).toBe(0);
  });

  it.each([
    [{ ignore: [{ rule: "REQUEST_REMOVED", name: "ping" }] }, 'ignore[0]: "reason" is required'],
    [
      { ignore: [{ rule: "REQUEST_REMOVD", reason: "x" }] },
      'ignore[0]: unknown rule "REQUEST_REMOVD" (did you mean REQUEST_REMOVED?)',
    ],
    [{ ignore: [{ reason: "x" }] }, 'ignore[0]: name a "rule", "name", or both'],
    [
      { ignore: [{ rule: "REQUEST_REMOVED", nmae: "ping", reason: "x" }] },
      'ignore[0]: unknown key "nmae" (did you mean "name"?)',
    ],
    [{ ignore: [{ name: "", reason: "x" }] }, 'ignore[0]: "name" must be a non-empty string'],
    [["REQUEST_REMOVED"], 'expected { "ignore": ['],
    ["{ not json", "--ignore"],
  ])("refuses a malformed file, naming it and the entry (%j)", (content, message) => {
    const file = ignoreFile(content);
    const out = diff(...OLD, "--fail-on", "breaking", "--ignore", file);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(file);
    expect(out.stderr).toContain(message);
    expect(out.stdout).toBe("");
  });

  it("is refused where nothing would use it", () => {
    const file = ignoreFile({ ignore: [{ name: "ping", reason: "x" }] });
    const out = diff(...OLD, "--ignore", file);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain("--ignore accepts changes for --fail-on and --format github|junit");
  });
});

describe("--format junit", () => {
  it("writes a JUnit file a CI parser reads: a case per finding, breaking ones failed, accepted ones skipped", () => {
    const r = report("2025-11-25", "2026-07-28");
    const file = ignoreFile({
      ignore: [{ rule: "REQUEST_REMOVED", name: "tasks/*", reason: "tasks were experimental" }],
    });
    const out = join(temp, "junit.xml");
    const run = diff(...NEW, "--format", "junit", "--out", out, "--ignore", file);
    expect(run.status).toBe(0);
    const xml = readFileSync(out, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const accepted = r.changes.filter((f) => f.rule === "REQUEST_REMOVED" && f.name.startsWith("tasks/"));
    expect(accepted).toHaveLength(8);

    const parsed = parse({ type: "junit", files: [out] });
    const cases = parsed.suites.flatMap((s) => s.cases);
    expect(cases).toHaveLength(r.changes.length);
    expect(cases.filter((c) => c.status === "FAIL")).toHaveLength(r.summary.breaking - accepted.length);
    expect(cases.filter((c) => c.status === "SKIP")).toHaveLength(accepted.length);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    const failed = cases.find((c) => c.name === "REQUEST_REMOVED initialize");
    expect(failed?.failure).toContain("request removed");
    expect(parsed.failed).toBe(r.summary.breaking - accepted.length);
  });

  it("is the same bytes every time", () => {
    expect(diff(...OLD, "--format", "junit").stdout).toBe(diff(...OLD, "--format", "junit").stdout);
  });
});

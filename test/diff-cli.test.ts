// `mcp-gen diff` end to end: formats, --out, the --fail-on gate and its exit codes, usage errors.
// The command only reads checked-in models, so it runs against the repository itself.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judge, type Gate } from "../generators/diff/ci/gate.js";
import type { DiffReport } from "../generators/diff/rules/findings.js";
import { paths } from "../generators/paths.js";
import { diffTiny, num, prop, str, things } from "./support/diff-models.js";

const TSX = join(paths.root, "node_modules", ".bin", "tsx");
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-diff-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function diff(...args: string[]) {
  const result = spawnSync(TSX, ["generators/cli/main.ts", "diff", ...args], { cwd: paths.root, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const OLD = ["--from", "2024-11-05", "--to", "2025-03-26"];
const SAME = ["--from", "2026-07-28", "--to", "draft"];

describe("mcp-gen diff", () => {
  it("prints the Markdown report on stdout and a summary on stderr", () => {
    const r = diff(...OLD);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^# MCP 2024-11-05 → 2025-03-26: upgrade report\n/);
    expect(r.stdout).toContain("`ServerCapabilities.completions`");
    expect(r.stderr).toMatch(/2024-11-05 → 2025-03-26: \d+ changes \(\d+ findings\), \d+ breaking/);
  });

  it("writes JSON and HTML with --out, and nothing on stdout", () => {
    const json = join(temp, "out", "report.json");
    const r = diff(...OLD, "--format", "json", "--out", json);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    const report = JSON.parse(readFileSync(json, "utf8")) as DiffReport;
    expect([report.from, report.to]).toEqual(["2024-11-05", "2025-03-26"]);
    const html = join(temp, "report.html");
    expect(diff(...OLD, "--format", "html", "--out", html).status).toBe(0);
    expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>/);
  });

  it.each(["breaking", "client", "server"])("--fail-on %s exits 1 when the gate trips, and still reports", (gate) => {
    const tripped = diff(...OLD, "--format", "json", "--fail-on", gate);
    expect(tripped.status).toBe(1);
    expect(tripped.stderr).toContain(`for --fail-on ${gate}`);
    expect(JSON.parse(tripped.stdout)).toHaveProperty("changes");
  });

  it("--fail-on exits 0 when nothing breaks", () => {
    expect(diff(...SAME, "--fail-on", "breaking").status).toBe(0);
  });

  it("exits 2 on usage errors", () => {
    const unknown = diff("--from", "2024-11-05", "--to", "1999-01-01");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown revision "1999-01-01"');
    expect(diff(...OLD, "--fail-on", "everything").status).toBe(2);
  });
});

describe("the --fail-on gate", () => {
  const gateCount = (report: DiffReport, gate: Gate) => judge(report, gate, []).failing.length;
  // A required field added to a result breaks servers only; one removed from it breaks clients only.
  const serverBreaks = diffTiny(things(), things({ thing: [prop("id", str), prop("size", num)] }));
  const clientBreaks = diffTiny(things({ thing: [prop("id", str), prop("size", num)] }), things());
  const additive = diffTiny(things(), things({ thing: [prop("id", str), prop("size", num, true)] }));

  it("counts breaking changes for anyone, or for one side", () => {
    expect([
      gateCount(serverBreaks, "breaking"),
      gateCount(serverBreaks, "client"),
      gateCount(serverBreaks, "server"),
    ]).toEqual([1, 0, 1]);
    expect([
      gateCount(clientBreaks, "breaking"),
      gateCount(clientBreaks, "client"),
      gateCount(clientBreaks, "server"),
    ]).toEqual([1, 1, 0]);
    expect([gateCount(additive, "breaking"), gateCount(additive, "client"), gateCount(additive, "server")]).toEqual([
      0, 0, 0,
    ]);
  });
});

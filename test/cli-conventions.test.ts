// Command-line conventions: --version, "did you mean", one-line file-system errors (exit 2),
// a closed stdout pipe, --quiet, and the exit codes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closest, editDistance } from "../generators/cli/suggest.js";
import { paths } from "../generators/paths.js";
import { ScratchClone, type RunResult } from "./support/scratch-clone.js";
import { SPEC_DIR } from "./support/spec.js";

const clone = new ScratchClone();
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-conventions-"));
afterAll(() => {
  clone.dispose();
  rmSync(temp, { recursive: true, force: true });
});

/** Exit 2 with exactly one line on stderr, matching `pattern`. */
function expectUsageError(result: RunResult, pattern: RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr.trimEnd().split("\n"), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
}

describe("mcp-gen's conventions", () => {
  it("--version prints the package version", () => {
    const version = (JSON.parse(readFileSync(join(paths.root, "package.json"), "utf8")) as { version: string }).version;
    const result = clone.run(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it("suggests the command or option a typo was meant to be", () => {
    expectUsageError(clone.run(["genrate"]), /Unknown argument: genrate; did you mean generate\?/);
    expectUsageError(
      clone.run(["--rv", "2025-06-18", "--ot", "x"]),
      /did you mean --rev \(for --rv\), --out \(for --ot\)\?/,
    );
    // yargs complains first about the required option; the typo still gets its suggestion.
    expectUsageError(
      clone.run(["diff", "--form", "2025-06-18", "--to", "2025-11-25"]),
      /Missing required argument: from; did you mean --from\?/,
    );
    expectUsageError(clone.run(["tools", "--from", "x.json", "--chekc", "y.ts"]), /did you mean --check\?/);
    expectUsageError(clone.run(["xyzzy"]), /^mcp-gen: error: Unknown argument: xyzzy \(see --help\)\n$/);
  });

  it("matches typos by edit distance, a swap of neighbours counting once", () => {
    expect(editDistance("chekc", "check")).toBe(1);
    expect(editDistance("rv", "rev")).toBe(1);
    expect(closest("genrate", ["generate", "diff"])).toBe("generate");
    expect(closest("zzz", ["generate", "diff"])).toBeUndefined();
    expect(closest("out", ["out", "our"])).toBe("out");
  });

  it("reports file-system errors as one line naming the path, exit 2", () => {
    const file = join(temp, "plain-file");
    writeFileSync(file, "x");
    const diff = clone.run(["diff", "--from", "2025-06-18", "--to", "2025-11-25", "--out", join(file, "report.md")]);
    expectUsageError(diff, new RegExp(`^mcp-gen: error: ${file}/report\\.md: not a directory`));
    const schema = clone.run(["generate", "--rev", "draft", "--schema", temp]);
    expectUsageError(schema, new RegExp(`^mcp-gen: error: ${temp}: is a directory`));
    const sync = clone.run(["sync", "--rev", "draft", "--from", SPEC_DIR], { MCP_GEN_CACHE_DIR: join(file, "cache") });
    expectUsageError(sync, new RegExp(`^mcp-gen: error: ${file}/cache: not a directory`));
  });

  it("finishes quietly when stdout's reader stops early (diff … | head -1)", () => {
    const tsx = join(paths.root, "node_modules", ".bin", "tsx");
    const run = spawnSync(
      "bash",
      [
        "-c",
        `set -o pipefail; "${tsx}" generators/cli/main.ts diff --from 2024-11-05 --to 2026-07-28 --format html | head -1`,
      ],
      { cwd: clone.root, encoding: "utf8" },
    );
    expect(run.stdout.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(run.stderr).not.toMatch(/EPIPE|internal error/);
    expect(run.stderr).toMatch(/^2024-11-05 → 2026-07-28: \d+ changes/);
    expect(run.status).toBe(0);
  });

  it("--quiet prints no progress, and still errors and reports", () => {
    const quiet = clone.run(["diff", "--from", "2025-06-18", "--to", "2025-11-25", "--quiet"]);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toContain("upgrade report");
    const out = join(temp, "quiet-tree");
    const vendored = clone.run(["-q", "--rev", "2025-06-18", "--out", out]);
    expect(vendored.status).toBe(0);
    expect(vendored.stderr).toBe("");
    expectUsageError(clone.run(["--quiet", "--rev", "1999-01-01", "--out", out]), /unknown revision "1999-01-01"/);
  });
});

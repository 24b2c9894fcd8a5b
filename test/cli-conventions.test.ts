// Command-line conventions: --version and -v, help for a bare `mcp-gen`, "did you mean", one-line
// file-system errors (exit 2), a crashed server's error quoted in one line, a closed stdout pipe,
// --quiet, the exit codes, and a build whose bin runs.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import { closest, editDistance } from "../generators/suggest.js";
import { lastWords } from "../generators/tools/last-words.js";
import { nodeCommandLine } from "./fixtures/tools/harness.js";
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
  it("--version and -v print the package version", () => {
    const version = (JSON.parse(readFileSync(join(paths.root, "package.json"), "utf8")) as { version: string }).version;
    for (const flag of ["--version", "-v"]) {
      const result = clone.run([flag]);
      expect(result.status, flag).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it("prints the help on stdout for a bare mcp-gen, as for --help and -h", () => {
    const help = clone.run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^mcp-gen --rev <revision>/);
    expect(help.stdout).toMatch(/-v, --version/);
    for (const args of [[], ["-h"]]) {
      const result = clone.run(args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toBe(help.stdout);
      expect(result.stderr).toBe("");
    }
    // With a config file here, a bare mcp-gen runs it (here: a broken one, exit 2).
    const project = join(temp, "configured");
    mkdirSync(project);
    writeFileSync(join(project, "mcp-gen.config.json"), "{");
    expectUsageError(clone.run([], {}, project), /mcp-gen\.config\.json: not JSON/);
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
    // One-letter options are suggested as typed, and only for a slip of case.
    expectUsageError(clone.run(["-V"]), /Unknown argument: V; did you mean -v\?/);
    expectUsageError(clone.run(["-x"]), /^mcp-gen: error: Unknown argument: x \(see --help\)\n$/);
  });

  it("matches typos by edit distance, a swap of neighbours counting once", () => {
    expect(editDistance("chekc", "check")).toBe(1);
    expect(editDistance("rv", "rev")).toBe(1);
    expect(closest("genrate", ["generate", "diff"])).toBe("generate");
    expect(closest("zzz", ["generate", "diff"])).toBeUndefined();
    expect(closest("out", ["out", "our"])).toBe("out");
    expect(closest("x", ["q", "h", "v"])).toBeUndefined();
    expect(closest("V", ["q", "h", "v"])).toBe("v");
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

  it("quotes a crashed server's error, not the Node.js banner that ends its stderr", () => {
    const server = nodeCommandLine("-e", "throw new Error('boom')");
    const crashed = clone.run(["tools", "--stdio", server, "--out", join(temp, "never.ts")]);
    expectUsageError(crashed, /could not connect: .*\(the server's last words on stderr: "Error: boom"\)\n$/);
  });

  it("picks the line to quote from Node's crash report, and else the last line", () => {
    const report = (...error: string[]) =>
      ["[eval]:1", "throw x", "^", ...error, "    at [eval]:1:7", "", "Node.js v20.20.2", ""].join("\n");
    expect(lastWords(`listening\n${report("", "Error: boom")}`)).toBe("Error: boom");
    // A thrown value that is no Error follows the caret directly.
    expect(lastWords(report("str", "(Use `node --trace-uncaught ...` to show where the exception was thrown)"))).toBe(
      "str",
    );
    // No source excerpt: the block before the banner.
    expect(
      lastWords(
        "listening\n\nTypeError: x is not a function\n    at f (a.js:1:1) {\n  code: 'X'\n}\n\nNode.js v22.1.0\n",
      ),
    ).toBe("TypeError: x is not a function");
    expect(lastWords('Traceback (most recent call last):\n  File "s.py", line 1\nValueError: boom\n')).toBe(
      "ValueError: boom",
    );
    expect(lastWords("Node.js v20.20.2\n")).toBe("Node.js v20.20.2");
    expect(lastWords("\n")).toBe("");
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

  it("builds a bin that runs by itself: npm run build makes package.json's bin files executable", () => {
    const build = (JSON.parse(readFileSync(join(paths.root, "package.json"), "utf8")) as { scripts: { build: string } })
      .scripts.build;
    expect(build).toContain("tsc -p tsconfig.build.json && node scripts/executable-bin.mjs");
    const project = join(temp, "with-bin");
    mkdirSync(join(project, "dist"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ bin: { tool: "dist/tool.js" } }));
    writeFileSync(join(project, "dist", "tool.js"), "#!/usr/bin/env node\n");
    chmodSync(join(project, "dist", "tool.js"), 0o644);
    const run = spawnSync(process.execPath, [join(paths.root, "scripts", "executable-bin.mjs")], {
      cwd: project,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(statSync(join(project, "dist", "tool.js")).mode & 0o777).toBe(0o755);
  });
});

// docs/upgrading.md, replayed: the small project in test/fixtures/upgrade (v1 written against
// 2025-06-18, v2 after the move to 2025-11-25, v3 after 2026-07-28) vendors each revision into
// the same `--out` directory, as the walkthrough does, and compiles with tsc --strict. The
// compile errors and the program output the document shows must be the ones this produces, and
// every TypeScript snippet in it must be a part of the project. What the document shows under a
// command (`# …` lines: what mcp-gen prints, timings left out) is what that command prints: the
// `mcp-gen diff` runs in process, the CI ones with the document's own --ignore file.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffCommand, type DiffOptions } from "../generators/diff/command/command.js";
import { EXIT } from "../generators/errors.js";
import { paths } from "../generators/paths.js";
import { SPEC_DIR } from "./support/spec.js";

const FIXTURES = join(paths.root, "test", "fixtures", "upgrade");
const DOC = readFileSync(join(paths.root, "docs", "upgrading.md"), "utf8");
const TSX = join(paths.root, "node_modules", ".bin", "tsx");
const TSC = join(paths.root, "node_modules", "typescript", "bin", "tsc");

const project = mkdtempSync(join(tmpdir(), "mcp-gen-upgrade-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));
writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
writeFileSync(
  join(project, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "nodenext",
      types: ["node"],
      typeRoots: [join(paths.root, "node_modules", "@types")],
      skipLibCheck: true,
    },
    include: ["src"],
  }),
);

/** The blocks the document marks `<!-- tsc: v1 on 2025-11-25 -->` or `<!-- output: v3 on 2026-07-28 -->`. */
function documented(what: "tsc" | "output", version: string, revision: string): string {
  const marker = `<!-- ${what}: ${version} on ${revision} -->`;
  const at = DOC.indexOf(marker);
  expect(at, `docs/upgrading.md has no ${marker}`).toBeGreaterThanOrEqual(0);
  const block = /^```\w*\n([\s\S]*?)^```$/m.exec(DOC.slice(at + marker.length));
  return (block?.[1] ?? "").trimEnd();
}

/** Each command of the document's `sh` blocks that starts with `prefix`, with the `# …` lines under it. */
function printedUnder(prefix: string): { command: string; printed: string[] }[] {
  const runs: { command: string; printed: string[] }[] = [];
  for (const [, block] of DOC.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    let run: { command: string; printed: string[] } | undefined;
    for (const line of (block as string).split("\n")) {
      if (line.startsWith("# ") && run) run.printed.push(line.slice(2));
      else if (line.startsWith(prefix)) runs.push((run = { command: line, printed: [] }));
      else run = undefined;
    }
  }
  return runs;
}

/** What mcp-gen printed, as the document shows it: without timings, paths relative to the project. */
const asDocumented = (line: string) =>
  line
    .replace(/ \(\d+ ms\)$/, "")
    .replace(/, \d+ ms\)$/, ")")
    .replaceAll(`${project}/`, "");

/** `npx mcp-gen --rev R --out src/mcp`, into the same directory each time; checks what the document shows it print. */
function vendor(revision: string): void {
  const run = spawnSync(
    TSX,
    [join(paths.root, "generators", "cli", "main.ts"), "--rev", revision, "--out", "src/mcp"],
    // The spec directory as an absolute path: CI names it relative to the repository, and this runs in the project.
    { cwd: project, encoding: "utf8", env: { ...process.env, MCP_GEN_SPEC_DIR: SPEC_DIR } },
  );
  expect(run.status, run.stderr).toBe(0);
  const documented = printedUnder(`npx mcp-gen --rev ${revision} --out src/mcp`).flatMap((r) => r.printed);
  expect(documented).not.toEqual([]);
  expect(run.stderr.trimEnd().split("\n").map(asDocumented)).toEqual(documented);
}

/** `npx mcp-gen diff …` as the document writes it: its options, its files in the project. */
function diffOptions(command: string): DiffOptions {
  const words = command.replace("npx mcp-gen diff", "").trim().split(/\s+/);
  const flags = new Map<string, string>();
  for (let i = 0; i < words.length; i += 2) flags.set(words[i] as string, words[i + 1] as string);
  expect(
    [...flags.keys()].filter((flag) => !DIFF_FLAGS.includes(flag)),
    command,
  ).toEqual([]);
  const file = (flag: string) => (flags.has(flag) ? join(project, flags.get(flag) as string) : undefined);
  return {
    from: flags.get("--from") as string,
    to: flags.get("--to") as string,
    format: (flags.get("--format") ?? "md") as DiffOptions["format"],
    failOn: flags.get("--fail-on") as DiffOptions["failOn"],
    ignore: file("--ignore"),
    out: file("--out"),
  };
}

const DIFF_FLAGS = ["--from", "--to", "--fail-on", "--ignore", "--format", "--out"];

/** The project's own sources become those of `version`; the vendored tree stays. */
function sources(version: string): void {
  for (const file of readdirSync(join(project, "src"))) {
    if (file.endsWith(".ts")) rmSync(join(project, "src", file));
  }
  cpSync(join(FIXTURES, version), join(project, "src"), { recursive: true });
}

/** The demo's output: the client and the server in one process, connected in memory. */
function demo(): string {
  const run = spawnSync(TSX, ["src/demo.ts"], { cwd: project, encoding: "utf8" });
  expect(run.stderr).toBe("");
  return run.stdout.trimEnd();
}

function tsc(): string {
  const run = spawnSync(process.execPath, [TSC, "-p", ".", "--pretty", "false"], { cwd: project, encoding: "utf8" });
  return (run.stdout + run.stderr).trimEnd();
}

describe("docs/upgrading.md, replayed", () => {
  it("v1 compiles and runs against 2025-06-18", () => {
    vendor("2025-06-18");
    sources("v1");
    expect(tsc()).toBe("");
    expect(demo()).toBe(documented("output", "v3", "2026-07-28"));
  });

  it("regenerated for 2025-11-25, v1 fails to compile with the errors the document shows", () => {
    vendor("2025-11-25");
    expect(tsc()).toBe(documented("tsc", "v1", "2025-11-25"));
  });

  it("v2 compiles and runs against 2025-11-25", () => {
    sources("v2");
    expect(tsc()).toBe("");
    expect(demo()).toBe(documented("output", "v3", "2026-07-28"));
  });

  it("regenerated for 2026-07-28, v2 fails to compile with the errors the document shows", () => {
    vendor("2026-07-28");
    expect(tsc()).toBe(documented("tsc", "v2", "2026-07-28"));
  });

  it("v3 compiles against 2026-07-28 and runs as the document shows, as v1 and v2 did", () => {
    sources("v3");
    expect(tsc()).toBe("");
    expect(demo()).toBe(documented("output", "v3", "2026-07-28"));
  });

  it("`mcp-gen diff` prints what the document shows: the summaries, the gates, and both CI gates passing with its --ignore file", () => {
    const ignoreFiles = [...DOC.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
    expect(ignoreFiles).toHaveLength(1);
    writeFileSync(join(project, "mcp-upgrade.json"), ignoreFiles[0] as string);
    const runs = printedUnder("npx mcp-gen diff ");
    expect(runs.map((r) => r.printed.length > 0)).toEqual([true, true, true, true]);
    for (const { command, printed } of runs) {
      const lines: string[] = [];
      const status = diffCommand(
        diffOptions(command),
        (line) => lines.push(line),
        () => {},
      );
      expect(lines.map(asDocumented), command).toEqual(printed);
      expect(status, command).toBe(printed.some((line) => line.startsWith("gate tripped")) ? EXIT.drift : EXIT.ok);
    }
  });

  it("every TypeScript snippet in the document is part of the project", () => {
    // A version's files taken together: a snippet may show a server and a client of one version.
    const versions = ["v1", "v2", "v3"].map((v) =>
      readdirSync(join(FIXTURES, v))
        .map((f) => readFileSync(join(FIXTURES, v, f), "utf8"))
        .join("\n"),
    );
    const snippets = [...DOC.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
    expect(snippets.length).toBeGreaterThan(0);
    for (const snippet of snippets) {
      // Snippets are shown dedented, may leave lines out (`// …`), and import the package
      // (@mcp-gen/runtime/<revision>, so that each compiles on its own: test/doc-snippets.test.ts)
      // where the project imports its vendored copy.
      const lines = snippet
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "" && l !== "// …" && !/^import .* from "@mcp-gen\/runtime(\/[\w-]+)?";$/.test(l));
      expect(
        versions.some((version) => lines.every((line) => version.includes(line))),
        snippet,
      ).toBe(true);
    }
  });
});

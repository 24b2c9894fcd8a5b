// A throwaway copy of the repository's checked-in inputs and outputs, so CLI tests can
// run real commands that write files without touching the working tree.
import { execFile, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { paths } from "../../generators/paths.js";
import { SPEC_DIR } from "./spec.js";

const TSX = join(paths.root, "node_modules", ".bin", "tsx");
const COPIED = [
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "generators",
  "runtime",
  "templates",
  "spec",
  "generated",
  "host",
  "docs",
];

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export class ScratchClone {
  /** The directory that holds the clone (its parent's parent for an installed one). */
  private readonly base = mkdtempSync(join(tmpdir(), "mcp-gen-clone-"));
  readonly root: string;

  /** `installed`: lay the copy out as a package manager installs it, under node_modules/mcp-gen. */
  constructor(options: { installed?: boolean } = {}) {
    this.root = options.installed ? join(this.base, "node_modules", "mcp-gen") : this.base;
    mkdirSync(this.root, { recursive: true });
    for (const entry of COPIED) cpSync(join(paths.root, entry), join(this.root, entry), { recursive: true });
    symlinkSync(join(paths.root, "node_modules"), join(this.root, "node_modules"), "dir");
  }

  /**
   * Runs the CLI from source with the test's spec directory, in `cwd` (default: the clone);
   * `env` entries set to undefined are removed.
   */
  run(args: string[], env: Record<string, string | undefined> = {}, cwd = this.root): RunResult {
    const result = spawnSync(TSX, [join(this.root, "generators", "cli", "main.ts"), ...args], {
      ...this.options(env),
      cwd,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** As `run`, without blocking the event loop. */
  runAsync(args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      execFile(TSX, ["generators/cli/main.ts", ...args], this.options(env), (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : null) : 0;
        if (status === null) reject(error);
        else resolve({ status, stdout, stderr });
      });
    });
  }

  private options(env: Record<string, string | undefined>) {
    // Clones share the repository's format cache: the same sources format to the same text.
    const merged: Record<string, string | undefined> = {
      ...process.env,
      MCP_GEN_SPEC_DIR: SPEC_DIR,
      MCP_GEN_FORMAT_CACHE: join(paths.root, ".cache", "format"),
      ...env,
    };
    for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
    return { cwd: this.root, env: merged as NodeJS.ProcessEnv, encoding: "utf8" as const };
  }

  /** Every file under a directory of the clone: relative path → content. */
  snapshot(dir: string): Map<string, string> {
    const base = join(this.root, dir);
    const files = readdirSync(base, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    return new Map(files.sort().map((f) => [relative(base, f), readFileSync(f, "utf8")]));
  }

  path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  dispose(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}

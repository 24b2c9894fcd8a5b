// Writes that must never destroy a file: `mcp-gen --rev R --out DIR`, `mcp-gen tools --out FILE` and
// `mcp-gen diff --out FILE` refuse dangerous places and files that are not theirs (exit 2, one line,
// nothing written); a vendored tree keeps a manifest so re-generation removes only the stale files
// it wrote, and `--check` compares it.
// An installed copy of mcp-gen (under node_modules/) is never rewritten by its own commands.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffCommand, type DiffOptions } from "../generators/diff/command/command.js";
import { InputError } from "../generators/errors.js";
import { MANIFEST_FILE, type Manifest } from "../generators/output/manifest.js";
import { FIXTURES } from "./fixtures/tools/harness.js";
import { ScratchClone, type RunResult } from "./support/scratch-clone.js";

const REV = "2025-06-18";
const clone = new ScratchClone();
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-safe-"));
afterAll(() => {
  clone.dispose();
  rmSync(temp, { recursive: true, force: true });
});

/** Every file under a directory (relative path → content); empty when it does not exist. */
function snapshot(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map();
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files
      .map((e) => join(e.parentPath, e.name))
      .sort()
      .map((f) => [relative(dir, f), readFileSync(f, "utf8")]),
  );
}

/** A refusal: exit 2, a single line on stderr that contains `reason`, nothing on stdout. */
function expectRefused(result: RunResult, reason: string | RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(typeof reason === "string" ? new RegExp(escape(reason)) : reason);
  expect(result.stdout).toBe("");
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function vendor(out: string, ...extra: string[]): RunResult {
  return clone.run(["--rev", REV, "--out", out, ...extra]);
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as Manifest;
}

describe("--rev R --out DIR refuses places generated code must not go", () => {
  it("the file-system root, the home directory and mcp-gen's own package", () => {
    const home = join(temp, "home");
    mkdirSync(home);
    expectRefused(
      clone.run(["--rev", REV, "--out", home], { HOME: home }),
      "refusing to write into your home directory",
    );
    expect(snapshot(home).size).toBe(0);
    expectRefused(vendor("/"), "--out /: refusing to write into the file-system root");
    expect(existsSync("/types.ts")).toBe(false);
    const before = clone.snapshot("generated");
    expectRefused(vendor(clone.root), "refusing to write into mcp-gen's own package");
    expectRefused(vendor("."), "refusing to write into mcp-gen's own package");
    expect(existsSync(clone.path("types.ts"))).toBe(false);
    expect(clone.snapshot("generated")).toEqual(before);
  });

  it("--out without a value, or an empty one", () => {
    expectRefused(clone.run(["--rev", REV, "--out"]), "Not enough arguments following: out");
    expectRefused(clone.run(["--rev", REV, "--out", ""]), "--out needs a directory");
    expect(existsSync(clone.path("types.ts"))).toBe(false);
  });

  it("an existing file, a path through a file, an unwritable place: one line naming the path", () => {
    const file = join(temp, "a-file.ts");
    writeFileSync(file, "export {};\n");
    expectRefused(vendor(file), `--out ${file}: not a directory`);
    expect(readFileSync(file, "utf8")).toBe("export {};\n");
    expectRefused(vendor(join(file, "sub")), `${join(file, "sub")}: not a directory`);
    // /sys refuses new entries even to root (EPERM), as a read-only mount does to anyone.
    expectRefused(
      vendor("/sys/mcp-gen-out"),
      /\/sys\/mcp-gen-out: (operation not permitted|not writable|permission denied)/,
    );
  });
});

describe("--rev R --out DIR never destroys a file it did not write", () => {
  it("refuses to overwrite hand-written files (naming them), writes nothing; --force overwrites", () => {
    const out = join(temp, "hand-written");
    mkdirSync(out);
    writeFileSync(join(out, "index.ts"), "// my own entry point\n");
    writeFileSync(join(out, "server.ts"), "// my own server\n");
    const before = snapshot(out);
    expectRefused(vendor(out), `${join(out, "index.ts")}, ${join(out, "server.ts")}: not written by mcp-gen`);
    expect(snapshot(out)).toEqual(before);

    const forced = vendor(out, "--force");
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(out, "index.ts"), "utf8")).toMatch(/^\/\/ @generated by mcp-gen v/);
    expect(readManifest(out).files).toContain("server.ts");
  });

  it("removes the stale files its manifest lists, leaves foreign files and banner-less ones alone", () => {
    const out = join(temp, "stale");
    expect(vendor(out).status).toBe(0);
    const generated = snapshot(out);
    // As if an earlier mcp-gen had written old.ts and runtime/old.ts, and the user had taken over taken.ts.
    const banner = (readFileSync(join(out, "types.ts"), "utf8").split("\n")[0] as string) + "\n";
    writeFileSync(join(out, "old.ts"), `${banner}export {};\n`);
    writeFileSync(join(out, "runtime", "old.ts"), `${banner}export {};\n`);
    writeFileSync(join(out, "taken.ts"), "// mine now\n");
    writeFileSync(join(out, "mine.ts"), `${banner}// never listed in the manifest\n`);
    mkdirSync(join(out, "listed-dir"));
    writeFileSync(join(out, "listed-dir", "x.ts"), `${banner}export {};\n`);
    const manifest = readManifest(out);
    manifest.files.push("old.ts", "runtime/old.ts", "taken.ts", "listed-dir");
    writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest));

    const check = vendor(out, "--check");
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/^\s+stale\s+old\.ts$/m);
    expect(check.stdout).not.toMatch(/^\s+\w+\s+(taken|mine)\.ts$/m);

    const result = vendor(out);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `note: ${join(out, "taken.ts")} is no longer generated but has no mcp-gen banner: left alone`,
    );
    expect(existsSync(join(out, "old.ts"))).toBe(false);
    expect(existsSync(join(out, "runtime", "old.ts"))).toBe(false);
    expect(readFileSync(join(out, "taken.ts"), "utf8")).toBe("// mine now\n");
    expect(readFileSync(join(out, "mine.ts"), "utf8")).toContain("never listed");
    // A listed path that is now a directory is not a file mcp-gen wrote: left as it is.
    expect(existsSync(join(out, "listed-dir", "x.ts"))).toBe(true);
    const after = snapshot(out);
    for (const mine of ["taken.ts", "mine.ts", join("listed-dir", "x.ts")]) after.delete(mine);
    expect(after).toEqual(generated);
  });

  it("a manifest that lists paths outside its directory is refused, and removes nothing", () => {
    const out = join(temp, "escaping-manifest");
    expect(vendor(out).status).toBe(0);
    const outside = join(temp, "outside.ts");
    writeFileSync(outside, "// @generated by mcp-gen v0.0.1\n");
    const manifest = readManifest(out);
    manifest.files.push("../outside.ts");
    writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest));
    expectRefused(vendor(out), `${join(out, MANIFEST_FILE)}: not an mcp-gen manifest`);
    expect(existsSync(outside)).toBe(true);
    // --force replaces the manifest and removes nothing it listed.
    expect(vendor(out, "--force").status).toBe(0);
    expect(existsSync(outside)).toBe(true);
    expect(readManifest(out).files).not.toContain("../outside.ts");
  });

  it("--check: 0 when current, 1 with a unified diff after a hand edit, 0 after re-generation", () => {
    const out = join(temp, "checked");
    expect(vendor(out).status).toBe(0);
    const current = vendor(out, "--check");
    expect(current.status, current.stderr).toBe(0);
    expect(current.stdout).toBe("");

    const types = join(out, "types.ts");
    writeFileSync(types, readFileSync(types, "utf8").replace("export", "export /* edited */"));
    rmSync(join(out, "runtime", "peer.ts"));
    const before = snapshot(out);
    const drift = vendor(out, "--check");
    expect(drift.status).toBe(1);
    expect(drift.stdout).toContain("--- a/types.ts");
    expect(drift.stdout).toContain("-export /* edited */");
    expect(drift.stdout).toMatch(/^\s+changed\s+types\.ts$/m);
    expect(drift.stdout).toMatch(/^\s+added\s+runtime\/peer\.ts$/m);
    expect(snapshot(out)).toEqual(before);

    expect(vendor(out).status).toBe(0);
    expect(vendor(out, "--check").status).toBe(0);
  });

  it("--check of a directory that does not exist is a usage error", () => {
    expectRefused(vendor(join(temp, "never-generated"), "--check"), "no such directory, nothing to check");
  });
});

describe("mcp-gen tools --out FILE", () => {
  const listing = join(FIXTURES, "weather.json");
  const tools = (...args: string[]) => clone.run(["tools", "--from", listing, ...args]);

  it("refuses to overwrite a hand-written module or a --save file that is no listing; --force overwrites", () => {
    const mine = join(temp, "mine.ts");
    writeFileSync(mine, "export const mine = 1;\n");
    expectRefused(tools("--out", mine), `${mine}: not written by mcp-gen`);
    expect(readFileSync(mine, "utf8")).toBe("export const mine = 1;\n");

    const module = join(temp, "weather.ts");
    const notes = join(temp, "notes.json");
    writeFileSync(notes, '{ "my": "notes" }\n');
    expectRefused(tools("--out", module, "--save", notes), `${notes}: not written by mcp-gen`);
    expect(existsSync(module)).toBe(false);
    expect(readFileSync(notes, "utf8")).toBe('{ "my": "notes" }\n');

    expect(tools("--out", mine, "--force").status).toBe(0);
    expect(readFileSync(mine, "utf8")).toMatch(/^\/\/ @generated by mcp-gen v\S+ tools/);
    // Its own output is overwritten without --force.
    expect(tools("--out", mine, "--save", join(temp, "saved.json")).status).toBe(0);
    expect(tools("--out", mine, "--save", join(temp, "saved.json")).status).toBe(0);
  });

  it("refuses a directory, a missing value and an empty one", () => {
    expectRefused(tools("--out", temp), `--out ${temp}: is a directory`);
    expectRefused(tools("--out"), "Not enough arguments following: out");
    expectRefused(tools("--out", ""), "--out needs a file name");
  });
});

describe("mcp-gen diff --out FILE", () => {
  const quiet = () => {};
  /** The command in-process (it reads only checked-in models): its exit code, or the InputError it throws. */
  const diff = (out: string, options: Partial<DiffOptions> = {}) => {
    try {
      return diffCommand({ from: "2025-06-18", to: "2025-11-25", format: "md", out, ...options }, quiet, quiet);
    } catch (error) {
      if (error instanceof InputError) return error;
      throw error;
    }
  };

  it("replaces an earlier report in any format (an empty one included) without --force", () => {
    const out = join(temp, "upgrade-report");
    // A diff of a revision with itself has no annotations: the github format writes an empty file.
    expect(diff(out, { to: "2025-06-18", format: "github" })).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("");
    const written = new Set<string>();
    for (const format of ["md", "json", "html", "github", "junit", "md"] as const) {
      expect(diff(out, { format }), format).toBe(0);
      written.add(readFileSync(out, "utf8"));
    }
    expect(written.size).toBe(5);
  });

  it("refuses to overwrite any other file, naming it, and writes nothing; --force overwrites", () => {
    const others = {
      "notes.md": "# My notes\n",
      "README.md": "# MCP 2025-06-18 → 2025-11-25: what we changed\n",
      "data.json": '{\n  "from": "a",\n  "to": "b"\n}\n',
      "page.html": "<!doctype html>\n<title>My page</title>\n",
    };
    for (const [name, text] of Object.entries(others)) {
      const file = join(temp, name);
      writeFileSync(file, text);
      const refused = diff(file, { format: name.endsWith(".json") ? "json" : "md" });
      expect(refused, name).toBeInstanceOf(InputError);
      expect((refused as InputError).message).toMatch(
        new RegExp(
          `^${escape(file)}: not written by mcp-gen \\(.*\\), so not overwritten; nothing was written\\. Move it away, or pass --force$`,
        ),
      );
      expect(readFileSync(file, "utf8")).toBe(text);
    }
    expect((diff(temp) as InputError).message).toBe(`--out ${temp}: is a directory, not a file`);
    const notes = join(temp, "notes.md");
    expect(diff(notes, { force: true })).toBe(0);
    expect(readFileSync(notes, "utf8")).toMatch(/^# MCP 2025-06-18 → 2025-11-25: upgrade report\n/);
  });

  it("the CLI: a hand-written file is refused in one line, exit 2", () => {
    const notes = join(temp, "cli-notes.md");
    writeFileSync(notes, "my notes\n");
    expectRefused(
      clone.run(["diff", "--from", REV, "--to", "2025-11-25", "--out", notes]),
      `${notes}: not written by mcp-gen`,
    );
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
  });
});

describe("an installed mcp-gen (under node_modules/) never rewrites itself", () => {
  const installed = new ScratchClone({ installed: true });
  afterAll(() => installed.dispose());
  const unchanged = () => {
    const generated = installed.snapshot("generated");
    const spec = installed.snapshot("spec");
    return () => {
      expect(installed.snapshot("generated")).toEqual(generated);
      expect(installed.snapshot("spec")).toEqual(spec);
    };
  };

  it("refuses --rev R without --out (with or without --schema), naming --out", () => {
    const check = unchanged();
    const schema = join(temp, "schema.ts");
    writeFileSync(schema, "export interface Nothing {}\n");
    expectRefused(
      installed.run(["--rev", REV]),
      /--rev 2025-06-18 without --out would rewrite mcp-gen's own package .*: give --out DIR/,
    );
    expectRefused(installed.run(["--rev", REV, "--schema", schema]), "give --out DIR");
    check();
  });

  it("refuses the maintainer commands, and neither --help nor revisions points to them", () => {
    const check = unchanged();
    for (const command of ["generate", "check", "sync"]) {
      expectRefused(installed.run([command]), `mcp-gen ${command} is a maintainer command`);
    }
    const help = installed.run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).not.toMatch(/mcp-gen (generate|check|sync)\b/);
    expect(help.stdout).toContain("mcp-gen diff");
    // --out is required with --rev, and generated/<rev>/ (the package's own tree) is never named.
    expect(help.stdout).toMatch(/^mcp-gen --rev <revision> --out DIR$/m);
    expect(help.stdout).toMatch(/--out\s+Required with --rev/);
    expect(help.stdout).not.toContain("generated/<rev>");
    const inCheckout = clone.run(["--help"]).stdout;
    expect(inCheckout).toMatch(/mcp-gen generate\s+\(maintainer\)/);
    expect(inCheckout).toMatch(/^mcp-gen --rev <revision> \[--out DIR\]$/m);
    // Without spec sources, the checked-in models are used: nothing to sync.
    const revisions = installed.run(["revisions"], { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: temp });
    expect(revisions.status, revisions.stderr).toBe(0);
    expect(revisions.stdout).toMatch(/^2025-06-18 .* none \(the checked-in model is used\)$/m);
    expect(revisions.stdout).not.toContain("sync");
    check();
  });

  it("refuses --out inside the package, and vendors into the user's project", () => {
    const check = unchanged();
    expectRefused(
      installed.run(["--rev", REV, "--out", installed.path("src")]),
      "refusing to write into mcp-gen's own package",
    );
    expectRefused(
      installed.run(["tools", "--from", join(FIXTURES, "weather.json"), "--out", installed.path("w.ts")]),
      "refusing to write into mcp-gen's own package",
    );
    const readme = installed.path("README.md");
    writeFileSync(readme, "# mcp-gen\n");
    expectRefused(
      installed.run(["diff", "--from", REV, "--to", "2025-11-25", "--out", readme, "--force"]),
      `--out ${readme}: refusing to write into mcp-gen's own package`,
    );
    expect(readFileSync(readme, "utf8")).toBe("# mcp-gen\n");
    const project = join(temp, "project", "src", "mcp");
    const result = installed.run(["--rev", REV, "--out", project]);
    expect(result.status, result.stderr).toBe(0);
    expect(readManifest(project).revision).toBe(REV);
    check();
  });
});

// The mcp-gen command end to end, on a scratch copy of the repository: drift detection,
// idempotent generation, bad input (file:line, exit 2, nothing written), offline use.
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import { ScratchClone } from "./support/scratch-clone.js";
import { REVISIONS, schemaTsPath, SPEC_DIR } from "./support/spec.js";

const clone = new ScratchClone();
const temp = mkdtempSync(join(tmpdir(), "mcp-gen-cli-"));
afterAll(() => {
  clone.dispose();
  rmSync(temp, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process, so a server in it can answer. */
function runAsync(args: string[], env: Record<string, string | undefined>) {
  return clone.runAsync(args, env);
}

/** Changes one byte: the last lowercase letter of the file. */
function flipByte(file: string): void {
  const text = readFileSync(file, "utf8");
  const at = text.search(/[a-y][^a-y]*$/);
  writeFileSync(file, text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) + 1) + text.slice(at + 1));
}

describe("check and generate", () => {
  it("check passes on the checked-in tree", () => {
    const result = clone.run(["check"]);
    expect(result.stderr).toContain("files match the generator");
    expect(result.status).toBe(0);
  });

  it("check exits 1 with a unified diff naming every drifted file; generate repairs it byte for byte", () => {
    const before = clone.snapshot("generated");
    flipByte(clone.path("generated", "2025-06-18", "types.ts"));
    flipByte(clone.path("spec", "2024-11-05", "model.json"));
    writeFileSync(clone.path("generated", "draft", "leftover.ts"), "export {};\n");

    const drift = clone.run(["check"]);
    expect(drift.status).toBe(1);
    expect(drift.stdout).toContain("--- a/generated/2025-06-18/types.ts");
    expect(drift.stdout).toMatch(/^\s+changed\s+generated\/2025-06-18\/types\.ts$/m);
    expect(drift.stdout).toMatch(/^\s+changed\s+spec\/2024-11-05\/model\.json$/m);
    expect(drift.stdout).toMatch(/^\s+stale\s+generated\/draft\/leftover\.ts$/m);

    expect(clone.run(["generate"]).status).toBe(0);
    expect(clone.snapshot("generated")).toEqual(before);
    expect(clone.run(["check"]).status).toBe(0);
  });

  it("generates identical bytes on consecutive runs, equal to the checked-in files, one progress line per revision", () => {
    const first = clone.run(["generate"]);
    expect(first.status).toBe(0);
    for (const revision of REVISIONS) expect(first.stderr).toMatch(new RegExp(`^${revision}\\s+\\d+ types`, "m"));
    const afterFirst = clone.snapshot("generated");
    expect(clone.run(["generate"]).stderr).toContain("up to date: nothing changed");
    expect(clone.snapshot("generated")).toEqual(afterFirst);
    for (const revision of REVISIONS) {
      expect(readFileSync(clone.path("spec", revision, "model.json"), "utf8")).toBe(
        readFileSync(paths.model(revision), "utf8"),
      );
    }
  });
});

describe("bad input", () => {
  const draft = readFileSync(schemaTsPath("draft"), "utf8");

  function schemaWith(name: string, edit: (text: string) => string): string {
    const file = join(temp, name);
    writeFileSync(file, edit(draft));
    return file;
  }

  /** Runs generate with a broken draft schema and checks nothing under generated/ or spec/ changed. */
  function rejects(file: string): { stderr: string } {
    const generated = clone.snapshot("generated");
    const spec = clone.snapshot("spec");
    const result = clone.run(["generate", "--rev", "draft", "--schema", file]);
    expect(result.status).toBe(2);
    expect(clone.snapshot("generated")).toEqual(generated);
    expect(clone.snapshot("spec")).toEqual(spec);
    return result;
  }

  it("a syntax error: exit 2, file:line:column, nothing written", () => {
    const file = schemaWith("syntax.ts", (t) => t.replace("export interface Icons {", "export interface Icons {{"));
    const line =
      readFileSync(file, "utf8")
        .split("\n")
        .findIndex((l) => l.includes("Icons {{")) + 1;
    expect(rejects(file).stderr).toMatch(new RegExp(`syntax\\.ts:${line}:\\d+: `));
  });

  it("an unsupported construct: exit 2, file:line, what it is", () => {
    const file = schemaWith("keyof.ts", (t) => `${t}\nexport type ToolKey = keyof Tool;\n`);
    const line = readFileSync(file, "utf8").split("\n").length - 1;
    expect(rejects(file).stderr).toMatch(
      new RegExp(`keyof\\.ts:${line}:\\d+: unsupported type construct \\(TypeOperator\\)`),
    );
  });

  it("a generic declaration and an unknown JSDoc tag are rejected too", () => {
    const generic = schemaWith("generic.ts", (t) => `${t}\nexport interface Box<T> { value: T }\n`);
    expect(rejects(generic).stderr).toContain("unsupported generic interface");
    const tag = schemaWith("tag.ts", (t) =>
      t.replace("export interface Icons {", "/** @secretConstraint 3 */\nexport interface Icons {"),
    );
    expect(rejects(tag).stderr).toMatch(/tag\.ts:\d+:\d+: unsupported JSDoc tag @secretConstraint/);
  });

  it("a reference to an undeclared type names it", () => {
    const file = schemaWith("unknown-ref.ts", (t) => t.replace("icons?: Icon[];", "icons?: Icon[];\n  badge?: Badge;"));
    expect(rejects(file).stderr).toMatch(/unknown-ref\.ts:\d+:\d+: Cannot find name 'Badge'/);
  });

  it("a spec source that does not match its pin: generate exits 2 naming both hashes, check exits 1", () => {
    // The first revision is the tampered one, so check stops there without parsing the rest.
    const first = REVISIONS[0] as string;
    const dir = join(temp, "tampered");
    mkdirSync(join(dir, first), { recursive: true });
    writeFileSync(join(dir, first, "schema.ts"), readFileSync(schemaTsPath(first), "utf8") + "\n// tampered\n");
    const generate = clone.run(["generate", "--rev", first, "--spec-dir", dir]);
    expect(generate.status).toBe(2);
    expect(generate.stderr).toMatch(
      new RegExp(
        `sha256 mismatch for revision ${first}: expected [0-9a-f]{64} \\(spec/revisions\\.json\\), got [0-9a-f]{64}`,
      ),
    );
    expect(clone.run(["check", "--spec-dir", dir]).status).toBe(1);
  });

  it("an unknown revision lists the known ones", () => {
    const result = clone.run(["--rev", "1999-01-01", "--out", join(temp, "never")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`unknown revision "1999-01-01"; known revisions: ${REVISIONS.join(", ")}`);
  });

  it("usage errors exit 2", () => {
    expect(clone.run([]).status).toBe(2);
    expect(clone.run(["generate", "--no-such-flag"]).status).toBe(2);
  });
});

describe("the main job", () => {
  const tsc = join(paths.root, "node_modules", "typescript", "bin", "tsc");

  it("--out writes, for every revision, a self-contained tree that compiles with tsc --strict and erasableSyntaxOnly in an empty project", () => {
    const out = join(temp, "vendored");
    for (const rev of REVISIONS) {
      const result = clone.run(["--rev", rev, "--out", join(out, rev)]);
      expect(result.status, result.stderr).toBe(0);
    }
    writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
    // The strictest settings a consumer might use.
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: "nodenext",
      types: [],
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noImplicitReturns: true,
      noPropertyAccessFromIndexSignature: true,
      // No parameter properties, enums or namespaces: the tree runs under Node's type stripping.
      erasableSyntaxOnly: true,
    };
    // runtime/**/*.ts too: the Node-only transports (stdio, Streamable HTTP) are not imported by index.ts.
    writeFileSync(join(out, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*/*.ts", "*/runtime/**/*.ts"] }));
    const compiled = spawnSync(process.execPath, [tsc, "-p", "."], { cwd: out, encoding: "utf8" });
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
  });

  it("works offline from the checked-in model, noting it only when a spec directory was named", () => {
    const out = join(temp, "offline");
    const offline = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: join(temp, "empty-cache") };
    const result = clone.run(["--rev", "2026-07-28", "--out", out], offline);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain("note:");
    const named = clone.run(["--rev", "2026-07-28", "--out", out, "--spec-dir", join(temp, "empty-cache")], offline);
    expect(named.stderr.split("\n").filter((l) => l.startsWith("note:"))).toEqual([
      `note: no schema.ts for 2026-07-28 in ${join(temp, "empty-cache")} (--spec-dir); generating from the checked-in model`,
    ]);
    for (const file of ["types.ts", "methods.ts", "index.ts"]) {
      expect(readFileSync(join(out, file), "utf8")).toBe(
        readFileSync(join(paths.generated, "2026-07-28", file), "utf8"),
      );
    }
  });

  it("sync --from fills the cache after checking hashes, and revisions shows where sources are", () => {
    const cache = join(temp, "cache");
    const env = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: cache };
    const synced = clone.run(["sync", "--from", SPEC_DIR, "--rev", "2025-06-18,draft"], env);
    expect(synced.status).toBe(0);
    expect(synced.stderr).toMatch(/^2025-06-18\s+sha256 ok/m);
    const listed = clone.run(["revisions"], env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^2025-06-18\s+b0f60ba5409d\s+7d7f4cc6f3ad\s+yes\s+cache: /m);
    expect(listed.stdout).toMatch(/^2024-11-05\s.*missing \(run `mcp-gen sync`\)$/m);
  });

  it("sync downloads from the pinned raw URL (served locally here) and checks the hash", async () => {
    const server = createServer((req, res) => {
      // /<repository>/<commit>/schema/<revision>/schema.ts, as the rawUrl template builds it.
      const revision = req.url?.split("/").at(-2) ?? "";
      const file = revision === "draft" ? `${readFileSync(schemaTsPath("draft"), "utf8")}\n// changed\n` : undefined;
      res.writeHead(file === undefined ? 404 : 200).end(file ?? "not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const table = JSON.parse(readFileSync(clone.path("spec", "revisions.json"), "utf8")) as Record<string, unknown>;
    const original = JSON.stringify(table, null, 2) + "\n";
    writeFileSync(
      clone.path("spec", "revisions.json"),
      JSON.stringify({
        ...table,
        rawUrl: `http://127.0.0.1:${port}/{repository}/{commit}/schema/{revision}/schema.ts`,
      }),
    );
    const env = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: join(temp, "download-cache") };
    try {
      const missing = await runAsync(["sync", "--rev", "2025-06-18"], env);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain("download failed with HTTP 404");
      const mismatch = await runAsync(["sync", "--rev", "draft"], env);
      expect(mismatch.status).toBe(2);
      expect(mismatch.stderr).toMatch(/sha256 mismatch for revision draft/);
      const pinned = await runAsync(["sync", "--rev", "draft", "--commit", "f".repeat(40)], env);
      expect(pinned.status).toBe(0);
      const pins = JSON.parse(readFileSync(clone.path("spec", "revisions.json"), "utf8")) as {
        revisions: { revision: string; commit: string; sha256: string }[];
      };
      expect(pins.revisions.find((r) => r.revision === "draft")).toMatchObject({ commit: "f".repeat(40) });
      expect(readFileSync(join(temp, "download-cache", "draft", "schema.ts"), "utf8")).toContain("// changed");
    } finally {
      server.close();
      writeFileSync(clone.path("spec", "revisions.json"), original);
    }
  });

  it("has --help for every command", () => {
    for (const command of [[], ["generate"], ["check"], ["sync"], ["revisions"]]) {
      const result = clone.run([...command, "--help"]);
      expect(result.status, command.join(" ")).toBe(0);
      expect(result.stdout).toContain("--spec-dir".length > 0 && command[0] === "sync" ? "--from" : "--spec-dir");
    }
  });
});

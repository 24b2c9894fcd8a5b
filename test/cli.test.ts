// The mcp-gen command end to end, on a scratch copy of the repository: drift detection,
// idempotent generation, bad input (file:line, exit 2, nothing written), offline use.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
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

/** Every file under a directory: path relative to it → content. */
function filesUnder(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  return new Map(files.sort().map((f) => [relative(dir, f), readFileSync(f, "utf8")]));
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** Points the clone's spec/revisions.json at a local server; returns what puts it back. */
function serveSpecFrom(origin: string): () => void {
  const file = clone.path("spec", "revisions.json");
  const original = readFileSync(file, "utf8");
  const table = JSON.parse(original) as Record<string, unknown>;
  const local = {
    rawUrl: `${origin}/{repository}/{commit}/{folder}/{file}`,
    treeUrl: `${origin}/tree/{repository}/{commit}`,
  };
  writeFileSync(file, JSON.stringify({ ...table, ...local }, null, 2) + "\n");
  return () => writeFileSync(file, original);
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
    expect(clone.run(["--check"]).status).toBe(2);
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
    writeFileSync(
      join(out, "tsconfig.json"),
      JSON.stringify({ compilerOptions, include: ["*/*.ts", "*/runtime/**/*.ts"] }),
    );
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
    // The same modules; only the way to the runtime differs between the two layouts.
    for (const file of ["types.ts", "methods.ts", "index.ts"]) {
      expect(readFileSync(join(out, file), "utf8").replaceAll('"./runtime/', '"../../runtime/')).toBe(
        readFileSync(join(paths.generated, "2026-07-28", file), "utf8"),
      );
    }
  });

  it("sync --from fills the cache after checking hashes, and revisions shows where sources are", () => {
    const cache = join(temp, "cache");
    const env = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: cache };
    const synced = clone.run(["sync", "--from", SPEC_DIR, "--rev", "2025-06-18,draft"], env);
    expect(synced.status).toBe(0);
    expect(synced.stderr).toMatch(/^2025-06-18\s+sha256 ok\s+2 files/m);
    expect(filesUnder(join(cache, "draft"))).toEqual(filesUnder(join(SPEC_DIR, "draft")));
    const listed = clone.run(["revisions"], env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^2025-06-18\s+b0f60ba5409d\s+7d7f4cc6f3ad\s+yes\s+cache: /m);
    expect(listed.stdout).toMatch(/^2024-11-05\s.*missing \(run `mcp-gen sync`\)$/m);
  });

  it("the tests read the sync cache when MCP_GEN_SPEC_DIR is unset, once it holds every pinned file", () => {
    const cache = join(temp, "cache-for-tests");
    const env = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: cache };
    const probe = () => {
      const code = `import(${JSON.stringify(join(paths.root, "test", "support", "spec.ts"))}).then((m) => console.log(m.SPEC_DIR))`;
      const merged: NodeJS.ProcessEnv = { ...process.env, MCP_GEN_CACHE_DIR: cache };
      delete merged.MCP_GEN_SPEC_DIR;
      return spawnSync(join(paths.root, "node_modules", ".bin", "tsx"), ["--eval", code], {
        env: merged,
        encoding: "utf8",
      });
    };
    expect(clone.run(["sync", "--from", SPEC_DIR, "--rev", "draft"], env).status).toBe(0);
    expect(probe().stderr).toMatch(
      /tests need the spec sources, and .*2024-11-05\/schema\.ts is missing .*npm run sync/,
    );
    expect(clone.run(["sync", "--from", SPEC_DIR], env).status).toBe(0);
    expect(probe().stdout.trim()).toBe(cache);
  });

  it("sync downloads every pinned file from the raw URL (served locally here), checking each hash", async () => {
    const requests: string[] = [];
    const broken = new Map<string, "missing" | "tampered">();
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      requests.push(path);
      // /<repository>/<commit>/schema/<revision>/<file>, as rawUrl and folder build it.
      const match = /^\/[^/]+\/[^/]+\/([0-9a-f]{40})\/schema\/([^/]+)\/(.+)$/.exec(path);
      const key = match ? `${match[2]}/${match[3]}` : "";
      if (!match || broken.get(key) === "missing" || !existsSync(join(SPEC_DIR, key))) {
        res.writeHead(404).end("not found");
        return;
      }
      const data = readFileSync(join(SPEC_DIR, key));
      res.writeHead(200).end(broken.get(key) === "tampered" ? Buffer.concat([data, Buffer.from("\n")]) : data);
    });
    const port = await listen(server);
    const restore = serveSpecFrom(`http://127.0.0.1:${port}`);
    const download = (cache: string, ...args: string[]) =>
      runAsync(["sync", ...args], { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: join(temp, cache) });
    try {
      const synced = await download("download-cache", "--rev", "2026-07-28");
      expect(synced.stderr).toMatch(/^2026-07-28\s+sha256 ok\s+131 files\s+http:\/\/127\.0\.0\.1:\d+\//m);
      expect(synced.status).toBe(0);
      expect(filesUnder(join(temp, "download-cache", "2026-07-28"))).toEqual(filesUnder(join(SPEC_DIR, "2026-07-28")));
      expect(requests.filter((r) => r.includes("/examples/"))).toHaveLength(129);

      // Again: the cache already holds every file at its pinned hash, so nothing is downloaded.
      requests.length = 0;
      expect((await download("download-cache", "--rev", "2026-07-28")).status).toBe(0);
      expect(requests).toEqual([]);

      broken.set("2025-06-18/schema.json", "missing");
      const missing = await download("fresh-cache", "--rev", "2025-06-18");
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/schema\/2025-06-18\/schema\.json: download failed with HTTP 404/);
      broken.set("draft/examples/Tool/with-no-parameters.json", "tampered");
      const tampered = await download("fresh-cache", "--rev", "draft");
      expect(tampered.status).toBe(2);
      expect(tampered.stderr).toMatch(
        /schema\/draft\/examples\/Tool\/with-no-parameters\.json: sha256 mismatch for revision draft/,
      );
      // Nothing of a revision is written unless all of it checks out.
      expect(existsSync(join(temp, "fresh-cache"))).toBe(false);
    } finally {
      server.close();
      restore();
    }
  });

  it("sync --commit pins a revision from the repository's tree at that commit, recording every file's hash", async () => {
    const commit = "f".repeat(40);
    const draft = filesUnder(join(SPEC_DIR, "draft"));
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      if (path === `/tree/modelcontextprotocol/modelcontextprotocol/${commit}`) {
        // The whole repository's tree: only schema/draft/schema.json and examples/**/*.json are pinned.
        const tree = [
          { path: "docs/index.mdx", type: "blob" },
          { path: "schema/draft", type: "tree" },
          { path: "schema/draft/README.md", type: "blob" },
          { path: "schema/draft-old/schema.json", type: "blob" },
          ...[...draft.keys()].map((file) => ({ path: `schema/draft/${file}`, type: "blob" })),
        ];
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ tree, truncated: false }));
        return;
      }
      const file = path.split(`/${commit}/schema/draft/`)[1] ?? "";
      const data = file === "schema.ts" ? `${draft.get(file) ?? ""}\n// changed\n` : draft.get(file);
      res.writeHead(data === undefined ? 404 : 200).end(data ?? "not found");
    });
    const port = await listen(server);
    const restore = serveSpecFrom(`http://127.0.0.1:${port}`);
    const env = { MCP_GEN_SPEC_DIR: undefined, MCP_GEN_CACHE_DIR: join(temp, "pin-cache") };
    try {
      const pinned = await runAsync(["sync", "--rev", "draft", "--commit", commit], env);
      expect(pinned.stderr).toContain(`draft: pinned to ${commit}`);
      expect(pinned.status).toBe(0);
      const pins = JSON.parse(readFileSync(clone.path("spec", "revisions.json"), "utf8")) as {
        revisions: { revision: string; commit: string; sha256: string; files: Record<string, string> }[];
      };
      const pin = pins.revisions.find((r) => r.revision === "draft");
      expect(pin?.commit).toBe(commit);
      expect(Object.keys(pin?.files ?? {})).toEqual([...draft.keys()].filter((f) => f !== "schema.ts").sort());
      expect(pin?.files["schema.json"]).toBe(
        createHash("sha256")
          .update(draft.get("schema.json") ?? "")
          .digest("hex"),
      );
      expect(readFileSync(join(temp, "pin-cache", "draft", "schema.ts"), "utf8")).toContain("// changed");
    } finally {
      server.close();
      restore();
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

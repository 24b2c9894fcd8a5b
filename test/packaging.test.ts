// The two packages as a user gets them: `npm pack` of this repository (the documented command, which
// builds both), installed into a fresh project with no network beyond the local tarballs.
//
// @mcp-gen/runtime has no dependencies, so `npm install --offline <tarball>` needs nothing else.
// The generator's dependencies (ts-morph, prettier, …) are real registry packages: the project gets
// a package-lock.json that pins them to the versions and integrity hashes of this repository's own
// package-lock.json, and `npm ci --offline` takes their tarballs from npm's cache, which the
// repository's `npm ci` filled (npm checks every tarball against its integrity hash). A machine whose
// cache lacks them fails with npm's ENOTCACHED, never with a silently smaller install.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";

const temp = mkdtempSync(join(tmpdir(), "mcp-gen-packaging-"));
const tarballs = join(temp, "tarballs");
const project = join(temp, "my-project");
const tsc = join(paths.root, "node_modules", "typescript", "bin", "tsc");
const TOOLS_FIXTURES = join(paths.root, "test", "fixtures", "tools");
const GENERATOR_DEPENDENCIES = ["ts-morph", "@ts-morph/common", "prettier", "handlebars", "yargs", "diff"];

interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

let runtime: Packed;
let generator: Packed;

/** The environment of a user's shell: nothing of the npm script or the CI spec directory this test runs under. */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "MCP_GEN_SPEC_DIR"),
  );
  return { ...env, MCP_GEN_CACHE_DIR: join(temp, "no-spec-cache") };
}

function run(command: string, args: string[], cwd = project) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: userEnv() });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: result.stdout + result.stderr };
}

/** Every file under a directory, with its size. */
function sizeOf(dir: string): { files: number; bytes: number } {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return { files: files.length, bytes: files.reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0) };
}

/** The packages in node_modules (scoped ones as `@scope/name`) and in any nested node_modules. */
function installedPackages(modules: string): string[] {
  const top = readdirSync(modules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name]));
  const nested = readdirSync(modules, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name === "node_modules")
    .map((e) => join(e.parentPath, e.name));
  return [...top, ...nested.flatMap((dir) => installedPackages(dir))];
}

/** The Quick start's code block that starts with `// <file>`. */
function quickStartBlock(file: string): string {
  const readme = readFileSync(join(paths.root, "README.md"), "utf8");
  const quickStart = readme.slice(
    readme.indexOf("## Quick start"),
    readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1),
  );
  const block = [...quickStart.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? "")
    .find((b) => b.startsWith(`// ${file}`));
  if (block === undefined) throw new Error(`README.md's Quick start has no code block starting with // ${file}`);
  return block;
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

beforeAll(() => {
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(project, { recursive: true });
  const packed = run(
    "npm",
    ["pack", "--workspaces", "--include-workspace-root", "--pack-destination", tarballs, "--json", "--loglevel=error"],
    paths.root,
  );
  expect(packed.status, packed.stderr).toBe(0);
  const list = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as Packed[];
  runtime = list.find((p) => p.name === "@mcp-gen/runtime") as Packed;
  generator = list.find((p) => p.name === "mcp-gen") as Packed;
  expect(runtime).toBeDefined();
  expect(generator).toBeDefined();
  writeJson(join(project, "package.json"), { name: "my-project", version: "1.0.0", private: true });
}, 300_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the packed tarballs", () => {
  it("hold a LICENSE, a README, package metadata and no build leftovers", () => {
    for (const p of [runtime, generator]) {
      const files = p.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
      expect(files.filter((f) => /\.tsbuildinfo$|\.test\.[jt]s$|^node_modules\/|^test\/|^\.cache\//.test(f))).toEqual(
        [],
      );
    }
    expect(
      runtime.files
        .map((f) => f.path)
        .filter((f) => !/^(dist\/.*\.(js|d\.ts)|LICENSE|README\.md|package\.json)$/.test(f)),
    ).toEqual([]);
    // The generator needs its compiled code, the runtime sources it vendors, its templates and models.
    const generatorFiles = generator.files.map((f) => f.path);
    for (const needed of [
      "dist/generators/cli/main.js",
      "runtime/index.ts",
      "runtime/validation/support.ts",
      "templates/client.hbs",
      "spec/revisions.json",
    ]) {
      expect(generatorFiles).toContain(needed);
    }
    console.log(
      `packed: ${runtime.filename} ${(runtime.size / 1024).toFixed(0)} kB (${runtime.files.length} files), ` +
        `${generator.filename} ${(generator.size / 1024).toFixed(0)} kB (${generator.files.length} files)`,
    );
  });

  it("link only to files they contain from their Markdown", () => {
    for (const p of [runtime, generator]) {
      const files = new Set(p.files.map((f) => f.path));
      const root = p.name === "mcp-gen" ? paths.root : join(paths.root, "packages", "runtime");
      const dangling: string[] = [];
      for (const doc of [...files].filter((f) => f.endsWith(".md"))) {
        const text = readFileSync(join(root, doc), "utf8");
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (target === undefined || /^[a-z]+:|^#/.test(target)) continue;
          const path = normalize(join(dirname(doc), target.split("#")[0] ?? ""))
            .split("\\")
            .join("/")
            .replace(/\/$/, "");
          if (!files.has(path) && ![...files].some((f) => f.startsWith(`${path}/`)))
            dangling.push(`${p.name}: ${doc} → ${target}`);
        }
      }
      expect(dangling).toEqual([]);
    }
  });

  it("are the ones the README's Quick start installs", () => {
    const readme = readFileSync(join(paths.root, "README.md"), "utf8");
    expect(readme).toContain(`npm install ../${runtime.filename}`);
    expect(readme).toContain(`npm install -D ../${generator.filename}`);
  });
});

describe("@mcp-gen/runtime installed alone", () => {
  beforeAll(() => {
    const installed = run("npm", ["install", join(tarballs, runtime.filename), "--offline", "--no-audit", "--no-fund"]);
    expect(installed.status, installed.output).toBe(0);
  });

  it("brings no dependency: node_modules holds the package and nothing of the generator", () => {
    const modules = join(project, "node_modules");
    expect(installedPackages(modules)).toEqual(["@mcp-gen/runtime"]);
    for (const dependency of GENERATOR_DEPENDENCIES) {
      expect(() => statSync(join(modules, dependency))).toThrow();
    }
    const size = sizeOf(modules);
    console.log(`runtime install: node_modules ${(size.bytes / 1024 / 1024).toFixed(1)} MB in ${size.files} files`);
    expect(size.bytes).toBeLessThan(10 * 1024 * 1024);
  });

  it("loads a revision with import and with require", () => {
    writeFileSync(
      join(project, "esm.mjs"),
      [
        'import { REVISION, createClient } from "@mcp-gen/runtime/2025-11-25";',
        'import { StdioClientTransport } from "@mcp-gen/runtime/stdio";',
        'import { Peer } from "@mcp-gen/runtime";',
        "console.log(REVISION, typeof createClient, typeof StdioClientTransport, typeof Peer);",
      ].join("\n"),
    );
    writeFileSync(
      join(project, "cjs.cjs"),
      [
        'const { REVISION, createServer } = require("@mcp-gen/runtime/2026-07-28");',
        'const { createHost } = require("@mcp-gen/runtime/host");',
        "console.log(REVISION, typeof createServer, typeof createHost);",
      ].join("\n"),
    );
    const esm = run(process.execPath, ["esm.mjs"]);
    expect(esm.output).toBe("2025-11-25 function function function\n");
    const cjs = run(process.execPath, ["cjs.cjs"]);
    expect(cjs.output).toBe("2026-07-28 function function\n");
  });

  it("type-checks a consumer under --strict, and rejects a wrongly typed use", () => {
    writeFileSync(
      join(project, "main.ts"),
      [
        'import { CLIENT_REQUEST_METHODS, type ClientRequestMap, type Tool } from "@mcp-gen/runtime/2025-06-18";',
        'import { CLIENT_REQUEST_METHODS as LATEST } from "@mcp-gen/runtime/2026-07-28";',
        'const tool: Tool = { name: "echo", inputSchema: { type: "object" } };',
        'export const params: ClientRequestMap["tools/call"]["params"] = { name: tool.name, arguments: { text: "hi" } };',
        "export const methods: readonly string[] = [...CLIENT_REQUEST_METHODS, ...LATEST];",
        'export const bad: Tool = { name: "echo" };',
      ].join("\n"),
    );
    const compilerOptions = { strict: true, module: "nodenext", target: "es2022", types: [], noEmit: true };
    writeJson(join(project, "tsconfig.json"), { compilerOptions, files: ["main.ts"] });
    const compiled = run(process.execPath, [tsc, "-p", "."]);
    expect(compiled.output.trim().split("\n")).toEqual([
      expect.stringMatching(/^main\.ts\(6,14\): error TS2741: Property 'inputSchema' is missing/),
    ]);
  });

  it("runs the README's Quick start server and client", () => {
    writeFileSync(join(project, "server.mjs"), quickStartBlock("server.mjs"));
    writeFileSync(join(project, "client.mjs"), quickStartBlock("client.mjs"));
    const ran = run(process.execPath, ["client.mjs"]);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe("[ 'greet' ]\nHello, Ada!\n");
  });
});

describe("mcp-gen installed as a devDependency, offline", () => {
  beforeAll(() => {
    // The lock npm would write, with the generator's dependencies at this repository's versions.
    const manifest = JSON.parse(readFileSync(join(paths.root, "package.json"), "utf8")) as {
      version: string;
      dependencies: Record<string, string>;
      bin: Record<string, string>;
      license: string;
      engines: Record<string, string>;
    };
    const repoLock = JSON.parse(readFileSync(join(paths.root, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean; link?: boolean }>;
    };
    const runtimeSpec = `file:../tarballs/${runtime.filename}`;
    const generatorSpec = `file:../tarballs/${generator.filename}`;
    const pkg = {
      name: "my-project",
      version: "1.0.0",
      private: true,
      dependencies: { "@mcp-gen/runtime": runtimeSpec },
      devDependencies: { "mcp-gen": generatorSpec },
    };
    const generatorDependencies = Object.entries(repoLock.packages).filter(
      ([path, entry]) => path.startsWith("node_modules/") && !entry.dev && !entry.devOptional && !entry.link,
    );
    writeJson(join(project, "package.json"), pkg);
    writeJson(join(project, "package-lock.json"), {
      name: pkg.name,
      version: pkg.version,
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": {
          name: pkg.name,
          version: pkg.version,
          dependencies: pkg.dependencies,
          devDependencies: pkg.devDependencies,
        },
        "node_modules/@mcp-gen/runtime": { version: runtime.version, resolved: runtimeSpec, license: "MIT" },
        "node_modules/mcp-gen": {
          version: generator.version,
          resolved: generatorSpec,
          dev: true,
          license: manifest.license,
          dependencies: manifest.dependencies,
          bin: manifest.bin,
          engines: manifest.engines,
        },
        ...Object.fromEntries(generatorDependencies.map(([path, entry]) => [path, { ...entry, dev: true }])),
      },
    });
    const installed = run("npm", ["ci", "--offline", "--no-audit", "--no-fund"]);
    expect(
      installed.status,
      `${installed.output}\n(the generator's dependencies come from npm's cache, which \`npm ci\` in this repository fills)`,
    ).toBe(0);
    const size = sizeOf(join(project, "node_modules"));
    console.log(
      `runtime + generator install: node_modules ${(size.bytes / 1024 / 1024).toFixed(1)} MB in ${size.files} files`,
    );
  });

  it("npx mcp-gen vendors a revision; --check passes, fails after a hand edit, and passes again after re-generation", () => {
    const generate = () => run("npx", ["mcp-gen", "--rev", "2025-11-25", "--out", "src/mcp"]);
    const check = () => run("npx", ["mcp-gen", "--rev", "2025-11-25", "--out", "src/mcp", "--check"]);
    const generated = generate();
    expect(generated.status, generated.output).toBe(0);
    expect(generated.stderr).toMatch(/2025-11-25: \d+ files in src\/mcp/);
    expect(readFileSync(join(project, "src", "mcp", "index.ts"), "utf8")).toMatch(/^\/\/ @generated by mcp-gen v/);
    expect(check().status).toBe(0);

    const client = join(project, "src", "mcp", "client.ts");
    writeFileSync(
      client,
      readFileSync(client, "utf8").replace("export function createClient", "export function createClient2"),
    );
    const drifted = check();
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain("+++ b/client.ts");
    expect(drifted.stdout).toContain("-export function createClient2");

    expect(generate().status).toBe(0);
    const restored = check();
    expect(restored.status, restored.output).toBe(0);
    expect(restored.stderr).toContain("src/mcp is up to date");
  });

  it("npx mcp-gen tools writes a module that compiles and runs against the installed @mcp-gen/runtime", () => {
    const dir = join(project, "tools");
    mkdirSync(dir, { recursive: true });
    writeJson(join(dir, "package.json"), { type: "module" });
    const written = run("npx", [
      "mcp-gen",
      "tools",
      "--from",
      join(TOOLS_FIXTURES, "weather.json"),
      "--out",
      "tools/weather.ts",
    ]);
    expect(written.status, written.output).toBe(0);
    writeFileSync(
      join(dir, "main.ts"),
      [
        'import { createTools, ValidationError } from "./weather.js";',
        "const tools = createTools({",
        '  callTool: async () => ({ content: [], structuredContent: { conditions: "sun", temperature: 21 } }),',
        "});",
        'const result = await tools.getWeather({ city: "Oslo" });',
        "if (!result.isError) console.log(result.structuredContent.temperature);",
        'await tools.getWeather({ city: "" }).catch((e: unknown) => console.log(e instanceof ValidationError));',
      ].join("\n"),
    );
    const compilerOptions = { strict: true, module: "nodenext", target: "es2022", types: [], outDir: "out" };
    writeJson(join(dir, "tsconfig.json"), { compilerOptions, files: ["main.ts"] });
    const compiled = run(process.execPath, [tsc, "-p", "tools"]);
    expect(compiled.output).toBe("");
    const ran = run(process.execPath, ["tools/out/main.js"]);
    expect(ran.output).toBe("21\ntrue\n");
  });

  it("the installed generator refuses the maintainer commands and names its version", () => {
    const version = run("npx", ["mcp-gen", "--version"]);
    expect(version.stdout.trim()).toBe(generator.version);
    const refused = run("npx", ["mcp-gen", "generate"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/maintainer command/);
  });
});

// The package as a consumer sees it: `npm i <path of this repository>` in an empty project,
// then `import … from "mcp-gen/<rev>"` type-checks under --strict and runs under node.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";

const project = mkdtempSync(join(tmpdir(), "mcp-gen-consumer-"));
const tsc = join(paths.root, "node_modules", "typescript", "bin", "tsc");

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => {
  // The exports point at dist/: build it from the current sources first.
  const build = run(process.execPath, [tsc, "-p", "tsconfig.build.json"], paths.root);
  expect(build.output).toBe("");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const install = run(
    "npm",
    ["install", paths.root, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    project,
  );
  expect(install.status, install.output).toBe(0);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("mcp-gen as an installed package", () => {
  it("exports each revision: a type and a method-name array type-check with --strict and run with node", () => {
    writeFileSync(
      join(project, "main.ts"),
      [
        'import { CLIENT_REQUEST_METHODS, REVISION, type ClientRequestMap, type Tool } from "mcp-gen/2025-06-18";',
        'import { CLIENT_REQUEST_METHODS as LATEST } from "mcp-gen/2026-07-28";',
        'const tool: Tool = { name: "echo", inputSchema: { type: "object" } };',
        'const params: ClientRequestMap["tools/call"]["params"] = { name: tool.name, arguments: { text: "hi" } };',
        "const methods: readonly string[] = CLIENT_REQUEST_METHODS;",
        'console.log(JSON.stringify({ revision: REVISION, tool: params.name, methods, latest: LATEST.includes("server/discover") }));',
      ].join("\n"),
    );
    const compilerOptions = { strict: true, module: "nodenext", target: "es2022", types: [], outDir: "out" };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
    const compiled = run(process.execPath, [tsc, "-p", "."], project);
    expect(compiled.output).toBe("");
    const ran = run(process.execPath, [join(project, "out", "main.js")], project);
    expect(ran.status, ran.output).toBe(0);
    const printed = JSON.parse(ran.output) as { revision: string; tool: string; methods: string[]; latest: boolean };
    expect(printed).toMatchObject({ revision: "2025-06-18", tool: "echo", latest: true });
    expect(printed.methods).toContain("tools/call");
  });

  it("rejects a wrongly typed use at compile time", () => {
    writeFileSync(
      join(project, "bad.ts"),
      'import type { Tool } from "mcp-gen/2025-06-18";\nexport const tool: Tool = { name: "echo" };\n',
    );
    const compilerOptions = { strict: true, module: "nodenext", types: [], noEmit: true };
    writeFileSync(join(project, "tsconfig.bad.json"), JSON.stringify({ compilerOptions, files: ["bad.ts"] }));
    const compiled = run(process.execPath, [tsc, "-p", "tsconfig.bad.json"], project);
    expect(compiled.output).toContain("Property 'inputSchema' is missing");
  });

  it("installs the mcp-gen command", () => {
    const help = run(join(project, "node_modules", ".bin", "mcp-gen"), ["--help"], project);
    expect(help.status, help.output).toBe(0);
    expect(help.output).toContain("mcp-gen --rev <revision> [--out DIR]");
  });
});

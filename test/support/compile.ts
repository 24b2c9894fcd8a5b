// The TypeScript compiler as the tests run it on generated code and on fixtures written against
// it: the options (the plain strict ones, and the strictest a consumer might use) and diagnostics
// as "file:line: message"; and modules compiled as a user's project would, inside the repository
// (so that bare imports resolve through its node_modules). @mcp-gen/runtime resolves to the
// runtime's sources (runtime-sources.ts).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { paths } from "../../generators/paths.js";
import { runtimePaths } from "./runtime-sources.js";

/** `--strict` for ES modules under Node, without ambient @types. */
export const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
  skipLibCheck: true,
  paths: runtimePaths(),
};

/** The strictest options a consumer might compile a generated module with. */
export const STRICTEST: ts.CompilerOptions = {
  ...STRICT,
  lib: ["lib.es2023.d.ts"],
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  // No parameter properties, enums or namespaces: what Node's type stripping runs.
  erasableSyntaxOnly: true,
};

/** Compiles the files together; the diagnostics of `only` (default: all of them), as "file:line: message". */
export function compile(files: string[], only: string[] = files, options: ts.CompilerOptions = STRICTEST): string[] {
  const program = ts.createProgram(files, options);
  return only.flatMap((file) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${d.file?.fileName.split("/").pop() ?? ""}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    }),
  );
}

/** A module of a user's project: its file name (`.mts`, `.mjs`) and code. */
export interface ProjectModule {
  readonly name: string;
  readonly code: string;
}

/**
 * Compiles `modules` together as one ESM project under `dir` (inside the repository's
 * node_modules/.cache, emptied first); each module's diagnostics, with their line.
 */
export function compileProject(
  dir: string,
  modules: readonly ProjectModule[],
  options: ts.CompilerOptions,
): Map<string, { line: number; message: string }[]> {
  const root = join(paths.root, "node_modules", ".cache", dir);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
  const files = modules.map((module) => join(root, module.name));
  modules.forEach((module, i) => {
    mkdirSync(dirname(files[i] as string), { recursive: true });
    writeFileSync(files[i] as string, module.code);
  });
  const program = ts.createProgram(files, options);
  return new Map(
    modules.map((module, i) => [
      module.name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(files[i] as string)).map((d) => ({
        line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
        message: `${d.file && d.file.fileName !== files[i] ? `${d.file.fileName}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      })),
    ]),
  );
}

// Compile-time proof that generated/<rev>/types.ts matches the upstream schema.ts:
// every exported type is mutually assignable with the upstream type of the same name,
// every constant has the same literal type, and both export the same names.
// The upstream file is read from the spec directory at test time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { STRICT } from "./support/compile.js";
import { REVISIONS, schemaTsPath } from "./support/spec.js";

interface Exports {
  types: string[];
  values: string[];
}

/** Exported names of a TypeScript file, read from its syntax alone. */
function exportsOf(path: string): Exports {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  const result: Exports = { types: [], values: [] };
  for (const statement of file.statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
      result.types.push(statement.name.text);
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) result.values.push(d.name.getText(file));
    }
  }
  return result;
}

const work = mkdtempSync(join(tmpdir(), "mcp-gen-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One check module per revision, compiled together in one strict program. */
function checkModule(revision: string, upstream: Exports): string {
  const up = JSON.stringify(schemaTsPath(revision).replace(/\.ts$/, ".js"));
  const ours = JSON.stringify(resolve("generated", revision, "types.js"));
  const lines = [
    `import type * as Up from ${up};`,
    `import type * as Ours from ${ours};`,
    "type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    "type Expect<T extends true> = T;",
    ...upstream.types.map((name) => `export type ${name} = Expect<Mutual<Up.${name}, Ours.${name}>>;`),
    ...upstream.values.map(
      (name) => `export type const_${name} = Expect<Mutual<typeof Up.${name}, typeof Ours.${name}>>;`,
    ),
  ];
  const path = join(work, `${revision}.ts`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

const upstreamExports = new Map(REVISIONS.map((r) => [r, exportsOf(schemaTsPath(r))]));
const checkFiles = new Map(REVISIONS.map((r) => [r, checkModule(r, upstreamExports.get(r) as Exports)]));
const program = ts.createProgram([...checkFiles.values()], STRICT);

/** Diagnostics of a file, each named by the check line (= upstream type) it is on. */
function failures(file: string): string[] {
  const source = program.getSourceFile(file);
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const line = where && d.file ? d.file.text.split("\n")[where.line] : "";
    return `${d.file?.fileName ?? ""}:${(where?.line ?? 0) + 1}: ${line?.trim()} — ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

describe.each(REVISIONS)("generated/%s/types.ts against upstream schema.ts", (revision) => {
  const upstream = upstreamExports.get(revision) as Exports;
  const ours = exportsOf(resolve("generated", revision, "types.ts"));

  it("exports exactly the upstream names", () => {
    expect(upstream.types.length).toBeGreaterThan(50);
    expect([...ours.types].sort()).toEqual([...upstream.types].sort());
    expect([...ours.values].sort()).toEqual([...upstream.values].sort());
  });

  it("has every type mutually assignable with upstream's, and every constant of the same type", () => {
    expect(failures(checkFiles.get(revision) as string)).toEqual([]);
  });
});

describe("the assignability check itself", () => {
  it("fails on a type that differs from upstream", () => {
    const file = join(work, "negative.ts");
    writeFileSync(
      file,
      [
        "type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
        "type Expect<T extends true> = T;",
        "export type Optional = Expect<Mutual<{ a: string }, { a?: string }>>;",
        'export type Literal = Expect<Mutual<{ a: "x" }, { a: string }>>;',
      ].join("\n"),
    );
    const negative = ts.createProgram([file], { strict: true, noEmit: true, types: [] });
    expect(ts.getPreEmitDiagnostics(negative).length).toBe(2);
  });
});

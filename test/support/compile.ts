// The TypeScript compiler as the tests run it on generated code and on fixtures written against
// it: the options (the plain strict ones, and the strictest a consumer might use) and diagnostics
// as "file:line: message".
import ts from "typescript";

/** `--strict` for ES modules under Node, without ambient @types. */
export const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
  skipLibCheck: true,
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

// The validator functions are laid out without prettier (generators/emit/validate/layout.ts) and
// must come out byte for byte as prettier would print them: formats every chunk of every
// revision's validators.ts with prettier and compares. Chunks the layout does not model go to
// prettier in the build; they must stay few, or the cold build slows down again.
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { validatorsArtifact } from "../generators/emit/validators.js";
import { layoutChunk } from "../generators/emit/validate/layout.js";
import { paths } from "../generators/paths.js";
import { emitEnv, readModel } from "../generators/pipeline.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";

const OPTIONS = { parser: "babel-ts", printWidth: 100, filepath: "validators.ts" } as const;

describe("validator chunks laid out without prettier", () => {
  it("are byte-identical to prettier's output, in every revision", async () => {
    const table = loadRevisionTable();
    const chunks = new Set<string>();
    for (const { revision } of table.revisions) {
      const source = validatorsArtifact.emit(readModel(paths.model(revision)), emitEnv(table, revision));
      if (typeof source !== "object") throw new Error("validators.ts is emitted in chunks");
      for (const chunk of source.chunks) chunks.add(chunk);
    }
    let laidOut = 0;
    const differ: string[] = [];
    for (const chunk of chunks) {
      const ours = layoutChunk(chunk);
      if (ours === undefined) continue;
      laidOut++;
      if (ours !== (await prettier.format(chunk, OPTIONS))) differ.push(chunk.slice(0, chunk.indexOf("(")));
    }
    expect(differ).toEqual([]);
    expect(laidOut / chunks.size).toBeGreaterThan(0.95);
  }, 120_000);

  it("leaves to prettier what it does not model", () => {
    // A regular expression literal, a long member chain, a statement kind the printer never writes.
    expect(layoutChunk("function f(v: unknown): boolean {\nreturn /a/.test(v);\n}")).toBeUndefined();
    expect(layoutChunk("function f(v: unknown): boolean {\nreturn a.b().c().d();\n}")).toBeUndefined();
    expect(layoutChunk("function f(v: unknown): boolean {\nwhile (v) v = 1;\nreturn true;\n}")).toBeUndefined();
  });

  it("prints string literals and parentheses as prettier does", async () => {
    const chunk = [
      "function f(v: unknown): boolean {",
      'if (!(v === "a") && out.add(fail(p, "\\"a\\" or \'b\'", v))) return true;',
      'return (typeof v === "string") || (typeof v === "number" && Number.isFinite(v));',
      "}",
    ].join("\n");
    const ours = layoutChunk(chunk);
    expect(ours).toBe(await prettier.format(chunk, OPTIONS));
  });
});

// Modules are formatted as their top-level pieces, each distinct piece once per process
// (formatModule in generators/emit/render.ts): that must give the bytes prettier gives the whole
// module. Formats every emitted module of every revision both ways and compares.
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { splitModule } from "../generators/emit/render.js";
import { paths } from "../generators/paths.js";
import { ARTIFACTS, emitEnv, readModel } from "../generators/pipeline.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";

const OPTIONS = { parser: "babel-ts", printWidth: 100, filepath: "module.ts" } as const;

describe("formatting a module piece by piece", () => {
  it("gives the bytes formatting it whole gives, for every module and frame of every revision", async () => {
    const table = loadRevisionTable();
    const formatted = new Map<string, string>();
    const differ: string[] = [];
    let pieceCount = 0;
    for (const { revision } of table.revisions) {
      const model = readModel(paths.model(revision));
      for (const artifact of ARTIFACTS) {
        const emitted = artifact.emit(model, emitEnv(table, revision));
        const source = typeof emitted === "string" ? emitted : emitted.frame;
        const pieces = splitModule(source);
        pieceCount += pieces.length;
        const parts: string[] = [];
        for (const piece of pieces) {
          let text = formatted.get(piece.text);
          if (text === undefined) {
            text = await prettier.format(piece.text, OPTIONS);
            formatted.set(piece.text, text);
          }
          parts.push((parts.length > 0 && piece.blank ? "\n" : "") + text);
        }
        if (parts.join("") !== (await prettier.format(source, OPTIONS))) differ.push(`${revision}/${artifact.file}`);
      }
    }
    expect(differ).toEqual([]);
    // The cut must find the statements, or nothing is shared between revisions.
    expect(pieceCount).toBeGreaterThan(1000);
  }, 180_000);

  it("cuts between top-level statements only", () => {
    const source = [
      "/** A. */",
      "export interface A {",
      "  a: string;",
      "",
      "  b: number;",
      "}",
      "",
      "const x = `",
      "",
      "export const y = 1;`;",
      "",
      "export const z = 2;",
    ].join("\n");
    expect(splitModule(source).map((p) => [p.text, p.blank])).toEqual([
      ["/** A. */\n", false],
      ["export interface A {\n  a: string;\n\n  b: number;\n}\n", false],
      ["const x = `\n\nexport const y = 1;`;\n", true],
      ["export const z = 2;\n", true],
    ]);
  });
});

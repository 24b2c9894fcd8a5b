// Modules are formatted as their top-level pieces, each distinct piece once per process, doc
// comments already in prettier's layout passed through (formatModule in generators/emit/render.ts):
// that must give the bytes prettier gives the whole module. Formats every emitted module of every
// revision both ways and compares.
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { formatModule, moduleFallbacks, splitModule } from "../generators/emit/render.js";
import { paths } from "../generators/paths.js";
import { ARTIFACTS, emitEnv, readModel } from "../generators/pipeline.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";

const OPTIONS = { parser: "babel-ts", printWidth: 100, filepath: "module.ts" } as const;
// formatModule as a cold `generate` runs it: no disk cache.
process.env.MCP_GEN_FORMAT_CACHE = "off";

describe("formatting a module piece by piece", () => {
  it("gives the bytes formatting it whole gives, for every module and frame of every revision", async () => {
    const table = loadRevisionTable();
    const differ: string[] = [];
    let pieceCount = 0;
    for (const { revision } of table.revisions) {
      const model = readModel(paths.model(revision));
      for (const artifact of ARTIFACTS) {
        const emitted = artifact.emit(model, emitEnv(table, revision));
        if (emitted === undefined) continue;
        const source = typeof emitted === "string" ? emitted : emitted.frame;
        pieceCount += splitModule(source).length;
        const ours = await formatModule(source, artifact.file);
        if (ours !== (await prettier.format(source, OPTIONS))) differ.push(`${revision}/${artifact.file}`);
      }
    }
    expect(differ).toEqual([]);
    expect(moduleFallbacks.count, "modules formatted whole").toBe(0);
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

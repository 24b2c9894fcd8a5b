// No import circles: the source files (runtime/, generators/, host/, integrations/, scripts/,
// bench/; not generated/ or test/) import each other as a graph without cycles, type-only imports
// included, so every module can be read after what it imports. The detector is checked first on
// graphs and sources made up here, so the real check cannot pass by finding nothing.
import { describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import { circles, importGraph, importsOf, type Graph } from "./support/import-graph.js";

const SOURCE_DIRS = ["runtime", "generators", "host", "integrations", "scripts", "bench"];

const graph = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));

describe("the circle detector", () => {
  it("finds each circle of a small graph, and nothing in the rest", () => {
    const found = circles(
      graph({
        "a.ts": ["b.ts"],
        "b.ts": ["c.ts", "d.ts"],
        "c.ts": ["a.ts"],
        "d.ts": ["e.ts"],
        "e.ts": [],
        "f.ts": ["f.ts"],
        "g.ts": ["a.ts", "e.ts"],
      }),
    );
    expect(found.sort()).toEqual([["a.ts", "b.ts", "c.ts"], ["f.ts"]]);
  });

  it("finds none where a file is imported by many but imports none of them back", () => {
    expect(circles(graph({ "a.ts": ["c.ts"], "b.ts": ["c.ts", "a.ts"], "c.ts": [] }))).toEqual([]);
  });

  it("reads every kind of relative import, and none in comments or generated text", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      "import {\n  c,\n  type C,\n} from './c.js';",
      'export * from "./d.js";',
      'export { e } from "./e.js";',
      'import "./f.js";',
      'const g = await import("./g.js");',
      'import { readFileSync } from "node:fs";',
      '// import { no } from "./line-comment.js";',
      '/* import { no } from "./block-comment.js"; */',
      'const url = "http://example.com"; const re = /[/*]/;',
      'const text = `import { no } from "./template.js"; ${"x"}`;',
      'export const h = "./not-an-import.js";',
      'import { i } from "./i.js";',
    ].join("\n");
    expect(importsOf(source)).toEqual([
      "./a.js",
      "../b.js",
      "./c.js",
      "./d.js",
      "./e.js",
      "./f.js",
      "./g.js",
      "./i.js",
    ]);
  });
});

describe("the source tree", () => {
  it("has no import circles", () => {
    const tree = importGraph(paths.root, SOURCE_DIRS);
    expect(tree.size).toBeGreaterThan(100);
    expect([...tree.values()].flat().length).toBeGreaterThan(tree.size);
    const found = circles(tree);
    const report = found.map((files, i) => `circle ${i + 1}:\n${files.map((f) => `  ${f}`).join("\n")}`);
    expect(found, `import circles:\n${report.join("\n")}`).toEqual([]);
  });
});

// Every TypeScript and JavaScript snippet in README.md and docs/*.md compiles as written, the way a
// user pastes it into a project: an ES module under strict, NodeNext, exactOptionalPropertyTypes
// and noUncheckedIndexedAccess, with @mcp-gen/runtime's subpaths resolved to this repository's
// sources as the package's exports map them (so the docs are checked against the code of this
// commit, not a stale build). JavaScript snippets are type-checked too (checkJs). The modules the
// docs have `mcp-gen tools` write (src/everything-tools.ts, src/weather-tools.ts) are generated
// beside them from saved listings (test/fixtures/doc-snippets/) by the same code.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import { emitToolsModule } from "../generators/tools/emit.js";
import { normalizeListing } from "../generators/tools/listing.js";
import { compileProject, type ProjectModule } from "./support/compile.js";
import { runtimePaths } from "./support/runtime-sources.js";

interface Snippet {
  /** `docs/servers.md:274`: where the block opens. */
  readonly at: string;
  readonly language: "ts" | "js";
  readonly code: string;
}

/** The fenced ts/js blocks of a Markdown file. */
function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(join(paths.root, file), "utf8").split("\n");
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|typescript|js|mjs|javascript)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
    const language = open[1] === "ts" || open[1] === "typescript" ? "ts" : "js";
    found.push({ at: `${file}:${i + 1}`, language, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return found;
}

const DOCS = [
  "README.md",
  ...readdirSync(join(paths.root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  allowJs: true,
  checkJs: true,
  skipLibCheck: true,
  paths: runtimePaths(),
};

/** The tools modules the docs generate, from the listings saved beside this test's fixtures. */
async function toolsModules(): Promise<ProjectModule[]> {
  const dir = join(paths.root, "test", "fixtures", "doc-snippets");
  return Promise.all(
    readdirSync(dir).map(async (file) => {
      const name = `src/${file.replace(/\.json$/, ".ts")}`;
      const listing = normalizeListing(JSON.parse(readFileSync(join(dir, file), "utf8")), file);
      return { name, code: (await emitToolsModule(listing, name)).source };
    }),
  );
}

/** Every snippet's problems, "doc:line (where the block opens): message", compiled as one project. */
async function problemsOfSnippets(): Promise<Map<string, string[]>> {
  const snippets = DOCS.flatMap(snippetsOf);
  const modules = snippets.map((snippet, i) => ({
    name: `snippet-${i}.${snippet.language === "ts" ? "mts" : "mjs"}`,
    code: snippet.code,
  }));
  const diagnostics = compileProject("doc-snippets", [...modules, ...(await toolsModules())], OPTIONS);
  const problems = new Map<string, string[]>(DOCS.map((doc) => [doc, []]));
  snippets.forEach((snippet, i) => {
    const [doc = "", opened] = snippet.at.split(":");
    for (const { line, message } of diagnostics.get(modules[i]?.name ?? "") ?? [])
      problems.get(doc)?.push(`${doc}:${Number(opened) + line} (${snippet.at}): ${message}`);
  });
  return problems;
}

describe("the snippets of README.md and docs/ compile as written", () => {
  let problems: Map<string, string[]>;
  beforeAll(async () => {
    problems = await problemsOfSnippets();
  });

  it("there are snippets to check", () => {
    expect(DOCS.flatMap(snippetsOf).length).toBeGreaterThan(30);
  });

  it.each(DOCS)("%s", (doc) => {
    expect(problems.get(doc)).toEqual([]);
  });
});

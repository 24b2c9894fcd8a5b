// Benchmark: `mcp-gen tools` generation time, on the listing of @modelcontextprotocol/server-everything
// (a devDependency, listed live once over stdio) and on a synthetic listing of 1,000 tools, next to
// json-schema-to-typescript on its own (types only, formatted by it: what a hand-made pipeline
// would start from).
//
//   npm run bench:tools      (part of `npm run bench`)
//
// Environment:
//   BENCH_RUNS   timed runs per case (default 5); the figure is the median, the range is printed too
//
// Cases:
//   - everything: the saved listing of the server, generated in process (emitToolsModule) from a
//     fresh listing object each run; and the whole command once per run, as a user runs it
//     (`tsx generators/cli/main.ts tools --stdio …`: process start, revision negotiation, listing,
//     generation, writing).
//   - synthetic: 1,000 tools, each with its own shape (properties named after the tool, so no two
//     schemas are equal and nothing is shared): 4 typed properties with bounds, an enum and an
//     array, and for every other tool an output schema; 50 prompts with 2 arguments.
// The prettier cache is off (MCP_GEN_FORMAT_CACHE=off): every run formats from scratch. Phases are
// timed apart in extra runs: types (json-schema-to-typescript), validators (the builder), formatting
// (prettier on the finished module). Timings are never asserted anywhere.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { schemaValidatorParts } from "../generators/emit/schema-validators.js";
import { formatTypeScript } from "../generators/emit/render.js";
import { paths } from "../generators/paths.js";
import { emitToolsModule } from "../generators/tools/emit.js";
import { normalizeListing, type Listing } from "../generators/tools/listing.js";
import { argumentSchema } from "../generators/tools/schemas.js";
import { typeDeclarations } from "../generators/tools/types.js";
import { nodeCommandLine, serverEntry } from "../test/fixtures/tools/harness.js";

process.env.MCP_GEN_FORMAT_CACHE = "off";
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-tools-"));
const tsx = join(paths.root, "node_modules", ".bin", "tsx");
const main = join(paths.root, "generators", "cli", "main.ts");
const everything = nodeCommandLine(serverEntry("@modelcontextprotocol/server-everything"), "stdio");

function synthetic(count: number): unknown {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Synthetic tool ${i}.`,
    inputSchema: {
      type: "object",
      properties: {
        [`query${i}`]: { type: "string", minLength: 1 },
        [`limit${i}`]: { type: "integer", minimum: 1, maximum: 100 },
        [`mode${i}`]: { type: "string", enum: ["fast", "slow", `m${i}`] },
        [`tags${i}`]: { type: "array", items: { type: "string" } },
      },
      required: [`query${i}`],
    },
    ...(i % 2 === 0
      ? {
          outputSchema: {
            type: "object",
            properties: { [`result${i}`]: { type: "number" } },
            required: [`result${i}`],
          },
        }
      : {}),
  }));
  const prompts = Array.from({ length: 50 }, (_, i) => ({
    name: `prompt_${i}`,
    arguments: [{ name: `topic${i}`, required: true }, { name: "style" }],
  }));
  return { tools, prompts };
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function measure(label: string, run: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(run));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  console.log(`${label.padEnd(58)} median ${ms(median)}  (${ms(times[0] as number)} – ${ms(times.at(-1) as number)})`);
  return times;
}

const ms = (t: number) => `${Math.round(t).toLocaleString("en")} ms`.padStart(9);

async function phases(label: string, listing: Listing): Promise<void> {
  const schemas = listing.tools.flatMap((t, i) => [
    { name: `T${i}Input`, schema: argumentSchema(t.inputSchema) },
    ...(t.outputSchema ? [{ name: `T${i}Output`, schema: t.outputSchema }] : []),
  ]);
  const { source } = await emitToolsModule(listing, join(work, "phases.ts"));
  await measure(`${label}: types (json-schema-to-typescript)`, async () => {
    for (const s of schemas) await typeDeclarations(s.name, s.schema);
  });
  await measure(`${label}: validators (the builder)`, () => schemaValidatorParts(schemas).builder.codeView());
  await measure(`${label}: formatting (prettier, ${Math.round(source.length / 1024)} KiB)`, () =>
    formatTypeScript(source, join(work, "phases.ts")),
  );
  await measure(`${label}: json-schema-to-typescript alone, formatted`, async () => {
    for (const s of schemas) await compile(s.schema as Parameters<typeof compile>[0], s.name, { bannerComment: "" });
  });
}

console.log(
  `node ${process.version}; ${cpus()[0]?.model ?? "?"} × ${cpus().length}; ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; ${RUNS} runs per case\n`,
);
try {
  const saved = join(work, "everything.json");
  execFileSync(tsx, [main, "tools", "--stdio", everything, "--out", join(work, "e.ts"), "--save", saved], {
    stdio: "pipe",
  });
  const everythingRaw = JSON.parse(readFileSync(saved, "utf8")) as unknown;
  const everythingListing = normalizeListing(everythingRaw, "everything");
  console.log(`everything: ${everythingListing.tools.length} tools, ${everythingListing.prompts.length} prompts`);
  await measure("everything: generation (listing → formatted module)", () =>
    emitToolsModule(normalizeListing(structuredClone(everythingRaw), "everything"), join(work, "e.ts")),
  );
  await measure("everything: whole command, live over stdio", () =>
    execFileSync(tsx, [main, "tools", "--stdio", everything, "--out", join(work, "e.ts")], { stdio: "pipe" }),
  );
  await phases("everything", everythingListing);

  const raw = synthetic(1000);
  const listing = normalizeListing(raw, "synthetic");
  console.log(`\nsynthetic: ${listing.tools.length} tools, ${listing.prompts.length} prompts`);
  await measure("synthetic: generation (listing → formatted module)", () =>
    emitToolsModule(normalizeListing(structuredClone(raw), "synthetic"), join(work, "s.ts")),
  );
  await phases("synthetic", listing);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `\nload average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

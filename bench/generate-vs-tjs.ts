// Benchmark: `mcp-gen generate` (all six revisions) against typescript-json-schema generating
// schema.json for the same six schema.ts files, the way the spec repository does it.
//
//   npm run bench          (builds dist/ first, then runs this file with tsx)
//
// Environment:
//   MCP_GEN_SPEC_DIR  directory with <revision>/schema.ts (and schema.json); default ../shared/mcp-spec
//   BENCH_RUNS        timed runs per tool (default 3)
//
// What is timed, each as the wall time of child processes started from here:
//   - mcp-gen: `node dist/generators/cli/main.js generate --spec-dir DIR` in the repository. generate
//     is idempotent, so a run over an up-to-date tree writes nothing; the figure is parse + emit +
//     prettier + compare, plus node start-up.
//   - mcp-gen with its format cache (what a developer's or CI's `check` does): `check` with
//     MCP_GEN_FORMAT_CACHE in a temp dir, warmed by one run before the rounds.
//   - typescript-json-schema: upstream's scripts/generate-schemas.ts (at the pinned spec commit) runs
//     `npx typescript-json-schema --defaultNumberType integer --required --skipLibCheck <schema.ts> "*"
//     -o <schema.json>` once per revision, all six at once (Promise.all), then rewrites the non-legacy
//     revisions' output to JSON Schema 2020-12 ($schema URL, definitions → $defs). We do the same,
//     calling node_modules/.bin/typescript-json-schema directly (no npx start-up, which favours tjs)
//     and writing into a temp dir. We also time the six one after another: mcp-gen is a single
//     process on one core, so the sequential figure compares equal CPU budgets, while the parallel
//     one is what upstream actually waits for.
// Runs are interleaved round-robin, and each round starts with a different tool, so machine noise
// falls on every tool alike. Reported: median and min per tool, and mcp-gen / tjs ratios.
//
// Then, in this process, a breakdown of mcp-gen's own time (generators/pipeline.ts imported from
// source): node + module start-up (`mcp-gen --help` as a child), parsing all six revisions with one
// ModelLoader (one ts-morph project and type checker) versus a fresh loader per revision, template
// emission alone, prettier's first call (it loads its TypeScript parser lazily) and formatting
// (emitRevision minus emission: the validator chunks laid out without prettier, the rest of the
// text through prettier piece by piece). Pass 1 is cold like the CLI; later passes show the warm
// cost, and reuse every chunk and piece pass 1 formatted (render.ts keeps them for the process), so
// their formatting figure is almost nothing.
// Results go into BENCHMARKS.md by hand; timings are never asserted anywhere.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formatTypeScript } from "../generators/emit/render.js";
import { ARTIFACTS, emitEnv, emitRevision, ModelLoader } from "../generators/pipeline.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";

const run = promisify(execFile);
// In-process measurements format for real too (see the cache in generators/emit/render.ts).
process.env.MCP_GEN_FORMAT_CACHE = "off";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SPEC_DIR = resolve(process.env.MCP_GEN_SPEC_DIR ?? join(ROOT, "..", "shared", "mcp-spec"));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const CLI = join(ROOT, "dist", "generators", "cli", "main.js");
const TJS = join(ROOT, "node_modules", ".bin", "typescript-json-schema");
// Upstream keeps these three as JSON Schema draft-07; every later revision gets the 2020-12 rewrite.
const LEGACY = new Set(["2024-11-05", "2025-03-26", "2025-06-18"]);

const table = loadRevisionTable();
const revisions = table.revisions.map((r) => r.revision);
let out = ""; // temp dir for tjs output, made in main()

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const min = (xs: number[]) => Math.min(...xs);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

let generateSummary = "";
async function mcpGen(): Promise<void> {
  // Children get process.execPath without tsx's loader flags: the CLI runs as users run it.
  // The format cache would turn every run after the first into a cache lookup: measure the work.
  const env = { ...process.env, MCP_GEN_FORMAT_CACHE: "off" };
  const { stderr } = await run(process.execPath, [CLI, "generate", "--spec-dir", SPEC_DIR], { cwd: ROOT, env });
  generateSummary = stderr.trim().split("\n").at(-1) ?? "";
}

/** `check` with the format cache on, as developers and CI run it; warmed once before the rounds. */
const formatCache = mkdtempSync(join(tmpdir(), "mcp-gen-bench-format-"));
async function mcpGenCached(): Promise<void> {
  const env = { ...process.env, MCP_GEN_FORMAT_CACHE: formatCache };
  await run(process.execPath, [CLI, "check", "--spec-dir", SPEC_DIR], { cwd: ROOT, env });
}

async function tjs(revision: string): Promise<void> {
  const file = join(out, `${revision}.json`);
  const schema = join(SPEC_DIR, revision, "schema.ts");
  const flags = ["--defaultNumberType", "integer", "--required", "--skipLibCheck"];
  await run(process.execPath, [TJS, ...flags, schema, "*", "-o", file]);
  if (!LEGACY.has(revision)) {
    const text = readFileSync(file, "utf8")
      .replace(/http:\/\/json-schema\.org\/draft-07\/schema#/g, "https://json-schema.org/draft/2020-12/schema")
      .replace(/"definitions":/g, '"$defs":')
      .replace(/#\/definitions\//g, "#/$defs/");
    writeFileSync(file, text, "utf8");
  }
}

const tools: { name: string; fn: () => Promise<unknown> }[] = [
  { name: "mcp-gen generate (6 revisions)", fn: mcpGen },
  { name: "tjs, 6 files in parallel (upstream)", fn: () => Promise.all(revisions.map(tjs)) },
  {
    name: "tjs, 6 files one after another",
    fn: async () => {
      for (const revision of revisions) await tjs(revision);
    },
  },
  { name: "mcp-gen check, format cache warm", fn: mcpGenCached },
];

/** One table row: first column left-aligned, the others right-aligned; numbers rounded to ms. */
function row(cells: (string | number)[], widths: number[]): string {
  return cells
    .map((c, i) => {
      const text = typeof c === "number" ? String(Math.round(c)) : c;
      return i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!);
    })
    .join("  ");
}

async function sideBySide(): Promise<void> {
  const times = tools.map(() => [] as number[]);
  await mcpGenCached(); // fills the format cache
  for (let round = 0; round < RUNS; round++) {
    for (let k = 0; k < tools.length; k++) {
      const i = (round + k) % tools.length;
      times[i]!.push(await timed(tools[i]!.fn));
    }
    process.stderr.write(`round ${round + 1}/${RUNS} done\n`);
  }

  const widths = [36, 4, 9, 7];
  console.log(`\n${row(["tool", "runs", "median ms", "min ms"], widths)}`);
  tools.forEach((tool, i) => console.log(row([tool.name, String(RUNS), median(times[i]!), min(times[i]!)], widths)));
  const [gen, par, seq] = times as [number[], number[], number[], number[]];
  const ratio = (a: number[], b: number[]) =>
    `${(median(a) / median(b)).toFixed(2)} (median), ${(min(a) / min(b)).toFixed(2)} (min)`;
  console.log(`\nratio mcp-gen / tjs parallel:   ${ratio(gen, par)}`);
  console.log(`ratio mcp-gen / tjs sequential: ${ratio(gen, seq)}`);
  console.log(
    `target (mcp-gen <= 0.35x tjs as upstream runs it, format cache off): ${median(gen) <= 0.35 * median(par) ? "met" : "MISSED"}`,
  );
  console.log(`last generate: ${generateSummary}`);

  // The tjs side must really produce upstream's schema.json, or the comparison means nothing.
  const upstream = (r: string) => join(SPEC_DIR, r, "schema.json");
  const comparable = revisions.filter((r) => existsSync(upstream(r)));
  const same = comparable.filter(
    (r) => readFileSync(upstream(r), "utf8").trim() === readFileSync(join(out, `${r}.json`), "utf8").trim(),
  );
  console.log(`tjs output identical to upstream schema.json: ${same.length}/${comparable.length}`);
}

async function breakdown(): Promise<void> {
  const names = [
    "node + module start-up (mcp-gen --help)",
    "parse 6, one shared ModelLoader",
    "parse 6, a fresh ModelLoader each",
    "emit 6 (templates, no prettier)",
    "prettier first call (loads its TS parser)",
    "format 6 (emitRevision - emit)",
  ];
  const passes: number[][] = [];
  for (let pass = 0; pass < RUNS; pass++) {
    const startup = await timed(() => run(process.execPath, [CLI, "--help"], { cwd: ROOT }));
    const loader = new ModelLoader(table);
    let started = performance.now();
    const models = revisions.map((r) => loader.load(r, { specDir: SPEC_DIR }).model);
    const shared = performance.now() - started;

    started = performance.now();
    for (const r of revisions) new ModelLoader(table).load(r, { specDir: SPEC_DIR });
    const fresh = performance.now() - started;

    const envs = revisions.map((r) => emitEnv(table, r));
    // prettier loads its plugins on the first format() call; time that apart from the real work.
    const firstFormat = await timed(() => formatTypeScript("export const a = 1;\n", "warm-up.ts"));
    started = performance.now();
    models.forEach((m, i) => ARTIFACTS.forEach((a) => a.emit(m, envs[i]!)));
    const emit = performance.now() - started;

    started = performance.now();
    for (const [i, m] of models.entries()) await emitRevision(m, envs[i]!);
    const emitAndFormat = performance.now() - started;
    passes.push([startup, shared, fresh, emit, firstFormat, emitAndFormat - emit]);
  }
  const widths = [40, 10, 14];
  console.log(`\nmcp-gen breakdown, in process (${RUNS} passes)`);
  console.log(row(["step", "pass 1 ms", "median ms"], widths));
  names.forEach((name, i) => console.log(row([name, passes[0]![i]!, median(passes.map((p) => p[i]!))], widths)));
}

async function main(): Promise<void> {
  const missing = revisions.filter((r) => !existsSync(join(SPEC_DIR, r, "schema.ts")));
  if (missing.length > 0) {
    console.error(`bench: no schema.ts for ${missing.join(", ")} under ${SPEC_DIR}; set MCP_GEN_SPEC_DIR`);
    process.exitCode = 2;
    return;
  }
  if (!existsSync(CLI)) {
    console.error(`bench: ${CLI} missing; run \`npm run build\` (npm run bench does)`);
    process.exitCode = 2;
    return;
  }
  out = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB`;
  console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), ${memory}`);
  console.log(`spec dir ${SPEC_DIR}; tjs output in ${out}`);
  try {
    await sideBySide();
    await breakdown();
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(formatCache, { recursive: true, force: true });
  }
}

await main();

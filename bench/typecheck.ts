// Benchmark: what vendoring costs the compiler. `tsc --noEmit` of a fresh project that vendors one
// revision (`mcp-gen --rev 2025-11-25 --out src/mcp`) against the same project written on the
// official SDK v2 (@modelcontextprotocol/server 2.4.0 with zod, as its documentation writes a
// server), both a stdio server with one tool, in one run.
//
//   npm run bench:typecheck      (part of `npm run bench`)
//
// Environment:
//   BENCH_RUNS   timed runs of each project and setting (default 5); medians, ranges printed too
//
// Each project is compiled with the TypeScript this repository pins, strict, `module: nodenext`,
// once with `skipLibCheck: false` (every declaration file checked: the SDK's and zod's, our whole
// vendored tree, which is source) and once with `skipLibCheck: true` (what most projects set: the
// SDK's .d.ts skipped, our vendored .ts still checked, as it is the project's own source). The SDK
// project reaches node_modules through a symlink to this repository's. Runs alternate between the
// two projects. Timings are never asserted anywhere.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { paths } from "../generators/paths.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const REVISION = "2025-11-25";
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-typecheck-"));
const tsc = join(paths.root, "node_modules", "typescript", "bin", "tsc");

const OURS = `import { createMcpServer } from "./mcp/index.js";
import { StdioServerTransport } from "./mcp/runtime/stdio.js";

const server = createMcpServer({ serverInfo: { name: "weather", version: "1.0.0" } });
server.registerTool(
  "forecast",
  {
    description: "The forecast for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  ({ city }) => ({ content: [{ type: "text", text: \`Sunny in \${city}\` }] }),
);
await server.connect(new StdioServerTransport());
`;

const SDK = `import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "forecast",
  { description: "The forecast for a city", inputSchema: z.object({ city: z.string() }) },
  ({ city }) => ({ content: [{ type: "text", text: \`Sunny in \${city}\` }] }),
);
await server.connect(new StdioServerTransport());
`;

interface Project {
  readonly name: string;
  readonly dir: string;
}

/** A project folder: package.json (ESM), src/main.ts and a tsconfig per setting. */
function project(name: string, main: string): Project {
  const dir = join(work, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  writeFileSync(join(dir, "src", "main.ts"), main);
  for (const skipLibCheck of [false, true]) {
    const compilerOptions = {
      strict: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      noEmit: true,
      skipLibCheck,
      types: ["node"],
      typeRoots: [join(paths.root, "node_modules", "@types")],
    };
    writeFileSync(join(dir, `tsconfig.${skipLibCheck}.json`), JSON.stringify({ compilerOptions, include: ["src"] }));
  }
  return { name, dir };
}

/** One `tsc -p`: its wall time in ms; a project that does not compile ends the benchmark. */
function compile(p: Project, skipLibCheck: boolean): number {
  const started = performance.now();
  try {
    execFileSync(process.execPath, [tsc, "-p", join(p.dir, `tsconfig.${skipLibCheck}.json`)], { stdio: "pipe" });
  } catch (error) {
    const out = error as { stdout?: Buffer };
    throw new Error(`${p.name} does not compile:\n${out.stdout?.toString() ?? String(error)}`);
  }
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number) => `${Math.round(x).toLocaleString("en")} ms`;

try {
  const ours = project("vendored", OURS);
  execFileSync(
    process.execPath,
    [
      join(paths.root, "node_modules", "tsx", "dist", "cli.mjs"),
      join(paths.root, "generators", "cli", "main.ts"),
    ].concat(["--rev", REVISION, "--out", join(ours.dir, "src", "mcp"), "--quiet"]),
    { stdio: "pipe" },
  );
  const sdk = project("sdk-v2", SDK);
  symlinkSync(join(paths.root, "node_modules"), join(sdk.dir, "node_modules"), "dir");
  console.log(
    `tsc --noEmit, a stdio server with one tool: vendored ${REVISION} vs SDK v2 + zod; ${RUNS} runs each; ` +
      `${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), load ${loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
  );
  for (const skipLibCheck of [false, true]) {
    // One untimed run each: the file cache warm for both.
    compile(ours, skipLibCheck);
    compile(sdk, skipLibCheck);
    const times: { [name: string]: number[] } = { vendored: [], "sdk-v2": [] };
    for (let run = 0; run < RUNS; run++) {
      for (const p of run % 2 === 0 ? [ours, sdk] : [sdk, ours]) times[p.name]?.push(compile(p, skipLibCheck));
    }
    const [a, b] = [times["vendored"] ?? [], times["sdk-v2"] ?? []];
    console.log(
      `skipLibCheck ${skipLibCheck}: vendored ${ms(median(a))} (${ms(Math.min(...a))}–${ms(Math.max(...a))}), ` +
        `SDK v2 ${ms(median(b))} (${ms(Math.min(...b))}–${ms(Math.max(...b))}): ratio ${(median(a) / median(b)).toFixed(2)}×`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

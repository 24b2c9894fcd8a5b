// V8's optimizing compiler, tuned for a generating run: a few seconds that call much code (the
// TypeScript checker, the emitters, prettier's printer) for a short while each. With V8's default
// budget a function is sent to the optimizing compiler after little use, and a CPU profile of a cold
// `mcp-gen generate` showed its background threads using about 4 s of CPU, as much as the
// run's own threads, for code that then ran briefly. Eight times the budget optimizes only what stays
// hot: 25-35% less CPU for the run, same output (BENCHMARKS.md, "Generation").
import { setFlagsFromString } from "node:v8";

/** V8's default (Node 20) is 66 KiB of bytecode executed. */
const BUDGET = "--interrupt-budget=524288";

/** Raises V8's budget for optimizing a function, for this process and its workers, unless node was given one. */
export function tuneCompilerForGenerating(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (given.some((flag) => flag.startsWith("--interrupt-budget"))) return;
  setFlagsFromString(BUDGET);
}

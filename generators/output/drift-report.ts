// How drift is printed on stdout: a unified diff per file, then one line per file and what fixes it.
import { createTwoFilesPatch } from "diff";
import type { Drift } from "../emit/write-tree.js";

const MAX_DIFF_LINES = 120;

export function printDrift(drift: Drift[], print: (line: string) => void, label: string, fix: string): void {
  for (const d of drift) print(renderDrift(d));
  print(`${label}: ${drift.length} file(s) differ from what the generator produces now:`);
  for (const d of drift) print(`  ${d.status.padEnd(7)} ${d.path}`);
  print(fix);
}

function renderDrift(d: Drift): string {
  const patch = createTwoFilesPatch(
    `a/${d.path}`,
    `b/${d.path}`,
    d.actual ?? "",
    d.expected ?? "",
    d.status === "stale" ? "on disk, not generated" : "on disk",
    d.status === "stale" ? "" : "generated now",
  );
  const lines = patch.split("\n");
  if (lines.length <= MAX_DIFF_LINES) return patch;
  return [...lines.slice(0, MAX_DIFF_LINES), `... (${lines.length - MAX_DIFF_LINES} more diff lines)`].join("\n");
}

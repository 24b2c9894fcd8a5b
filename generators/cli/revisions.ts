// `mcp-gen revisions`: the pinned revisions and whether their sources and models are present.
import { existsSync } from "node:fs";
import { INSTALLED, paths } from "../paths.js";
import { HashMismatchError, loadRevisionTable, locateSchema } from "../spec/revisions.js";
import type { Log } from "./build.js";

export function listRevisions(specDir: string | undefined, print: Log): number {
  const table = loadRevisionTable();
  // Installed, `mcp-gen sync` is refused, and the checked-in models are what it generates from.
  const missing = INSTALLED ? "none (the checked-in model is used)" : "missing (run `mcp-gen sync`)";
  const rows = table.revisions.map((pin) => {
    let source: string;
    try {
      const found = locateSchema(pin, specDir);
      source = found ? `${found.origin}: ${found.path}` : missing;
    } catch (error) {
      if (!(error instanceof HashMismatchError)) throw error;
      source = "sha256 MISMATCH";
    }
    return [
      pin.revision,
      pin.commit.slice(0, 12),
      pin.sha256.slice(0, 12),
      existsSync(paths.model(pin.revision)) ? "yes" : "no",
      source,
    ];
  });
  const header = ["revision", "commit", "sha256", "model", "schema.ts"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  for (const row of [header, ...rows])
    print(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  return 0;
}

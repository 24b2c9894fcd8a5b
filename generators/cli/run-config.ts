// `mcp-gen` and `mcp-gen --check` with mcp-gen.config.json: every vendored revision and every
// `tools` module it lists, regenerated or verified in order; the exit code is the worst of them.
import { EXIT } from "../errors.js";
import type { Log } from "./build.js";
import { loadConfig, type ToolsEntry } from "./config.js";
import { vendor } from "./vendor.js";

export interface RunOptions {
  check?: boolean;
  force?: boolean;
}

export async function runConfig(file: string, options: RunOptions, log: Log, print: Log): Promise<number> {
  const config = loadConfig(file);
  log(`${file}: ${config.revisions.length} revision(s), ${config.tools.length} tools module(s)`);
  let worst: number = EXIT.ok;
  for (const entry of config.revisions) {
    worst = Math.max(worst, await vendor(entry.rev, entry.out, options, log, print));
  }
  if (config.tools.length > 0) {
    const { toolsCommand, toolsUpToDate } = await import("../tools/command.js");
    for (const entry of config.tools) {
      const tools = toolsOptions(entry, options);
      worst = Math.max(
        worst,
        options.check ? await toolsUpToDate(tools, log, print) : await toolsCommand(tools, log, print),
      );
    }
  }
  return worst;
}

function toolsOptions(entry: ToolsEntry, options: RunOptions) {
  const { timeout, ...rest } = entry;
  return { ...rest, format: "md" as const, timeoutMs: (timeout ?? 30) * 1000, force: options.force };
}

// Runs before `npm test` (npm's pretest): the tests read the spec sources from MCP_GEN_SPEC_DIR
// when it is set, else from the cache `mcp-gen sync` fills. Without the variable this syncs, which
// downloads only the pinned files the cache lacks (nothing once it is full), so `npm ci` and
// `npm test` are the whole set-up on a fresh clone with network.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

if (!process.env.MCP_GEN_SPEC_DIR) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsx = join(root, "node_modules", ".bin", "tsx");
  const run = spawnSync(tsx, [join(root, "generators", "cli", "main.ts"), "sync", "--quiet"], {
    cwd: root,
    stdio: "inherit",
  });
  process.exit(run.status ?? 1);
}

import { defineConfig } from "vitest/config";
import { runtimeAliases } from "./test/support/runtime-sources.js";

export default defineConfig({
  // Generated modules the tests import (`mcp-gen tools` modules) get @mcp-gen/runtime from its sources.
  resolve: { alias: runtimeAliases() },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two files at a time even on two cores (vitest's default there is one): most files wait on
    // child processes (tsc, the CLI, servers), so the suite took 11.5 minutes with one worker and
    // 8.5 with two on the same idle 2-core machine.
    maxWorkers: 2,
  },
});

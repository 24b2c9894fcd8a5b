// examples/host-chat, driven as a person would: commands typed on its stdin, its screen read back.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { fixtureServer } from "./fixtures/servers/index.js";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

it("lists the aggregated tools of a config file's servers and calls one, with a progress line", () => {
  const config = join(mkdtempSync(join(tmpdir(), "host-chat-")), "servers.json");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { old: fixtureServer("2024-11-05"), new: fixtureServer("2026-07-28") } }),
  );
  const typed = [
    "servers",
    "tools",
    'call old__slow {"ms": 50}',
    "y",
    "call new__sample",
    "y", // the tool call
    "y", // the sampling request
    "a typed completion",
    "call old__echo {}",
    "n",
    "quit",
  ];
  const run = spawnSync(process.execPath, ["--import", tsx, "examples/host-chat/main.ts", config], {
    input: typed.join("\n") + "\n",
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const screen = run.stdout;
  expect(screen).toContain("old  up  2024-11-05  fixture-2024-11-05");
  expect(screen).toContain("new  up  2026-07-28  fixture-2026-07-28");
  expect(screen).toMatch(/old__echo {2}\n[^]*new__stats {2}\n/);
  expect(screen).toContain('allow old__slow {"ms":50}? [y/N] ');
  expect(screen).toContain("… 1/2 working");
  expect(screen).toContain("slow done");
  expect(screen).toContain("allow sampling for new? [y/N] new asks the model (1 message(s)); you answer: ");
  expect(screen).toContain("sampled: a typed completion");
  expect(screen).toContain("error: tool call denied: denied by the user");
});

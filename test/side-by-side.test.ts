// docs/servers.md's side-by-side servers (examples/side-by-side/): the one on mcp-gen's registry
// and the one on the official SDK v2 answer the SDK v2 client alike over stdio, and ours is no
// longer than the SDK's, as the page says.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const lines = (file: string) => readFileSync(resolve("examples/side-by-side", file), "utf8").split("\n").length - 1;

/** What a client sees of one server: its lists and an answer of each kind. */
async function observe(file: string) {
  const client = new Client({ name: "side-by-side", version: "1" }, { versionNegotiation: { mode: "legacy" } });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", tsx, resolve("examples/side-by-side", file)],
      stderr: "pipe",
    }),
  );
  const tools = (await client.listTools()).tools.map(({ name, inputSchema, outputSchema }) => ({
    name,
    inputSchema,
    outputSchema,
  }));
  return {
    tools,
    templates: (await client.listResourceTemplates()).resourceTemplates,
    prompts: (await client.listPrompts()).prompts,
    add: await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }),
    forecast: await client.callTool({ name: "forecast", arguments: { city: "Oslo" } }),
    wrong: (await client.callTool({ name: "add", arguments: { a: 2 } })).isError,
    read: await client.readResource({ uri: "notes:///todo" }),
    completed: (
      await client.complete({
        ref: { type: "ref/resource", uri: "notes:///{name}" },
        argument: { name: "name", value: "i" },
      })
    ).completion.values,
    prompt: await client.getPrompt({ name: "review", arguments: { code: "x = 1" } }),
  };
}

describe("docs/servers.md side by side", () => {
  it("the two servers answer the SDK v2 client alike, and ours has no more lines", async () => {
    const [ours, sdk] = await Promise.all([observe("mcp-gen.ts"), observe("sdk-v2.ts")]);
    // The SDK lists its zod output schema with $schema; ours leaves the dialect key out.
    const { $schema: _dialect, ...sdkOutput } = sdk.tools[1]?.outputSchema ?? {};
    expect(ours.tools[1]?.outputSchema).toEqual(sdkOutput);
    expect(ours.tools.map((t) => t.name)).toEqual(sdk.tools.map((t) => t.name));
    expect(ours.templates).toEqual(sdk.templates);
    expect(ours.prompts).toEqual(sdk.prompts);
    expect(ours.add).toEqual(sdk.add);
    expect(ours.forecast).toEqual(sdk.forecast);
    expect(ours.wrong).toBe(true);
    expect(sdk.wrong).toBe(true);
    expect(ours.read).toEqual(sdk.read);
    expect(ours.completed).toEqual(["ideas"]);
    expect(sdk.completed).toEqual(["ideas"]);
    expect(ours.prompt).toEqual(sdk.prompt);
    expect([lines("mcp-gen.ts"), lines("sdk-v2.ts")]).toEqual([37, 43]);
  });
});

// A real server from the 2024-11-05 era: `@modelcontextprotocol/server-everything@0.6.2`, a
// dependency of the local package test/fixtures/peers (so its bin does not shadow the current
// server's in node_modules/.bin); it pins the official SDK 1.0.1, which speaks only 2024-11-05.
// Spawned over stdio, no network. The generated 2024-11-05 client, with every message checked by
// the generated validators, does a whole session with it; the host and `mcp-gen tools` negotiate
// down to 2024-11-05 with it. This is the peer for our oldest revision that we did not write.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, REVISION, type Client, type CreateMessageRequest } from "../generated/2024-11-05/index.js";
import { createHost } from "../host/index.js";
import type { JsonObject } from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { cli, nodeCommandLine, workDir } from "./fixtures/tools/harness.js";

const require = createRequire(new URL("./fixtures/peers/package.json", import.meta.url));

function serverEntry(): string {
  const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const { bin, version } = require(manifest) as { bin: Record<string, string>; version: string };
  if (version !== "0.6.2") throw new Error(`test/fixtures/peers has server-everything ${version}, expected 0.6.2`);
  return join(dirname(manifest), Object.values(bin)[0] as string);
}

const server = { command: process.execPath, args: [serverEntry()], env: { PATH: process.env.PATH ?? "" } };

describe("the generated 2024-11-05 client against server-everything 0.6.2 (SDK 1.0.1)", () => {
  let client: Client;
  const sampled: CreateMessageRequest["params"][] = [];
  const errors: Error[] = [];

  beforeAll(async () => {
    client = createClient({
      transport: new StdioClientTransport({ ...server, stderr: "pipe", shutdownGraceMs: 300 }),
      clientInfo: { name: "mcp-gen-test", version: "1" },
      handlers: {
        createMessage: (params) => {
          sampled.push(params);
          return { role: "assistant", content: { type: "text", text: "a sampled answer" }, model: "test-model" };
        },
      },
      onError: (error) => errors.push(error),
    });
    await client.connect();
  });

  afterAll(() => client?.close());

  it("completes the handshake at 2024-11-05", () => {
    // The client throws ProtocolVersionError when the server answers with another revision.
    expect(REVISION).toBe("2024-11-05");
    expect(client.server.serverInfo).toMatchObject({ name: "example-servers/everything", version: "1.0.0" });
    expect(client.server.serverCapabilities).toMatchObject({ resources: { subscribe: true }, logging: {} });
  });

  it("lists its tools, prompts and all resources (ten pages), each result valid for 2024-11-05", async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add",
      "longRunningOperation",
      "sampleLLM",
      "getTinyImage",
    ]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "simple_prompt",
      "complex_prompt",
    ]);
    const pages = [];
    for await (const page of client.listResourcesPages()) pages.push(page.resources.length);
    expect(pages).toEqual(Array(10).fill(10));
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "test://static/resource/{id}",
    ]);
  });

  it("calls every tool, answering its sampling request and following its progress", async () => {
    const text = (result: { content: unknown[] }) =>
      result.content.map((part) => (part as { text?: string; type: string }).text ?? part).join("\n");
    expect(text(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    expect(text(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("The sum of 2 and 3 is 5.");

    const progress: JsonObject[] = [];
    const long = await client.callTool(
      { name: "longRunningOperation", arguments: { duration: 0.2, steps: 2 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(text(long)).toMatch(/^Long running operation completed\. Duration: 0\.2 seconds, Steps: 2\./);
    expect(progress.map((p) => [p["progress"], p["total"]])).toEqual([
      [1, 2],
      [2, 2],
    ]);

    // This server version prints the whole sampling result object into its text ("[object Object]").
    expect(text(await client.callTool({ name: "sampleLLM", arguments: { prompt: "say hi", maxTokens: 10 } }))).toBe(
      "LLM sampling result: [object Object]",
    );
    expect(sampled.at(-1)).toMatchObject({ maxTokens: 10, messages: [{ role: "user" }] });

    const image = await client.callTool({ name: "getTinyImage", arguments: {} });
    const png = image.content.find((part) => part.type === "image");
    expect(png).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from((png as { data: string }).data, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("reads text and blob resources, gets prompts with arguments, sets the log level", async () => {
    const text = await client.readResource({ uri: "test://static/resource/1" });
    expect(text.contents[0]).toMatchObject({ uri: "test://static/resource/1", mimeType: "text/plain" });
    const blob = await client.readResource({ uri: "test://static/resource/2" });
    expect(blob.contents[0]).toHaveProperty("blob");
    const prompt = await client.getPrompt({
      name: "complex_prompt",
      arguments: { temperature: "0.5", style: "terse" },
    });
    expect(prompt.messages.map((m) => m.content.type)).toEqual(["text", "text", "image"]);
    expect(await client.setLevel({ level: "debug" })).toEqual({});
  });

  it("gets a typed error for an unknown tool and for an unknown resource, and the session goes on", async () => {
    await expect(client.callTool({ name: "no-such-tool", arguments: {} })).rejects.toMatchObject({
      message: expect.stringContaining("no-such-tool"),
    });
    await expect(client.readResource({ uri: "test://static/resource/1000" })).rejects.toThrow();
    expect(await client.ping()).toEqual({});
  });

  it("saw nothing from the server that its 2024-11-05 validators reject", () => {
    expect(errors).toEqual([]);
  });
});

describe("negotiating down to 2024-11-05 with server-everything 0.6.2", () => {
  const work = workDir("everything-2024");
  afterAll(() => work.remove());

  it("the host connects it at 2024-11-05 and routes a call to it", async () => {
    const host = createHost({ servers: { mcpServers: { old: server } }, shutdownGraceMs: 300 });
    try {
      await host.connect();
      expect(host.servers.map((s) => [s.name, s.state, s.revision])).toEqual([["old", "up", "2024-11-05"]]);
      const result = await host.callTool("old__echo", { message: "routed" });
      expect(result.content).toEqual([{ type: "text", text: "Echo: routed" }]);
    } finally {
      await host.close();
    }
  });

  it("mcp-gen tools generates its wrappers at 2024-11-05", async () => {
    const out = join(work.dir, "everything-2024.ts");
    const listing = join(work.dir, "everything-2024.json");
    const result = await cli(["tools", "--stdio", nodeCommandLine(serverEntry()), "--out", out, "--save", listing]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/: 5 tools, 2 prompts \(protocol 2024-11-05\)/);
    expect(JSON.parse(readFileSync(listing, "utf8"))).toMatchObject({ protocolVersion: "2024-11-05" });
    expect(readFileSync(out, "utf8")).toContain("longRunningOperation(");
  });
});

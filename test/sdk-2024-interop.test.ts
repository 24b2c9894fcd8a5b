// The official SDK as 2024-11-05 hosts shipped it (@modelcontextprotocol/sdk 1.0.1, the version
// server-everything 0.6.2 pins; installed in test/fixtures/peers) drives a generated 2024-11-05
// server over its own in-memory transport: the handshake, tools with progress and a sampling
// request back to the client, resources, prompts, logging. Its zod schemas check every answer.
// (The other direction, our 2024-11-05 client against an SDK 1.0.1 server, is
// test/everything-2024.test.ts.)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createServer } from "../generated/2024-11-05/index.js";

const require = createRequire(new URL("./fixtures/peers/package.json", import.meta.url));

/** A module of SDK 1.0.1 by its dist path; untyped here (its types are not this project's). */
async function sdk(path: string): Promise<Record<string, any>> {
  // The package maps every subpath to dist/, package.json included, so find dist/ through a module.
  const dist = dirname(require.resolve("@modelcontextprotocol/sdk/types.js"));
  const { version } = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as { version: string };
  if (version !== "1.0.1") throw new Error(`test/fixtures/peers resolved SDK ${version}, expected 1.0.1`);
  return import(pathToFileURL(join(dist, path)).href);
}

async function connect() {
  const [{ Client }, { InMemoryTransport }, types] = await Promise.all([
    sdk("client/index.js"),
    sdk("inMemory.js"),
    sdk("types.js"),
  ]);
  const server = createServer({
    serverInfo: { name: "generated-2024", version: "1.0.0" },
    capabilities: { logging: {} },
    handlers: {
      listTools: () => ({
        tools: [
          { name: "echo", inputSchema: { type: "object" as const, properties: { text: { type: "string" } } } },
          { name: "ask", inputSchema: { type: "object" as const } },
        ],
      }),
      callTool: async (params, context) => {
        if (params.name === "echo")
          return { content: [{ type: "text" as const, text: String(params.arguments?.["text"]) }] };
        await context.progress({ progress: 1, total: 2 });
        const sampled = await context.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
          maxTokens: 5,
        });
        await context.progress({ progress: 2, total: 2 });
        return {
          content: [{ type: "text" as const, text: sampled.content.type === "text" ? sampled.content.text : "?" }],
        };
      },
      listResources: () => ({ resources: [{ uri: "file:///readme.txt", name: "readme", mimeType: "text/plain" }] }),
      readResource: (params) => ({
        contents: [{ uri: params.uri, mimeType: "text/plain", text: `contents of ${params.uri}` }],
      }),
      listPrompts: () => ({ prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }] }),
      getPrompt: (params) => ({
        messages: [
          { role: "user" as const, content: { type: "text" as const, text: `Hello, ${params.arguments?.["who"]}` } },
        ],
      }),
      setLevel: async (params, context) => {
        await context.notify("notifications/message", { level: "info", data: `level ${params.level}` });
        return {};
      },
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "sdk-1.0.1", version: "1.0.1" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(types.CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "4" },
    model: "test-model",
  }));
  await client.connect(clientSide);
  return { client, server, types };
}

describe("the official SDK 1.0.1 client drives a generated 2024-11-05 server", () => {
  it("completes the handshake and reads the server's info and capabilities", async () => {
    const { client, server } = await connect();
    expect(server.client).toMatchObject({ protocolVersion: "2024-11-05", clientInfo: { name: "sdk-1.0.1" } });
    expect(client.getServerVersion()).toEqual({ name: "generated-2024", version: "1.0.0" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
    await client.close();
  });

  it("serves tools, with progress and a sampling request the SDK client answers mid-call", async () => {
    const { client } = await connect();
    expect((await client.listTools()).tools.map((tool: { name: string }) => tool.name)).toEqual(["echo", "ask"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    const progress: number[] = [];
    const result = await client.callTool({ name: "ask" }, undefined, {
      onprogress: (p: { progress: number }) => progress.push(p.progress),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "4" }] });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  it("serves resources, prompts and logging", async () => {
    const { client, types } = await connect();
    expect((await client.listResources()).resources).toEqual([
      { uri: "file:///readme.txt", name: "readme", mimeType: "text/plain" },
    ]);
    expect(await client.readResource({ uri: "file:///readme.txt" })).toEqual({
      contents: [{ uri: "file:///readme.txt", mimeType: "text/plain", text: "contents of file:///readme.txt" }],
    });
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada" } }],
    });
    const logged = new Promise((resolve) =>
      client.setNotificationHandler(types.LoggingMessageNotificationSchema, (n: { params: unknown }) =>
        resolve(n.params),
      ),
    );
    expect(await client.setLoggingLevel("debug")).toEqual({});
    expect(await logged).toEqual({ level: "info", data: "level debug" });
    await client.close();
  });

  it("refuses invalid params with -32602, which the SDK client throws", async () => {
    const { client } = await connect();
    const { EmptyResultSchema } = await sdk("types.js");
    const bad = client.request({ method: "resources/read", params: { uri: 42 } }, EmptyResultSchema);
    await expect(bad).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

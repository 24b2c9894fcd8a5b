// Generated servers and clients against their peer, the official TypeScript SDK
// (@modelcontextprotocol/sdk 1.32.2), over its in-memory transport: servers of all four handshake
// revisions (the SDK client goes on with 2024-11-05 and 2025-03-26 when our server answers with
// them), and the 2024-11-05 server against SDK 1.0.1's client, what hosts of that revision shipped.
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RpcError } from "../runtime/index.js";
import * as rev1105 from "../generated/2024-11-05/index.js";
import * as rev0326 from "../generated/2025-03-26/index.js";
import * as rev0618 from "../generated/2025-06-18/index.js";
import * as rev1125 from "../generated/2025-11-25/index.js";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Records what the server saw, so tests can assert on it. */
interface Seen {
  level?: string;
  cancelled: Promise<string>;
  subscribed: string[];
}

/** Handlers valid for both 2025-06-18 and 2025-11-25 (checked against each revision's ServerHandlers). */
function handlers(seen: Seen, onCancel: (reason: string) => void) {
  return {
    listTools: () => ({
      tools: [
        { name: "echo", inputSchema: { type: "object" as const, properties: { text: { type: "string" } } } },
        { name: "pixel", inputSchema: { type: "object" as const } },
        {
          name: "weather",
          inputSchema: { type: "object" as const },
          outputSchema: { type: "object" as const, properties: { celsius: { type: "number" } }, required: ["celsius"] },
        },
        { name: "ask", inputSchema: { type: "object" as const } },
        { name: "slow", inputSchema: { type: "object" as const } },
      ],
    }),
    callTool: async (
      params: { name: string; arguments?: { [key: string]: unknown } },
      context: rev1125.RequestContext & rev0618.RequestContext,
    ) => {
      switch (params.name) {
        case "echo":
          return { content: [{ type: "text" as const, text: String(params.arguments?.text) }] };
        case "pixel":
          return { content: [{ type: "image" as const, data: PIXEL, mimeType: "image/png" }] };
        case "weather":
          return { content: [{ type: "text" as const, text: "21" }], structuredContent: { celsius: 21 } };
        case "ask": {
          const sampled = await context.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
            maxTokens: 5,
          });
          const answer = await context.elicit({
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
          const text =
            sampled.content && !Array.isArray(sampled.content) && sampled.content.type === "text"
              ? sampled.content.text
              : "?";
          return {
            content: [{ type: "text" as const, text: `${text} / ${answer.action} ${JSON.stringify(answer.content)}` }],
          };
        }
        case "slow":
          for (let step = 1; step <= 3; step++)
            await context.progress({ progress: step, total: 10, message: `step ${step}` });
          // The cancellation may already have arrived while the last progress was being sent.
          if (!context.signal.aborted)
            await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
          onCancel(String(context.signal.reason));
          return { content: [] };
        default:
          throw new RpcError(-32602, `unknown tool ${params.name}`);
      }
    },
    listResources: () => ({ resources: [{ uri: "file:///readme.txt", name: "readme", mimeType: "text/plain" }] }),
    listResourceTemplates: () => ({ resourceTemplates: [{ uriTemplate: "file:///notes/{id}", name: "note" }] }),
    readResource: (params: { uri: string }) => ({
      contents: params.uri.endsWith(".bin")
        ? [{ uri: params.uri, blob: "AAEC", mimeType: "application/octet-stream" }]
        : [{ uri: params.uri, text: `contents of ${params.uri}`, mimeType: "text/plain" }],
    }),
    subscribe: (params: { uri: string }) => {
      seen.subscribed.push(params.uri);
      return {};
    },
    unsubscribe: () => ({}),
    listPrompts: () => ({ prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }] }),
    getPrompt: (params: { name: string; arguments?: { [key: string]: string } }) => ({
      messages: [
        { role: "user" as const, content: { type: "text" as const, text: `Hello, ${params.arguments?.who}` } },
      ],
    }),
    complete: (params: { argument: { name: string; value: string } }) => ({
      completion: { values: ["Alice", "Albert"].filter((v) => v.startsWith(params.argument.value)), hasMore: false },
    }),
    setLevel: async (params: { level: string }, context: rev1125.RequestContext & rev0618.RequestContext) => {
      seen.level = params.level;
      await context.notify("notifications/message", {
        level: "info",
        logger: "test",
        data: `level is ${params.level}`,
      });
      return {};
    },
  };
}

describe.each([
  ["2025-06-18", rev0618.createServer],
  ["2025-11-25", rev1125.createServer],
] as const)("a generated %s server answers the official SDK client", (revision, createServer) => {
  async function connect() {
    let onCancel: (reason: string) => void = () => {};
    const seen: Seen = { cancelled: new Promise((resolve) => (onCancel = resolve)), subscribed: [] };
    const server = createServer({
      serverInfo: { name: "generated", version: "1.0.0" },
      handlers: handlers(seen, (reason) => onCancel(reason)),
      capabilities: { logging: {}, resources: { subscribe: true } },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new SdkClient(
      { name: "sdk", version: "1.0.0" },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "4" },
      model: "test-model",
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(clientSide);
    return { client, server, seen };
  }

  it("negotiates the revision, declares capabilities from its handlers, answers ping", async () => {
    const { client, server } = await connect();
    expect(client.getServerVersion()).toEqual({ name: "generated", version: "1.0.0" });
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      completions: {},
      logging: {},
      resources: { subscribe: true },
    });
    expect(server.client).toMatchObject({
      protocolVersion: expect.any(String),
      clientInfo: { name: "sdk", version: "1.0.0" },
    });
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  it("serves tools: text, image and structured content; bad calls are JSON-RPC errors", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "pixel", "weather", "ask", "slow"]);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await client.callTool({ name: "pixel" })).toEqual({
      content: [{ type: "image", data: PIXEL, mimeType: "image/png" }],
    });
    expect(await client.callTool({ name: "weather" })).toMatchObject({ structuredContent: { celsius: 21 } });
    await expect(client.callTool({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("serves resources, templates and subscriptions", async () => {
    const { client, server, seen } = await connect();
    expect((await client.listResources()).resources[0]?.uri).toBe("file:///readme.txt");
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("file:///notes/{id}");
    expect(await client.readResource({ uri: "file:///readme.txt" })).toMatchObject({
      contents: [{ text: "contents of file:///readme.txt" }],
    });
    expect(await client.readResource({ uri: "file:///x.bin" })).toMatchObject({ contents: [{ blob: "AAEC" }] });
    const updated = new Promise((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: "file:///readme.txt" });
    expect(seen.subscribed).toEqual(["file:///readme.txt"]);
    const notify = server.notify as (
      method: "notifications/resources/updated",
      params: { uri: string },
    ) => Promise<void>;
    await notify("notifications/resources/updated", { uri: "file:///readme.txt" });
    expect(await updated).toBe("file:///readme.txt");
    await client.unsubscribeResource({ uri: "file:///readme.txt" });
    await client.close();
  });

  it("serves prompts, completion and logging", async () => {
    const { client, seen } = await connect();
    expect((await client.listPrompts()).prompts[0]?.name).toBe("greet");
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toMatchObject({
      messages: [{ content: { text: "Hello, Ada" } }],
    });
    expect(
      await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "Al" } }),
    ).toMatchObject({
      completion: { values: ["Alice", "Albert"] },
    });
    const logged = new Promise((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => resolve(n.params.data)),
    );
    await client.setLoggingLevel("warning");
    expect(seen.level).toBe("warning");
    expect(await logged).toBe("level is warning");
    await client.close();
  });

  it("sends sampling and elicitation requests the SDK client answers", async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: "ask" })).toEqual({
      content: [{ type: "text", text: '4 / accept {"name":"Ada"}' }],
    });
    await client.close();
  });

  it("reports progress and stops on cancellation", async () => {
    const { client, seen } = await connect();
    const progress: number[] = [];
    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        if (p.progress === 3) controller.abort("enough");
      },
    });
    await expect(call).rejects.toThrow();
    expect(progress).toEqual([1, 2, 3]);
    expect(await seen.cancelled).toContain("enough");
    await client.close();
  });

  it("rejects invalid params with the validator's issues", async () => {
    const { client } = await connect();
    await expect(client.request({ method: "resources/read", params: { uri: 42 } }, z.object({}))).rejects.toMatchObject(
      {
        code: -32602,
        data: { issues: [{ path: "/params/uri", expected: "string" }] },
      },
    );
    await client.close();
  });
});

describe("the generated 2025-11-25 client drives an official SDK McpServer", () => {
  async function connect() {
    const server = new McpServer({ name: "sdk-server", version: "2.0.0" }, { capabilities: { logging: {} } });
    let cancelled: (reason: unknown) => void = () => {};
    const cancellation = new Promise((resolve) => (cancelled = resolve));
    server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
      content: [{ type: "text", text: String(a + b) }],
    }));
    server.registerTool("weather", { outputSchema: { celsius: z.number() } }, async () => ({
      content: [{ type: "text", text: "21" }],
      structuredContent: { celsius: 21 },
    }));
    server.registerTool("pixel", {}, async () => ({
      content: [{ type: "image", data: PIXEL, mimeType: "image/png" }],
    }));
    server.registerTool("ask", {}, async () => {
      const sampled = await server.server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
        maxTokens: 5,
      });
      const answer = await server.server.elicitInput({
        message: "name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      const text = sampled.content.type === "text" ? sampled.content.text : "?";
      return { content: [{ type: "text", text: `${text} / ${answer.action}` }] };
    });
    server.registerTool("slow", {}, async (extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= 3; step++) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: 3 },
          });
        }
      }
      if (!extra.signal.aborted) await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
      cancelled(extra.signal.reason);
      return { content: [] };
    });
    server.registerResource("readme", "file:///readme.txt", { mimeType: "text/plain" }, async (uri) => ({
      contents: [{ uri: uri.href, text: "hello" }],
    }));
    server.registerResource(
      "note",
      new ResourceTemplate("file:///notes/{id}", { list: undefined }),
      {},
      async (uri, { id }) => ({
        contents: [{ uri: uri.href, text: `note ${String(id)}` }],
      }),
    );
    server.registerPrompt(
      "greet",
      {
        argsSchema: {
          who: completable(z.string(), (value) => ["Alice", "Albert", "Bob"].filter((n) => n.startsWith(value))),
        },
      },
      ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${who}` } }] }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = rev1125.createClient({
      transport: clientSide,
      clientInfo: { name: "generated", version: "1.0.0" },
      handlers: {
        createMessage: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "m" }),
        elicit: () => ({ action: "accept", content: { name: "Ada" } }),
      },
    });
    await client.connect();
    return { client, server, cancellation };
  }

  it("negotiates 2025-11-25 and reads the server's info", async () => {
    const { client } = await connect();
    expect(client.server.serverInfo).toEqual({ name: "sdk-server", version: "2.0.0" });
    expect(client.server.serverCapabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
    await client.close();
  });

  it("lists (every page) and calls tools: text, image, structured content, typed errors", async () => {
    const { client } = await connect();
    const names: string[] = [];
    for await (const page of client.listToolsPages()) names.push(...page.tools.map((t) => t.name));
    expect(names).toEqual(["add", "weather", "pixel", "ask", "slow"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: "text", text: "5" }],
    });
    expect(await client.callTool({ name: "weather" })).toMatchObject({ structuredContent: { celsius: 21 } });
    expect((await client.callTool({ name: "pixel" })).content[0]).toMatchObject({
      type: "image",
      mimeType: "image/png",
    });
    expect(await client.callTool({ name: "add", arguments: { a: "x" } })).toMatchObject({ isError: true });
    expect(await client.callTool({ name: "nope" })).toMatchObject({ isError: true });
    await client.close();
  });

  it("answers the server's sampling and elicitation requests", async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: "ask" })).toEqual({ content: [{ type: "text", text: "4 / accept" }] });
    await client.close();
  });

  it("reads resources and templates, gets prompts with completion, sets the log level", async () => {
    const { client } = await connect();
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["file:///readme.txt"]);
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("file:///notes/{id}");
    expect(await client.readResource({ uri: "file:///notes/7" })).toMatchObject({ contents: [{ text: "note 7" }] });
    expect((await client.listPrompts()).prompts[0]?.name).toBe("greet");
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toMatchObject({
      messages: [{ content: { text: "Hello, Ada" } }],
    });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "Al" },
    });
    expect(completion.completion.values).toEqual(["Alice", "Albert"]);
    expect(await client.setLevel({ level: "debug" })).toEqual({});
    expect(await client.ping()).toEqual({});
    await expect(client.readResource({ uri: "file:///missing" })).rejects.toBeInstanceOf(RpcError);
    await client.close();
  });

  it("routes progress to onProgress and cancels with an AbortSignal", async () => {
    const { client, cancellation } = await connect();
    const controller = new AbortController();
    const progress: unknown[] = [];
    const call = client.callTool(
      { name: "slow" },
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(p.progress);
          if (p.progress === 3) controller.abort(new Error("enough"));
        },
      },
    );
    await expect(call).rejects.toThrow("enough");
    expect(progress).toEqual([1, 2, 3]);
    expect(String(await cancellation)).toContain("enough");
    await client.close();
  });
});

// The two older revisions, with the current SDK client (it offers its newest revision, our server
// answers with its own, and the SDK goes on with it) and with SDK 1.0.1, the client 2024-11-05
// hosts shipped (installed in test/fixtures/peers; it speaks 2024-11-05 only).
const require = createRequire(new URL("./fixtures/peers/package.json", import.meta.url));

/** The SDK pieces these tests use, from the current SDK or from 1.0.1 (untyped: not this project's types). */
interface SdkModules {
  Client: new (...args: any[]) => any;
  InMemoryTransport: { createLinkedPair(): [any, any] };
  CreateMessageRequestSchema: unknown;
  LoggingMessageNotificationSchema: unknown;
  EmptyResultSchema: unknown;
}

const currentSdk: SdkModules = {
  Client: SdkClient,
  InMemoryTransport,
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  EmptyResultSchema: z.object({}),
};

async function sdk101(): Promise<SdkModules> {
  // The package maps every subpath to dist/, package.json included, so find dist/ through a module.
  const dist = dirname(require.resolve("@modelcontextprotocol/sdk/types.js"));
  const { version } = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as { version: string };
  if (version !== "1.0.1") throw new Error(`test/fixtures/peers resolved SDK ${version}, expected 1.0.1`);
  const load = (path: string) => import(pathToFileURL(join(dist, path)).href);
  const [client, inMemory, types] = await Promise.all([load("client/index.js"), load("inMemory.js"), load("types.js")]);
  return { Client: client.Client, InMemoryTransport: inMemory.InMemoryTransport, ...types };
}

describe.each([
  ["2024-11-05", rev1105.createServer, "current"],
  ["2025-03-26", rev0326.createServer, "current"],
  ["2024-11-05", rev1105.createServer, "1.0.1"],
] as const)("a generated %s server answers the official SDK client (%s)", (revision, createServer, sdkVersion) => {
  async function connect() {
    const sdk = sdkVersion === "current" ? currentSdk : await sdk101();
    const server = createServer({
      serverInfo: { name: "generated", version: "1.0.0" },
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
        listResources: () => ({ resources: [{ uri: "file:///readme.txt", name: "readme" }] }),
        readResource: (params) => ({ contents: [{ uri: params.uri, text: `contents of ${params.uri}` }] }),
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
    const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
    // The current SDK client tells its transport the revision it goes on with (1.0.1 knows one).
    const negotiated: string[] = [];
    Object.assign(clientSide, { setProtocolVersion: (version: string) => negotiated.push(version) });
    await server.connect(serverSide);
    const client = new sdk.Client({ name: "sdk", version: "1.0.0" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(sdk.CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "4" },
      model: "test-model",
    }));
    await client.connect(clientSide);
    return { client, server, negotiated, sdk };
  }

  it("completes the handshake at its own revision and serves tools, resources, prompts and logging", async () => {
    const { client, server, negotiated, sdk } = await connect();
    expect(negotiated).toEqual(sdkVersion === "current" ? [revision] : []);
    expect(client.getServerVersion()).toEqual({ name: "generated", version: "1.0.0" });
    expect(server.client).toMatchObject({ clientInfo: { name: "sdk" } });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await client.readResource({ uri: "file:///readme.txt" })).toMatchObject({
      contents: [{ text: "contents of file:///readme.txt" }],
    });
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toMatchObject({
      messages: [{ content: { text: "Hello, Ada" } }],
    });
    const logged = new Promise((resolve) =>
      client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (n: { params: unknown }) =>
        resolve(n.params),
      ),
    );
    expect(await client.setLoggingLevel("debug")).toEqual({});
    expect(await logged).toEqual({ level: "info", data: "level debug" });
    await client.close();
  });

  it("sends a sampling request mid-call and reports progress", async () => {
    const { client } = await connect();
    const progress: number[] = [];
    const result = await client.callTool({ name: "ask" }, undefined, {
      onprogress: (p: { progress: number }) => progress.push(p.progress),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "4" }] });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  it("refuses invalid params with -32602, which the SDK client throws", async () => {
    const { client, sdk } = await connect();
    const bad = client.request({ method: "resources/read", params: { uri: 42 } }, sdk.EmptyResultSchema);
    await expect(bad).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

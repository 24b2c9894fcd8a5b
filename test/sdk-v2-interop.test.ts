// mcp-gen's 2026-07-28 client side against the official TypeScript SDK v2 over real loopback HTTP:
// the generated client on our stateless transport → `createMcpHandler` (mounted with
// `toNodeHandler` on node:http): discovery, tools, resources, prompts, multi round-trip input and
// subscriptions; the host and `mcp-gen tools --url` → the same server (negotiating 2026-07-28),
// and → a server that only speaks 2025-11-25 (the SDK v1's sessionful transport) on the same code
// path, which falls back to the handshake.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServer as SdkV1Server } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport as SdkV1HttpTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as z from "zod/v4";
import * as v2026 from "../generated/2026-07-28/index.js";
import { toolsCommand } from "../generators/tools/command.js";
import { createHost, type HostChange } from "../host/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** The SDK v2 handler: a fresh McpServer per request, from one factory, as the SDK serves. */
async function sdkV2Server() {
  /** Tools added after the start, which the next instance serves. */
  const added: string[] = [];
  const factory = () => {
    const mcp = new McpServer(
      { name: "sdk-v2", version: "2.4.0" },
      { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } },
    );
    mcp.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
      content: [{ type: "text", text: String(a + b) }],
    }));
    mcp.registerTool("deploy", { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm");
      if (!confirmed)
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
            }),
          },
        });
      return { content: [{ type: "text", text: `deployed to ${env}: ${JSON.stringify(confirmed)}` }] };
    });
    for (const name of added) mcp.registerTool(name, {}, () => ({ content: [] }));
    mcp.registerResource("readme", "file:///readme.md", {}, async (uri) => ({
      contents: [{ uri: uri.href, text: "# readme" }],
    }));
    mcp.registerPrompt("greet", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "hello" } }] }));
    return mcp;
  };
  const handler = createMcpHandler(factory);
  cleanups.push(() => handler.close());
  const url = await listen(createHttpServer(toNodeHandler(handler)));
  return { url, handler, added };
}

/** A server of 2025-11-25 only: the SDK v1's McpServer on its sessionful Streamable HTTP transport. */
async function sdkV1Server() {
  const transports = new Map<string, SdkV1HttpTransport>();
  const server = createHttpServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      const mcp = new SdkV1Server({ name: "sdk-v1", version: "1.0.0" });
      mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: "text", text: String(a + b) }],
      }));
      const created = new SdkV1HttpTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
      });
      await mcp.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  cleanups.push(async () => {
    for (const transport of transports.values()) await transport.close();
  });
  return { url: await listen(server) };
}

describe("the generated 2026-07-28 client drives an SDK v2 server (createMcpHandler)", () => {
  it("discovers it, lists and calls tools, reads resources, gets prompts", async () => {
    const { url } = await sdkV2Server();
    const errors: Error[] = [];
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(url),
      clientInfo: { name: "mcp-gen", version: "1.0.0" },
      onError: (error) => errors.push(error),
    });
    cleanups.push(() => client.close());
    await client.connect();
    expect(client.server.serverInfo).toEqual({ name: "sdk-v2", version: "2.4.0" });
    expect(client.server.serverCapabilities).toMatchObject({ tools: { listChanged: true }, prompts: {} });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add", "deploy"]);
    expect((await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: "text", text: "5" },
    ]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["file:///readme.md"]);
    expect((await client.readResource({ uri: "file:///readme.md" })).contents).toEqual([
      { uri: "file:///readme.md", text: "# readme" },
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await client.getPrompt({ name: "greet" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "hello" } },
    ]);
    const refused = await client.getPrompt({ name: "nope" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32602 });
    expect(errors).toEqual([]);
  });

  it("answers the server's input request and retries until the call completes", async () => {
    const { url } = await sdkV2Server();
    const asked: unknown[] = [];
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(url),
      clientInfo: { name: "mcp-gen", version: "1.0.0" },
      handlers: {
        elicit: (params) => {
          asked.push(params.message);
          return { action: "accept", content: { ok: true } };
        },
      },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const result = await client.callTool({ name: "deploy", arguments: { env: "prod" } });
    expect(result.content).toEqual([{ type: "text", text: 'deployed to prod: {"ok":true}' }]);
    expect(asked).toEqual(["Deploy to prod?"]);
  });

  it("holds a subscriptions/listen stream: the acknowledged filter, then the notifications the server publishes", async () => {
    const { url, handler } = await sdkV2Server();
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(url),
      clientInfo: { name: "mcp-gen", version: "1.0.0" },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const toolsChanged: unknown[] = [];
    const updated: unknown[] = [];
    client.on("notifications/tools/list_changed", (params) => toolsChanged.push(params));
    client.on("notifications/resources/updated", (params) => updated.push(params?.uri));
    const controller = new AbortController();
    const subscription = await client.listen(
      { toolsListChanged: true, resourceSubscriptions: ["file:///readme.md"] },
      { signal: controller.signal },
    );
    expect(subscription.notifications).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ["file:///readme.md"],
    });
    handler.notify.toolsChanged();
    handler.notify.resourceUpdated("file:///readme.md");
    handler.notify.resourceUpdated("file:///other.md");
    await until(() => toolsChanged.length === 1 && updated.length === 1);
    expect(updated).toEqual(["file:///readme.md"]);
    controller.abort();
    expect(await subscription.ended).toBeUndefined();
  });
});

describe("the host negotiates over HTTP", () => {
  it("speaks 2026-07-28 with an SDK v2 server, and hears its list changes on a subscription", async () => {
    const { url, handler, added } = await sdkV2Server();
    const host = createHost({ servers: { mcpServers: { v2: { url } } }, restart: false });
    cleanups.push(() => host.close());
    const changes: HostChange[] = [];
    host.on("change", (change) => changes.push(change));
    await host.connect();
    expect(host.servers.map((s) => [s.name, s.state, s.revision, s.transport])).toEqual([
      ["v2", "up", "2026-07-28", "streamable-http"],
    ]);
    expect(host.tools.map((tool) => tool.id)).toEqual(["v2__add", "v2__deploy"]);
    expect((await host.callTool("v2__add", { a: 40, b: 2 })).content).toEqual([{ type: "text", text: "42" }]);
    changes.length = 0;
    added.push("later");
    // The subscription may still be on its way: publish until the host has heard one.
    await until(() => {
      if (changes.length === 0) handler.notify.toolsChanged();
      return changes.length > 0;
    });
    expect(changes).toEqual([expect.objectContaining({ server: "v2", kind: "tools", added: ["v2__later"] })]);
    expect(host.tools.map((tool) => tool.id)).toEqual(["v2__add", "v2__deploy", "v2__later"]);
  });

  it("falls back to the handshake with a server that only speaks 2025-11-25, on the same code path", async () => {
    const { url } = await sdkV1Server();
    const host = createHost({ servers: { mcpServers: { v1: { url } } }, restart: false });
    cleanups.push(() => host.close());
    await host.connect();
    expect(host.servers.map((s) => [s.name, s.state, s.revision, s.transport])).toEqual([
      ["v1", "up", "2025-11-25", "streamable-http"],
    ]);
    expect((await host.callTool("v1__add", { a: 1, b: 2 })).content).toEqual([{ type: "text", text: "3" }]);
  });
});

describe("mcp-gen tools --url negotiates over HTTP", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-sdk-v2-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (url: string, name: string) => {
    const log: string[] = [];
    const out = join(dir, `${name}.ts`);
    const status = await toolsCommand(
      { url, out, format: "md", timeoutMs: 5000 },
      (line) => log.push(line),
      () => {},
    );
    return { status, log, text: readFileSync(out, "utf8") };
  };

  it("writes an SDK v2 server's tools at 2026-07-28", async () => {
    const { url } = await sdkV2Server();
    const { status, log, text } = await run(url, "v2");
    expect(status).toBe(0);
    expect(log.at(-1)).toMatch(/: 2 tools, 1 prompts? \(protocol 2026-07-28\)/);
    expect(text).toMatch(/^\s+deploy\(args: DeployInput/m);
  });

  it("writes a 2025-11-25-only server's tools at 2025-11-25", async () => {
    const { url } = await sdkV1Server();
    const { status, log } = await run(url, "v1");
    expect(status).toBe(0);
    expect(log.at(-1)).toMatch(/: 1 tools?, 0 prompts \(protocol 2025-11-25\)/);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

// Every client by default: the README's Quick start server (a 2025-11-25 registry, nothing else
// configured) answers the official SDK clients of every era, each at its own revision, over stdio
// (a child process per client, as a host starts it) and over loopback HTTP (serveStreamableHttp
// given the registry itself): SDK 1.0.1 (2024-11-05), the SDK v1 client asking for 2025-03-26 and
// 2025-06-18 (what SDK 1.12 and 1.20 offer), the latest v1 (2025-11-25) and SDK v2 (2026-07-28).
// Everything the server sent is checked as a message of the client's revision by that revision's
// validators and by ajv on its schema.json (test/support/revision-oracle.ts).
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as SdkV2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SdkV1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../generated/2025-11-25/index.js";
import { serveStreamableHttp, type StreamableHttpServer } from "../runtime/http/server/server.js";
import type { Transport } from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { problemsOf, recording, type MessageLog } from "./support/revision-oracle.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** `transport` recorded on the client's side: what the client received is what the server sent. */
function recorded(transport: Transport): { transport: Transport; log: MessageLog } {
  const seen: MessageLog = { sent: [], received: [] };
  return { transport: recording(transport, seen), log: { sent: seen.received, received: seen.sent } };
}

/** The Quick start server in a child process of its own. */
function quickStartProcess(): { transport: Transport; log: MessageLog } {
  return recorded(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "test/fixtures/quick-start/server.ts"],
      cwd: root,
      stderr: "inherit",
      shutdownGraceMs: 300,
    }),
  );
}

/** A transport whose `initialize` asks for `revision`, as an SDK of that time offers it. */
function asking(transport: Transport, revision: string): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: { protocolVersion?: string } };
    if (m.method === "initialize" && m.params) m.params.protocolVersion = revision;
    return send(message, options);
  };
  return transport;
}

/** The SDK 1.0.1 client (2024-11-05 only), from the test peers' own install. */
async function sdk101Client() {
  const require = createRequire(new URL("./fixtures/peers/package.json", import.meta.url));
  const dist = dirname(require.resolve("@modelcontextprotocol/sdk/types.js"));
  const { version } = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as { version: string };
  expect(version).toBe("1.0.1");
  const { Client } = (await import(pathToFileURL(join(dist, "client/index.js")).href)) as {
    Client: new (...args: unknown[]) => SdkClient;
  };
  return new Client({ name: "sdk-1.0.1", version: "1.0.0" }, { capabilities: {} });
}

/** Lists and calls the Quick start's tool, as each client does. */
async function greets(client: Pick<SdkClient, "listTools" | "callTool">): Promise<void> {
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greet"]);
  expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({
    content: [{ type: "text", text: "Hello, Ada!" }],
  });
}

describe("the Quick start server over stdio answers every client at its own revision", () => {
  it("SDK 1.0.1 (2024-11-05)", async () => {
    const { transport, log } = quickStartProcess();
    const client = await sdk101Client();
    await client.connect(transport);
    closing.push(() => client.close());
    await greets(client);
    expect(log.sent[0]).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
    expect(problemsOf("2024-11-05", log)).toEqual([]);
  });

  it.each(["2025-03-26", "2025-06-18", "2025-11-25"])("the SDK v1 client at %s", async (revision) => {
    const { transport, log } = quickStartProcess();
    const client = new SdkClient({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(asking(transport, revision));
    closing.push(() => client.close());
    await greets(client);
    expect(log.sent[0]).toMatchObject({ result: { protocolVersion: revision } });
    expect(problemsOf(revision, log)).toEqual([]);
  });

  it("SDK v2 (2026-07-28) over its own stdio transport", async () => {
    const { transport, log } = recorded(
      new SdkV2Stdio({
        command: process.execPath,
        args: ["--import", "tsx", "test/fixtures/quick-start/server.ts"],
        cwd: root,
      }) as unknown as Transport,
    );
    const client = new SdkV2Client({ name: "sdk-v2", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport as never);
    closing.push(() => client.close());
    await greets(client as unknown as SdkClient);
    // No handshake: every request names 2026-07-28 in its _meta.
    expect(log.received.map((m) => (m as { method?: string }).method)).not.toContain("initialize");
    expect(problemsOf("2026-07-28", log)).toEqual([]);
  });

  it("our generated 2026-07-28 client (no handshake: its first request names its version)", async () => {
    const { transport, log } = quickStartProcess();
    const r2607 = await import("../generated/2026-07-28/index.js");
    const client = r2607.createClient({ transport, clientInfo: { name: "generated", version: "1.0.0" } });
    await client.connect();
    closing.push(() => client.close());
    expect((await client.listTools({})).tools.map((tool) => tool.name)).toEqual(["greet"]);
    expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
    expect(problemsOf("2026-07-28", log)).toEqual([]);
  });
});

describe("the Quick start server over HTTP: serveStreamableHttp({ server }) with nothing else", () => {
  let http: StreamableHttpServer;
  beforeAll(async () => {
    const mcp = createMcpServer({ serverInfo: { name: "greeter", version: "1.0.0" } });
    mcp.registerTool(
      "greet",
      { inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
    );
    http = await serveStreamableHttp({ server: mcp });
    expect(mcp.versions).toEqual(["2025-11-25", "2024-11-05", "2025-03-26", "2025-06-18", "2026-07-28"]);
  });
  afterAll(() => http.close());

  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])("the SDK v1 client at %s", async (revision) => {
    const { transport, log } = recorded(asking(new SdkV1Http(new URL(http.url)) as Transport, revision));
    const client = new SdkClient({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(transport);
    closing.push(() => client.close());
    await greets(client);
    expect(log.sent[0]).toMatchObject({ result: { protocolVersion: revision } });
    expect(problemsOf(revision, log)).toEqual([]);
  });

  it("SDK v2 at 2026-07-28", async () => {
    const { transport, log } = recorded(new SdkV2Http(new URL(http.url)) as unknown as Transport);
    const client = new SdkV2Client({ name: "sdk-v2", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport as never);
    closing.push(() => client.close());
    await greets(client as unknown as SdkClient);
    expect(log.sent.length).toBeGreaterThan(0);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
  });
});

describe("restricting the revisions served", () => {
  it("revisions: [] serves the registry's own revision only; an unknown one is a clear error", () => {
    const serverInfo = { name: "only", version: "1.0.0" };
    const own = createMcpServer({ serverInfo, revisions: [] });
    expect([own.versions, own.stateless]).toEqual([["2025-11-25"], undefined]);
    expect(createMcpServer({ serverInfo, revisions: ["2025-06-18"] }).versions).toEqual(["2025-11-25", "2025-06-18"]);
    expect(() => createMcpServer({ serverInfo, revisions: ["2099-01-01"] })).toThrow(
      /revisions: 2099-01-01 not served beside 2025-11-25 \(known: 2024-11-05, 2025-03-26, 2025-06-18, 2026-07-28\)/,
    );
  });
});

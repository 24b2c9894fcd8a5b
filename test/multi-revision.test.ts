// One server, written once against 2025-11-25 with the registry, serving clients of every
// revision on one in-memory link, one stdio connection or one Streamable HTTP endpoint
// (runtime/projection): the SDK 1.0.1 client (2024-11-05), the SDK v1 client pinned to each
// session revision, the SDK v2 client at 2026-07-28, our generated clients of each revision (each
// session revision through its own generated server on the same registrations, 2026-07-28's with
// the handlers' requests to the client carried as multi round-trip input). Every message the
// server sends is checked as a message of the client's revision by that revision's generated
// validators and by ajv on the spec's schema.json (objects closed, so a field the revision lacks
// fails). One test per entry of spec/down-conversions.json; per session revision, its own rules:
// the answer to bad tool arguments its model prescribes, params and answers checked by its
// validators, batches where it has them; requests to the client it cannot express refused.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Transport } from "@modelcontextprotocol/client";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as r1105 from "../generated/2024-11-05/index.js";
import * as r0326 from "../generated/2025-03-26/index.js";
import * as r0618 from "../generated/2025-06-18/index.js";
import * as r1125 from "../generated/2025-11-25/index.js";
import * as r2607 from "../generated/2026-07-28/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { serveStreamableHttp, type StreamableHttpServer } from "../runtime/http/server/server.js";
import { createInMemoryTransportPair, type JsonRpcMessage, type RequestId, type Transport } from "../runtime/index.js";
import { createMultiRevisionServer, type Downgrade } from "../runtime/projection/index.js";
import type { SharedRegistrations } from "../runtime/server/index.js";
import { StdioServerTransport } from "../runtime/stdio.js";
import { problemsOf, recording, type MessageLog } from "./support/revision-oracle.js";
import { checkedInModel } from "./support/spec.js";

const ICONS = [{ src: "https://example.com/icon.png", mimeType: "image/png" }];
const SERVER_INFO = { name: "multi", version: "1.0.0", title: "Multi", icons: ICONS };
const CONVERSIONS = JSON.parse(readFileSync(new URL("../spec/down-conversions.json", import.meta.url), "utf8")) as {
  blocks: { id: string }[];
  fields: { id: string }[];
  whole: string[];
};

/** A tool result saying how a request to the client failed for the handler: `<code>: <message>`. */
const failed = (error: unknown) => ({
  content: [{ type: "text" as const, text: `${(error as { code?: number }).code}: ${(error as Error).message}` }],
  isError: true,
});

function handlers() {
  const mcp = r1125.createMcpServer({ serverInfo: SERVER_INFO });
  mcp.registerTool(
    "echo",
    {
      icons: ICONS,
      title: "Echo",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      },
    },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  mcp.registerTool("link", {}, () => ({
    content: [{ type: "resource_link", uri: "file:///notes.txt", name: "notes", title: "Notes" }],
  }));
  mcp.registerTool("audio", {}, () => ({ content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] }));
  mcp.registerTool(
    "forecast",
    { outputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] } },
    () => ({ content: [{ type: "text", text: "Mild" }], structuredContent: { celsius: 21 } }),
  );
  mcp.registerTool("ask", {}, async (_args, context) => {
    try {
      const answer = await context.elicit({
        message: "Which colours?",
        requestedSchema: {
          type: "object",
          properties: { colours: { type: "array", items: { type: "string", enum: ["red", "blue"] } } },
        },
      });
      return { content: [{ type: "text", text: answer.action }] };
    } catch (error) {
      return failed(error);
    }
  });
  // A titled single-select enum (2025-11-25): enum + enumNames at 2025-06-18.
  mcp.registerTool("pick", {}, async (_args, context) => {
    const answer = await context.elicit({
      message: "Which colour?",
      requestedSchema: {
        type: "object",
        properties: {
          colour: {
            type: "string",
            title: "Colour",
            oneOf: [
              { const: "r", title: "Red" },
              { const: "b", title: "Blue" },
            ],
          },
        },
        required: ["colour"],
      },
    });
    return { content: [{ type: "text", text: `${answer.action} ${String(answer.content?.["colour"])}` }] };
  });
  // Two questions, one after the other: at 2026-07-28 two rounds of input, the handler run three times.
  mcp.registerTool("interview", {}, async (_args, context) => {
    const ask = async (field: string) => {
      const answer = await context.elicit({
        message: `Your ${field}?`,
        requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
      });
      return answer.action === "accept" ? String(answer.content?.[field]) : answer.action;
    };
    const name = await ask("name");
    const city = await ask("city");
    return { content: [{ type: "text", text: `${name} from ${city}` }] };
  });
  mcp.registerTool("sample", {}, async (_args, context) => {
    const answer = await context.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
      maxTokens: 10,
    });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return { content: [{ type: "text", text: content?.type === "text" ? content.text : "?" }] };
  });
  // What 2025-11-25 added to requests to the client: URL-mode elicitation, sampling with tools.
  mcp.registerTool("visit", {}, async (_args, context) => {
    try {
      const answer = await context.elicit({
        mode: "url",
        message: "Sign in, please",
        url: "https://example.com/sign-in",
        elicitationId: "sign-in-1",
      });
      return { content: [{ type: "text", text: answer.action }] };
    } catch (error) {
      return failed(error);
    }
  });
  mcp.registerTool("delegate", {}, async (_args, context) => {
    try {
      const answer = await context.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "What's the weather?" } }],
        maxTokens: 10,
        tools: [{ name: "forecast", inputSchema: { type: "object" } }],
      });
      return { content: [{ type: "text", text: answer.model }] };
    } catch (error) {
      return failed(error);
    }
  });
  // What a 2026-07-28 client has no input request for fails for the handler.
  mcp.registerTool("pinger", {}, async (_args, context) => {
    try {
      await context.ping();
      return { content: [{ type: "text", text: "pong" }] };
    } catch (error) {
      return failed(error);
    }
  });
  mcp.registerResource("readme", "file:///readme.txt", { mimeType: "text/plain", icons: ICONS }, (uri) => ({
    contents: [{ uri, text: "hello" }],
  }));
  mcp.registerPrompt(
    "greet",
    { icons: ICONS, argsSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] } },
    ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${who}` } }] }),
  );
  return mcp;
}

const TOOLS = [
  "echo",
  "link",
  "audio",
  "forecast",
  "ask",
  "pick",
  "interview",
  "sample",
  "visit",
  "delegate",
  "pinger",
];
const downgrades: Downgrade[] = [];
const written = handlers();
const multi = createMultiRevisionServer({
  server: written,
  writtenFor: r1125.PROJECTION,
  alsoServes: [r1105, r0326, r0618].map((r) => ({
    revision: r.PROJECTION,
    create: (registrations: SharedRegistrations) => r.createMcpServer({ serverInfo: SERVER_INFO, registrations }),
  })),
  stateless: {
    revision: r2607.PROJECTION,
    create: (registrations) => {
      const mcp = r2607.createMcpServer({ serverInfo: SERVER_INFO, registrations });
      // For 2026-07-28 clients alone, written against its types: its own input keys.
      mcp.registerTool("native", {}, (_args, { input }) => {
        const answer = input.response("user_name", "elicitation/create");
        if (answer?.action !== "accept")
          return input.ask({
            user_name: {
              method: "elicitation/create",
              params: {
                message: "Name?",
                requestedSchema: { type: "object", properties: { name: { type: "string" } } },
              },
            },
          });
        return { content: [{ type: "text", text: `native ${String(answer.content?.["name"])}` }] };
      });
      return mcp;
    },
  },
  onDowngrade: (d) => downgrades.push(d),
});

/** A server-side link: the multi-revision server on one end, recorded. */
async function link(): Promise<{ client: Transport; log: MessageLog }> {
  const log: MessageLog = { sent: [], received: [] };
  const [client, server] = createInMemoryTransportPair();
  await multi.connect(recording(server, log));
  return { client, log };
}

const GENERATED = { "2024-11-05": r1105, "2025-03-26": r0326, "2025-06-18": r0618, "2025-11-25": r1125 } as const;
type Session = keyof typeof GENERATED;

/** Our generated client of `revision` (it validates what it receives too). */
async function generatedClient(revision: Session) {
  const { client: transport, log } = await link();
  const client = GENERATED[revision].createClient({
    transport,
    clientInfo: { name: "generated", version: "1.0.0" },
  });
  await client.connect();
  return { client, log };
}

/** The one field a form elicitation asks for. */
const fieldOf = (params: object) =>
  Object.keys((params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;

type AnyResult = { content?: { type: string; [k: string]: unknown }[]; [k: string]: unknown };

describe("negotiation", () => {
  it("answers each client's own revision, and the newest to a revision it does not serve", async () => {
    expect(multi.versions).toEqual(["2025-11-25", "2024-11-05", "2025-03-26", "2025-06-18", "2026-07-28"]);
    for (const [asked, answered] of <[string, string][]>[
      ["2024-11-05", "2024-11-05"],
      ["2025-06-18", "2025-06-18"],
      ["2099-01-01", "2025-11-25"],
    ]) {
      const { client, log } = await link();
      const answers: JsonRpcMessage[] = [];
      client.onmessage = (m) => answers.push(m);
      await client.start();
      await client.send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      } as JsonRpcMessage);
      await expect.poll(() => answers.length).toBe(1);
      expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion: answered } });
      expect(problemsOf(answered, log)).toEqual([]);
      await client.close();
    }
  });

  it("answers a request the client's revision lacks -32601, without reaching the handlers", async () => {
    const { client, log } = await link();
    const answers: JsonRpcMessage[] = [];
    client.onmessage = (m) => answers.push(m);
    await client.start();
    const init = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    await client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: init } as JsonRpcMessage);
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" } as JsonRpcMessage);
    await client.send({ jsonrpc: "2.0", id: 2, method: "tasks/list", params: {} } as JsonRpcMessage);
    await expect.poll(() => answers.length).toBe(2);
    // Answers come in any order (JSON-RPC): the link held all three until its first message chose the server.
    expect(answers.find((a) => (a as { id?: unknown }).id === 2)).toMatchObject({
      id: 2,
      error: { code: -32601, message: expect.stringContaining("tasks/list") },
    });
    expect(log.received.some((m) => (m as { method?: string }).method === "tasks/list")).toBe(true);
    await client.close();
  });
});

describe.each(Object.keys(GENERATED) as Session[])("our generated %s client", (revision) => {
  it(`connects, lists and calls; everything the server sent is a ${revision} message`, async () => {
    const { client, log } = await generatedClient(revision);
    expect(client.server.serverInfo).toMatchObject({ name: "multi", version: "1.0.0" });
    const { tools } = await client.listTools({});
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    expect(await client.callTool({ name: "echo", arguments: { text: "hi" } })).toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    for (const name of ["link", "audio", "forecast"]) await client.callTool({ name, arguments: {} });
    expect((await client.readResource({ uri: "file:///readme.txt" })).contents).toEqual([
      { uri: "file:///readme.txt", text: "hello" },
    ]);
    await client.listResources({});
    await client.listPrompts({});
    expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages).toHaveLength(1);
    expect(log.sent.length).toBeGreaterThanOrEqual(10);
    expect(problemsOf(revision, log)).toEqual([]);
    await client.close();
  });
});

describe("the official SDK 1.0.1 client (2024-11-05 hosts)", () => {
  it("connects, lists and calls; everything the server sent is a 2024-11-05 message", async () => {
    const require = createRequire(new URL("./fixtures/peers/package.json", import.meta.url));
    const dist = dirname(require.resolve("@modelcontextprotocol/sdk/types.js"));
    const { version } = JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as { version: string };
    expect(version).toBe("1.0.1");
    const { Client } = (await import(pathToFileURL(join(dist, "client/index.js")).href)) as {
      Client: new (...args: unknown[]) => {
        connect(t: Transport): Promise<void>;
        listTools(): Promise<{ tools: { name: string }[] }>;
        callTool(p: object): Promise<AnyResult>;
        readResource(p: object): Promise<AnyResult>;
        getPrompt(p: object): Promise<AnyResult>;
        getServerVersion(): unknown;
        close(): Promise<void>;
      };
    };
    const { client: transport, log } = await link();
    const client = new Client({ name: "sdk-1.0.1", version: "1.0.0" }, { capabilities: {} });
    await client.connect(transport);
    expect(client.getServerVersion()).toEqual({ name: "multi", version: "1.0.0" });
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    for (const name of ["echo", "link", "audio", "forecast"])
      expect((await client.callTool({ name, arguments: { text: "x" } })).content?.length).toBeGreaterThan(0);
    expect(await client.readResource({ uri: "file:///readme.txt" })).toMatchObject({ contents: [{ text: "hello" }] });
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toMatchObject({
      messages: [{ content: { text: "Hello, Ada" } }],
    });
    expect(problemsOf("2024-11-05", log)).toEqual([]);
    await client.close();
  });
});

describe("one Streamable HTTP endpoint: the SDK v1 client pinned to each session revision, 2026-07-28 clients", () => {
  let http: StreamableHttpServer;
  const sessions: MessageLog[] = [];
  /** What the stateless server sent and received, since the test began. */
  let stateless: MessageLog = { sent: [], received: [] };
  beforeAll(async () => {
    const server = multi.stateless!;
    http = await serveStreamableHttp({
      port: 0,
      server: { http: server.http, connect: (exchange) => server.connect(recording(exchange, stateless)) },
      onSession: (session) => {
        const log: MessageLog = { sent: [], received: [] };
        sessions.push(log);
        return multi.connect(recording(session, log));
      },
    });
  });
  afterAll(() => http.close());

  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const)(
    "at %s: connects, lists and calls; every message is one of its revision",
    async (revision) => {
      const transport = new StreamableHTTPClientTransport(new URL(http.url));
      // The SDK offers its newest revision; this client asks for `revision` instead.
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const m = message as { method?: string; params?: { protocolVersion?: string } };
        if (m.method === "initialize" && m.params) m.params.protocolVersion = revision;
        return send(message, options);
      };
      const client = new SdkClient({ name: "sdk-v1", version: "1.0.0" });
      await client.connect(transport);
      const log = sessions.at(-1)!;
      expect(transport.protocolVersion).toBe(revision);
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      for (const name of ["echo", "link", "audio", "forecast"])
        await client.callTool({ name, arguments: { text: "x" } });
      expect(await client.readResource({ uri: "file:///readme.txt" })).toMatchObject({ contents: [{ text: "hello" }] });
      await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
      expect(problemsOf(revision, log)).toEqual([]);
      await client.close();
    },
  );

  it("the SDK v2 client at 2026-07-28: discovers, lists and calls; elicitations are input requests; every message is a 2026-07-28 one", async () => {
    stateless = { sent: [], received: [] };
    const client = new SdkV2Client(
      { name: "sdk-v2", version: "2.4.0" },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept",
      content: { [fieldOf(request.params)]: "Ada" },
    }));
    await client.connect(new SdkV2Transport(new URL(http.url)));
    expect(client.getServerVersion()).toMatchObject({ name: "multi", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...TOOLS, "native"]);
    for (const name of ["echo", "link", "audio", "forecast"]) await client.callTool({ name, arguments: { text: "x" } });
    expect((await client.callTool({ name: "interview", arguments: {} })).content).toEqual([
      { type: "text", text: "Ada from Ada" },
    ]);
    expect(await client.readResource({ uri: "file:///readme.txt" })).toMatchObject({ contents: [{ text: "hello" }] });
    await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expect(stateless.sent.length).toBeGreaterThanOrEqual(10);
    expect(problemsOf("2026-07-28", stateless)).toEqual([]);
    await client.close();
  });

  it("our generated 2026-07-28 client on the same URL, every message a 2026-07-28 one", async () => {
    stateless = { sent: [], received: [] };
    const client = r2607.createClient({
      transport: new StreamableHttpClientTransport(http.url),
      clientInfo: { name: "generated", version: "1.0.0" },
      handlers: { elicit: (params) => ({ action: "accept", content: { [fieldOf(params)]: "Bo" } }) },
    });
    await client.connect();
    expect((await client.listTools({})).tools.map((t) => t.name)).toEqual([...TOOLS, "native"]);
    expect((await client.callTool({ name: "interview", arguments: {} })).content).toEqual([
      { type: "text", text: "Bo from Bo" },
    ]);
    expect(problemsOf("2026-07-28", stateless)).toEqual([]);
    expect(sessions.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe("2026-07-28 clients through the same registrations (first message routes a link)", () => {
  async function statelessClient() {
    const { client: transport, log } = await link();
    const answers = ["Ada", "Paris"];
    const client = r2607.createClient({
      transport,
      clientInfo: { name: "generated", version: "1.0.0" },
      handlers: {
        elicit: () => ({ action: "accept", content: { name: answers[0]!, city: answers[1]! } }),
        createMessage: (params) => ({
          role: "assistant",
          model: "echo",
          content: { type: "text", text: `hi (${JSON.stringify(params.messages[0]?.content)})` },
        }),
      },
    });
    await client.connect();
    return { client, log };
  }

  it("our generated client discovers, lists and calls; newer fields stay; every message is a 2026-07-28 one", async () => {
    const { client, log } = await statelessClient();
    expect(client.server.serverInfo).toMatchObject({ name: "multi", version: "1.0.0", title: "Multi" });
    const { tools } = await client.listTools({});
    expect(tools.map((t) => t.name)).toEqual([...TOOLS, "native"]);
    expect(tools[0]).toMatchObject({ title: "Echo", icons: ICONS });
    expect((await client.callTool({ name: "link", arguments: {} })).content).toEqual([
      { type: "resource_link", uri: "file:///notes.txt", name: "notes", title: "Notes" },
    ]);
    expect(await client.callTool({ name: "forecast", arguments: {} })).toMatchObject({
      structuredContent: { celsius: 21 },
    });
    await client.callTool({ name: "audio", arguments: {} });
    expect((await client.readResource({ uri: "file:///readme.txt" })).contents).toEqual([
      { uri: "file:///readme.txt", text: "hello" },
    ]);
    expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages).toHaveLength(1);
    expect(log.received.some((m) => (m as { method?: string }).method === "initialize")).toBe(false);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
  });

  it("a handler's elicitations are input requests: two rounds, the handler run again with the answers", async () => {
    const { client, log } = await statelessClient();
    expect((await client.callTool({ name: "interview", arguments: {} })).content).toEqual([
      { type: "text", text: "Ada from Paris" },
    ]);
    const calls = log.received.filter((m) => (m as { method?: string }).method === "tools/call");
    expect(calls).toHaveLength(3);
    const asked = log.sent.flatMap((m) => {
      const requests = (m as { result?: { inputRequests?: object } }).result?.inputRequests;
      return requests ? [requests] : [];
    });
    expect(asked).toEqual([
      { "0": { method: "elicitation/create", params: expect.objectContaining({ message: "Your name?" }) } },
      { "1": { method: "elicitation/create", params: expect.objectContaining({ message: "Your city?" }) } },
    ]);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
  });

  it("a handler's sampling request is an input request with its content whole (a union within a union)", async () => {
    const { client, log } = await statelessClient();
    expect((await client.callTool({ name: "sample", arguments: {} })).content).toEqual([
      { type: "text", text: 'hi ({"type":"text","text":"Say hi"})' },
    ]);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
  });

  it("a tool registered on the 2026-07-28 server alone: its handler as written, unseen by 2025-era clients", async () => {
    const { client, log } = await statelessClient();
    expect((await client.callTool({ name: "native", arguments: {} })).content).toEqual([
      { type: "text", text: "native Ada" },
    ]);
    expect(
      log.sent.some((m) => "user_name" in ((m as { result?: { inputRequests?: object } }).result?.inputRequests ?? {})),
    ).toBe(true);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
    const older = await generatedClient("2025-11-25");
    expect((await older.client.listTools({})).tools.map((t) => t.name)).toEqual(TOOLS);
    await expect(older.client.callTool({ name: "native", arguments: {} })).rejects.toThrow(/Unknown tool: native/);
    await older.client.close();
  });

  it("a request the revision has no input request for fails for the handler: ping", async () => {
    const { client, log } = await statelessClient();
    const result = (await client.callTool({ name: "pinger", arguments: {} })) as unknown as AnyResult;
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.["text"]).toBe("-32601: the client's protocol revision 2026-07-28 has no ping");
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
  });
});

describe("spec/down-conversions.json, one test per entry (a 2024-11-05 client)", () => {
  async function call(name: string, revision: Session = "2024-11-05") {
    const { client, log } = await generatedClient(revision);
    const result = (await client.callTool({ name, arguments: {} })) as unknown as AnyResult;
    expect(problemsOf(revision, log)).toEqual([]);
    await client.close();
    return result;
  }

  it("covers every entry below", () => {
    expect([...CONVERSIONS.blocks, ...CONVERSIONS.fields].map((c) => c.id)).toEqual([
      "resource-link-as-text",
      "audio-as-embedded-resource",
      "titled-enum-as-enum-names",
      "structured-content-as-text",
    ]);
    expect(CONVERSIONS.whole).toEqual(["Tool.inputSchema", "Tool.outputSchema"]);
  });

  it("resource-link-as-text: a resource link is text naming the resource and its URI", async () => {
    expect((await call("link")).content).toEqual([{ type: "text", text: "Notes: file:///notes.txt" }]);
    expect((await call("link", "2025-06-18")).content).toEqual([
      { type: "resource_link", uri: "file:///notes.txt", name: "notes", title: "Notes" },
    ]);
  });

  it("audio-as-embedded-resource: audio is an embedded blob resource with its MIME type", async () => {
    expect((await call("audio")).content).toEqual([
      {
        type: "resource",
        resource: { uri: "data:audio/wav;base64,UklGRg==", mimeType: "audio/wav", blob: "UklGRg==" },
      },
    ]);
    expect((await call("audio", "2025-03-26")).content).toEqual([
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    ]);
  });

  it("structured-content-as-text: structured content is kept as a JSON text block", async () => {
    const old = await call("forecast");
    expect(old).toEqual({
      content: [
        { type: "text", text: "Mild" },
        { type: "text", text: '{"celsius":21}' },
      ],
    });
    expect(await call("forecast", "2025-06-18")).toMatchObject({
      content: [{ type: "text", text: "Mild" }],
      structuredContent: { celsius: 21 },
    });
  });

  it("titled-enum-as-enum-names: a titled single-select enum asked of a 2025-06-18 client is enum + enumNames", async () => {
    const { client: transport, log } = await link();
    const asked: unknown[] = [];
    const client = r0618.createClient({
      transport,
      clientInfo: { name: "generated", version: "1.0.0" },
      capabilities: { elicitation: {} },
      handlers: {
        elicit: (params) => {
          asked.push(params.requestedSchema.properties["colour"]);
          return { action: "accept", content: { colour: "b" } };
        },
      },
    });
    await client.connect();
    expect((await client.callTool({ name: "pick", arguments: {} })).content).toEqual([
      { type: "text", text: "accept b" },
    ]);
    expect(asked).toEqual([{ type: "string", title: "Colour", enum: ["r", "b"], enumNames: ["Red", "Blue"] }]);
    expect(problemsOf("2025-06-18", log)).toEqual([]);
    expect(downgrades).toContainEqual({
      revision: "2025-06-18",
      method: "elicitation/create",
      dropped: [],
      converted: ["/requestedSchema/properties/colour titled-enum-as-enum-names"],
    });
    await client.close();
  });

  it("whole: a tool's input schema keeps every JSON Schema keyword; icons and titles the revision lacks go", async () => {
    const { client, log } = await generatedClient("2024-11-05");
    const echo = (await client.listTools({})).tools[0] as unknown as { [key: string]: unknown };
    expect(echo).toEqual({
      name: "echo",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      },
    });
    expect(client.server.serverInfo).toEqual({ name: "multi", version: "1.0.0" });
    expect(problemsOf("2024-11-05", log)).toEqual([]);
    await client.close();
    const newer = await generatedClient("2025-11-25");
    expect((await newer.client.listTools({})).tools[0]).toMatchObject({ title: "Echo", icons: ICONS });
    await newer.client.close();
    expect(downgrades.some((d) => d.revision === "2024-11-05" && d.dropped.includes("/tools/0/icons"))).toBe(true);
  });
});

describe("requests to the client that its revision cannot express", () => {
  it("fail for the handler, not on the wire: a multi-select enum to a 2025-06-18 client", async () => {
    const { client: transport, log } = await link();
    const client = r0618.createClient({
      transport,
      clientInfo: { name: "generated", version: "1.0.0" },
      handlers: { elicit: () => ({ action: "accept", content: {} }) },
    });
    await client.connect();
    const result = (await client.callTool({ name: "ask", arguments: {} })) as unknown as AnyResult;
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.["text"]).toBe(
      "-32602: the client's protocol revision 2025-06-18 cannot express this elicitation/create: " +
        "/requestedSchema/properties/colours (no type it has holds the value)",
    );
    expect(log.sent.some((m) => (m as { method?: string }).method === "elicitation/create")).toBe(false);
    expect(problemsOf("2025-06-18", log)).toEqual([]);
    await client.close();
  });
});

describe("requests to the client that 2025-06-18 cannot express fail for the handler, and nothing is sent", () => {
  async function call(name: string) {
    const { client: transport, log } = await link();
    const client = r0618.createClient({
      transport,
      clientInfo: { name: "generated", version: "1.0.0" },
      capabilities: { elicitation: {}, sampling: {} },
      handlers: {
        elicit: () => ({ action: "accept", content: {} }),
        createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "hi" } }),
      },
    });
    await client.connect();
    const result = (await client.callTool({ name, arguments: {} })) as unknown as AnyResult;
    const methods = log.sent.map((m) => (m as { method?: string }).method);
    expect(problemsOf("2025-06-18", log)).toEqual([]);
    await client.close();
    return { result, methods };
  }

  it.each([
    [
      "URL-mode elicitation",
      "visit",
      "elicitation/create",
      "/mode, /url, /elicitationId (not in its types); /requestedSchema (required by it, missing)",
    ],
    ["sampling with tools", "delegate", "sampling/createMessage", "/tools (not in its types)"],
  ])("%s", async (_what, tool, method, paths) => {
    const { result, methods } = await call(tool);
    const text = `-32602: the client's protocol revision 2025-06-18 cannot express this ${method}: ${paths}`;
    expect(result).toEqual({ isError: true, content: [{ type: "text", text }] });
    expect(methods).not.toContain(method);
  });
});

/** A client of `revision` speaking raw JSON-RPC on a link, after the handshake; the server's requests answered by `answer`. */
async function rawClient(
  revision: string,
  options: { clientInfo?: object; capabilities?: object; answer?: (request: { method: string }) => unknown } = {},
) {
  const { client, log } = await link();
  const waiting = new Map<
    unknown,
    (message: { result?: AnyResult; error?: { code: number; message: string } }) => void
  >();
  client.onmessage = (message) => {
    const m = message as { id?: RequestId; method?: string };
    if (m.method !== undefined && m.id !== undefined)
      void client.send({
        jsonrpc: "2.0",
        id: m.id,
        result: options.answer?.({ method: m.method }) ?? {},
      } as JsonRpcMessage);
    else if (m.id !== undefined) waiting.get(m.id)?.(message as never);
  };
  await client.start();
  let next = 0;
  const request = (method: string, params: object) =>
    new Promise<{ result?: AnyResult; error?: { code: number; message: string } }>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      void client.send({ jsonrpc: "2.0", id, method, params } as JsonRpcMessage);
    });
  const handshake = await request("initialize", {
    protocolVersion: revision,
    capabilities: options.capabilities ?? {},
    clientInfo: options.clientInfo ?? { name: "raw", version: "1.0.0" },
  });
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" } as JsonRpcMessage);
  return { handshake, request, log, close: () => client.close() };
}

describe.each(Object.keys(GENERATED) as Session[])("a %s client: its own revision's rules", (revision) => {
  it("tool arguments failing the schema get its revision's answer (its model's serverErrors.toolArguments)", async () => {
    const errors = checkedInModel(revision).protocol.serverErrors!;
    const { client, log } = await generatedClient(revision);
    const message = "Invalid arguments for tool echo: /text: expected string, got number";
    const call = client.callTool({ name: "echo", arguments: { text: 3 } });
    if (errors.toolArguments === "toolResult")
      expect(await call).toEqual({ isError: true, content: [{ type: "text", text: message }] });
    else await expect(call).rejects.toMatchObject({ code: errors.invalidParams, message });
    expect(problemsOf(revision, log)).toEqual([]);
    await client.close();
  });

  it("params are checked by its revision's validators: clientInfo.icons of another shape than 2025-11-25's", async () => {
    // Before 2025-11-25 `icons` is no field of Implementation: anything goes there.
    const { handshake, log, close } = await rawClient(revision, {
      clientInfo: { name: "raw", version: "1.0.0", icons: "none" },
    });
    if (revision === "2025-11-25") expect(handshake.error?.code).toBe(-32602);
    else expect(handshake.result).toMatchObject({ protocolVersion: revision });
    expect(problemsOf(revision, log)).toEqual([]);
    await close();
  });

  it("answers are checked by its revision's validators: sampling content as a list (2025-11-25's)", async () => {
    const { request, log, close } = await rawClient(revision, {
      capabilities: { sampling: {} },
      answer: () => ({ role: "assistant", model: "m", content: [{ type: "text", text: "hi" }] }),
    });
    const { result, error } = await request("tools/call", { name: "sample", arguments: {} });
    // Before 2025-11-25 the answer is invalid: the handler's createMessage fails, and so the call.
    if (revision === "2025-11-25") expect(result?.content).toEqual([{ type: "text", text: "hi" }]);
    else expect(error?.message).toMatch(/^invalid sampling\/createMessage result: \/result\/content: expected object/);
    expect(problemsOf(revision, log)).toEqual([]);
    await close();
  });
});

describe("shared change events", () => {
  it("resourceUpdated of the written-for server reaches a 2026-07-28 client's listen stream", async () => {
    const { client: transport, log } = await link();
    const client = r2607.createClient({ transport, clientInfo: { name: "generated", version: "1.0.0" } });
    await client.connect();
    const updated = new Promise<string>((done) => client.on("notifications/resources/updated", (p) => done(p.uri)));
    const stop = new AbortController();
    const subscription = await client.listen(
      { resourceSubscriptions: ["file:///readme.txt"] },
      { signal: stop.signal },
    );
    await written.resourceUpdated("file:///readme.txt");
    expect(await updated).toBe("file:///readme.txt");
    stop.abort();
    await subscription.ended;
    expect(problemsOf("2026-07-28", log)).toEqual([]);
    await client.close();
  });

  it("resourceUpdated and notify of the written-for server reach a 2024-11-05 client", async () => {
    const { client: transport, log } = await link();
    const client = r1105.createClient({ transport, clientInfo: { name: "generated", version: "1.0.0" } });
    await client.connect();
    const updated = new Promise<string>((done) => client.on("notifications/resources/updated", (p) => done(p.uri)));
    const logged = new Promise<unknown>((done) => client.on("notifications/message", (p) => done(p.data)));
    await client.subscribe({ uri: "file:///readme.txt" });
    await written.resourceUpdated("file:///readme.txt");
    expect(await updated).toBe("file:///readme.txt");
    await written.notify("notifications/message", { level: "info", data: "to everyone" });
    expect(await logged).toBe("to everyone");
    expect(problemsOf("2024-11-05", log)).toEqual([]);
    await client.close();
  });
});

describe("JSON-RPC batches over stdio, at the revisions that have them", () => {
  /** A stdio connection in this process: the lines the client writes, and those the server wrote. */
  async function stdio(revision: string) {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: unknown[] = [];
    createInterface({ input: output }).on("line", (line) => lines.push(JSON.parse(line)));
    const log: MessageLog = { sent: [], received: [] };
    await multi.connect(recording(new StdioServerTransport(input, output), log));
    const write = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
    write({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
    });
    await expect.poll(() => lines.length).toBe(1);
    write({ jsonrpc: "2.0", method: "notifications/initialized" });
    return { lines, log, write, close: () => input.end() };
  }

  const batch = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "link", arguments: {} } },
    { jsonrpc: "2.0", id: 2, method: "ping" },
  ];

  it("2025-03-26: a batch is answered by one batch, each answer at 2025-03-26", async () => {
    const { lines, log, write, close } = await stdio("2025-03-26");
    write(batch);
    await expect.poll(() => lines.length).toBe(2);
    const answers = lines[1] as { id: number; result: unknown }[];
    expect(Array.isArray(answers)).toBe(true);
    expect(answers.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Notes: file:///notes.txt" }] } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    expect(problemsOf("2025-03-26", log)).toEqual([]);
    close();
  });

  it("2025-06-18, which has none: a batch is refused", async () => {
    const { lines, log, write, close } = await stdio("2025-06-18");
    write(batch);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[1]).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    // That error has no id, which 2025-06-18's schema requires (2025-11-25 made it optional): no
    // answer to a batch is valid at 2025-06-18, so only the handshake is judged.
    expect(problemsOf("2025-06-18", { sent: log.sent.slice(0, 1), received: log.received })).toEqual([]);
    close();
  });
});

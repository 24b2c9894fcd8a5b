// The host's one view: servers at 2024-11-05, 2025-11-25 and 2026-07-28 (generated servers, in
// memory), and everything the application gets from them (lists, call results, log messages, the
// params of their sampling and elicitation requests) is a value of the view's revision, judged by
// its validators and by ajv on its schema.json with every object closed; the application's
// answers reach each server as values of the server's revision. And at compile time: the host's
// types are the view revision's, not unions across revisions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as r2024 from "../generated/2024-11-05/index.js";
import * as r0618 from "../generated/2025-06-18/index.js";
import * as r2025 from "../generated/2025-11-25/index.js";
import * as view from "../generated/2026-07-28/index.js";
import {
  createHost,
  REVISIONS,
  type CallToolResult,
  type ElicitationParams,
  type GetPromptResult,
  type Host,
  type HostLogMessage,
  type ReadResourceResult,
  type SamplingParams,
  type SamplingResult,
  type Tool,
} from "../host/index.js";
import { VIEW } from "../host/revisions.js";
import { createInMemoryTransportPair, type JsonObject, type Transport } from "../runtime/index.js";
import { toView } from "../runtime/projection/index.js";
import { recording, typeProblems, type MessageLog } from "./support/revision-oracle.js";

// ---- compile time: the view's types, exactly ----
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const exactly: [
  Equal<CallToolResult, view.CallToolResult>,
  Equal<GetPromptResult, view.GetPromptResult>,
  Equal<ReadResourceResult, view.ReadResourceResult>,
  Equal<Tool, view.Tool>,
  Equal<SamplingParams, view.CreateMessageRequestParams>,
  Equal<SamplingResult, view.CreateMessageResult>,
  Equal<ElicitationParams, view.ElicitRequestParams>,
  Equal<Omit<HostLogMessage, "server" | "revision">, view.LoggingMessageNotificationParams>,
] = [true, true, true, true, true, true, true, true];

const VIEW_REVISION = VIEW.REVISION;
const input = { type: "object" as const };
const text = (t: string) => ({ type: "text" as const, text: t });
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" } as const;

/** The fields the host adds to each item, taken off to judge the item itself. */
function itself<T extends { server: string; revision: string; id?: string }>(item: T) {
  const { id, server, revision, ...rest } = item;
  void [id, server, revision];
  return rest;
}

/** A 2024-11-05 server: it samples, asks for roots and logs in the middle of a call. */
function server2024(): r2024.Server {
  const server: r2024.Server = r2024.createServer({
    serverInfo: { name: "old", version: "1.0.0" },
    capabilities: { logging: {} },
    handlers: {
      listTools: () => ({
        tools: [
          { name: "sample", inputSchema: input },
          { name: "roots", inputSchema: input },
        ],
      }),
      callTool: async (params, context) => {
        if (params.name === "roots") {
          const { roots } = await context.listRoots();
          return { content: [text(JSON.stringify(roots))] };
        }
        await server.notify("notifications/message", { level: "info", logger: "old", data: "sampling now" });
        const answer = await context.createMessage({
          messages: [{ role: "user", content: text("hello") }],
          maxTokens: 10,
          includeContext: "thisServer",
        });
        return { content: [answer.content] };
      },
      listPrompts: () => ({ prompts: [{ name: "p", arguments: [{ name: "a", required: true }] }] }),
      getPrompt: () => ({ messages: [{ role: "user", content: text("from 2024") }] }),
      listResources: () => ({ resources: [{ uri: "file:///old.txt", name: "old.txt", mimeType: "text/plain" }] }),
      readResource: (params) => ({ contents: [{ uri: params.uri, text: "old text" }] }),
    },
  });
  return server;
}

/** A 2025-11-25 server: its tool has fields the view lacks (`execution`), it elicits, returns structured content. */
function server2025(): r2025.Server {
  return r2025.createServer({
    serverInfo: { name: "mid", version: "1.0.0" },
    handlers: {
      listTools: () => ({
        tools: [
          {
            name: "confirm",
            title: "Confirm",
            inputSchema: input,
            execution: { taskSupport: "forbidden" },
            icons: [{ src: "https://example.com/i.png" }],
          },
        ],
      }),
      callTool: async (_params, context) => {
        const answer = await context.elicit({
          message: "Go on?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
        });
        return { content: [text(answer.action)], structuredContent: { action: answer.action } };
      },
      listResources: () => ({ resources: [{ uri: "file:///mid.txt", name: "mid.txt" }] }),
      readResource: (params) => ({
        contents: [{ uri: params.uri, blob: "AAAA", mimeType: "application/octet-stream" }],
      }),
    },
  });
}

/** A 2026-07-28 server: already the view's revision. */
function server2026(): view.Server {
  return view.createServer({
    serverInfo: { name: "new", version: "1.0.0" },
    handlers: {
      listTools: () => ({ ...complete, tools: [{ name: "echo", inputSchema: input }] }),
      callTool: () => ({ resultType: "complete", content: [text("from 2026")] }),
    },
  });
}

const SERVERS: { [name: string]: () => { connect(transport: Transport): Promise<void> } } = {
  old: server2024,
  mid: server2025,
  new: server2026,
};

describe(`a host's view: everything at ${VIEW_REVISION}, whatever the server's revision`, () => {
  let host: Host;
  const logs: { [server: string]: MessageLog } = {};
  const sampled: SamplingParams[] = [];
  const elicited: ElicitationParams[] = [];
  const logged: HostLogMessage[] = [];

  beforeAll(async () => {
    host = createHost({
      servers: {
        mcpServers: Object.fromEntries(Object.keys(SERVERS).map((name) => [name, { url: `memory://${name}` }])),
      },
      restart: false,
      transport: (spec) => {
        const [hostSide, serverSide] = createInMemoryTransportPair();
        const log: MessageLog = { sent: [], received: [] };
        logs[spec.name] = log;
        void SERVERS[spec.name]!().connect(recording(serverSide, log));
        return hostSide;
      },
      consent: () => ({ action: "approve" }),
      sampling: ({ params }) => {
        sampled.push(params);
        return { role: "assistant", content: text("sampled"), model: "m", stopReason: "endTurn" };
      },
      elicitation: ({ params }) => {
        elicited.push(params);
        return { action: "accept", content: { ok: true } };
      },
      // `_meta` on a root is the view's; a 2024-11-05 root has no place for it.
      roots: [{ uri: "file:///work", name: "work", _meta: { "example.com/tag": 1 } }],
    });
    host.on("log", (message) => logged.push(message));
    await host.connect();
  });

  afterAll(() => host?.close());

  it("reaches each server at its own revision", () => {
    expect(host.servers.map(({ name, revision }) => [name, revision])).toEqual([
      ["old", "2024-11-05"],
      ["mid", "2025-11-25"],
      ["new", "2026-07-28"],
    ]);
    expect(exactly.every(Boolean)).toBe(true);
    expect(REVISIONS[0]).toBe(VIEW);
  });

  it(`lists tools, prompts and resources as ${VIEW_REVISION} values (fields it lacks dropped), each still naming its revision`, () => {
    expect(host.tools.map((tool) => [tool.id, tool.revision])).toEqual([
      ["old__sample", "2024-11-05"],
      ["old__roots", "2024-11-05"],
      ["mid__confirm", "2025-11-25"],
      ["new__echo", "2026-07-28"],
    ]);
    const lists = [
      ["ListToolsResult", { ...complete, tools: host.tools.map(itself) }],
      ["ListPromptsResult", { ...complete, prompts: host.prompts.map(itself) }],
      ["ListResourcesResult", { ...complete, resources: host.resources.map(itself) }],
    ] as const;
    for (const [name, value] of lists) expect(typeProblems(VIEW_REVISION, name, value)).toEqual([]);
    const confirm = host.tools.find((tool) => tool.id === "mid__confirm");
    expect(confirm).not.toHaveProperty("execution");
    expect(confirm).toMatchObject({ title: "Confirm", icons: [{ src: "https://example.com/i.png" }] });
    expect(host.prompts.map((p) => p.id)).toEqual(["old__p"]);
    expect(host.resources.map((r) => r.id)).toEqual(["old__file:///old.txt", "mid__file:///mid.txt"]);
  });

  it(`returns every call's result as a ${VIEW_REVISION} result, the fields it requires filled in`, async () => {
    const results = [
      ["CallToolResult", await host.callTool("new__echo")],
      ["CallToolResult", await host.callTool("old__sample")],
      ["CallToolResult", await host.callTool("mid__confirm")],
      ["GetPromptResult", await host.getPrompt("old__p", { a: "x" })],
      ["ReadResourceResult", await host.readResource("old__file:///old.txt")],
      ["ReadResourceResult", await host.readResource("mid__file:///mid.txt")],
    ] as const;
    for (const [name, result] of results) {
      expect(typeProblems(VIEW_REVISION, name, result)).toEqual([]);
      expect(result.resultType).toBe("complete");
    }
    // The caching hints a pre-2026 server never gives, read as "not cached".
    expect(results[4][1]).toMatchObject({ ttlMs: 0, cacheScope: "private", contents: [{ text: "old text" }] });
    expect(results[2][1]).toMatchObject({ structuredContent: { action: "accept" } });
  });

  it(`puts an older server's sampling request to the handler as ${VIEW_REVISION} params; the answer reaches the server valid at 2024-11-05`, async () => {
    const before = sampled.length;
    const result = await host.callTool("old__sample");
    expect(result.content).toEqual([text("sampled")]);
    const params = sampled[before];
    expect(params).toMatchObject({ maxTokens: 10, includeContext: "thisServer" });
    expect(typeProblems(VIEW_REVISION, "CreateMessageRequestParams", params)).toEqual([]);
    const answers = answersTo(logs["old"]!, "sampling/createMessage");
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(typeProblems("2024-11-05", "CreateMessageResult", answer)).toEqual([]);
  });

  it(`puts a 2025-11-25 server's elicitation to the handler as ${VIEW_REVISION} params; the answer reaches it valid at 2025-11-25`, async () => {
    await host.callTool("mid__confirm");
    expect(elicited.length).toBeGreaterThan(0);
    for (const params of elicited) expect(typeProblems(VIEW_REVISION, "ElicitRequestParams", params)).toEqual([]);
    const answers = answersTo(logs["mid"]!, "elicitation/create");
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(typeProblems("2025-11-25", "ElicitResult", answer)).toEqual([]);
  });

  it("answers roots/list as the server's revision has it: the view's `_meta` on a root is not sent to 2024-11-05", async () => {
    const result = await host.callTool("old__roots");
    expect(result.content).toEqual([text(JSON.stringify([{ uri: "file:///work", name: "work" }]))]);
    const answers = answersTo(logs["old"]!, "roots/list");
    expect(answers).toEqual([{ roots: [{ uri: "file:///work", name: "work" }] }]);
    for (const answer of answers) expect(typeProblems("2024-11-05", "ListRootsResult", answer)).toEqual([]);
  });

  it(`surfaces an older server's log message as ${VIEW_REVISION} params`, () => {
    const message = logged.find((m) => m.server === "old");
    expect(message).toMatchObject({ level: "info", data: "sampling now", revision: "2024-11-05" });
    expect(typeProblems(VIEW_REVISION, "LoggingMessageNotificationParams", itself(message!))).toEqual([]);
  });
});

/** The results a server received for the requests of `method` it sent. */
function answersTo(log: MessageLog, method: string): unknown[] {
  const ids = new Set(
    (log.sent as JsonObject[]).filter((m) => m["method"] === method && m["id"] !== undefined).map((m) => m["id"]),
  );
  return (log.received as JsonObject[]).filter((m) => ids.has(m["id"]) && "result" in m).map((m) => m["result"]);
}

describe("an older server's enum in the view", () => {
  it("keeps a 2025-06-18 enum with enumNames whole (a string schema fits it too, but without its choices)", () => {
    const params = {
      message: "Colour?",
      requestedSchema: {
        type: "object",
        properties: { colour: { type: "string", title: "Colour", enum: ["r", "b"], enumNames: ["Red", "Blue"] } },
      },
    };
    const seen = toView("request", "elicitation/create", params, r0618.PROJECTION, view.PROJECTION);
    expect(seen).toEqual({ value: params, dropped: [], converted: [], lost: [] });
    expect(typeProblems(VIEW_REVISION, "ElicitRequestParams", seen.value)).toEqual([]);
  });
});

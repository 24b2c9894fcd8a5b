// Sampling with tools (the sampling page of 2025-11-25 and later; docs/protocol-rules.md): each
// rule against a raw JSON-RPC peer that breaks it, both ways. A generated client answers a
// request that breaks one with -32602 naming the rule and never calls its handler; a generated
// server's own call that would break one fails before anything is sent; a valid tool loop passes
// untouched, `stopReason: "toolUse"` included. At 2026-07-28 (and draft) the same requests arrive
// inside an InputRequiredResult, where the client's call fails and the server answers -32021 or
// -32603.
// The official SDK v2 server, whose low-level request checks nothing of this, plays the server
// that breaks the rules; its own createMessage, the one that keeps them.
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import * as vDraft from "../generated/draft/index.js";
import { RuleViolation, type JsonObject } from "../runtime/index.js";
import { RawPeer } from "./support/raw-peer.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const user = (text: string) => ({ role: "user", content: { type: "text", text } });
const toolUse = (...ids: string[]) => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "tool_use", id, name: "get_weather", input: { city: id } })),
});
const toolResults = (...ids: string[]) => ({
  role: "user",
  content: ids.map((id) => ({ type: "tool_result", toolUseId: id, content: [{ type: "text", text: `${id}: 18°C` }] })),
});
const weatherTool = { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
const final = { role: "assistant", content: { type: "text", text: "sunny" }, model: "m", stopReason: "endTurn" };

/** A 2025-11-25 client with a sampling handler (declaring `capabilities`) behind a raw server. */
async function clientBehindRawServer(
  capabilities: JsonObject,
  answer: (params: JsonObject) => JsonObject = () => final,
) {
  const { raw, transport } = await RawPeer.open();
  const handled: JsonObject[] = [];
  const errors: Error[] = [];
  const client = v2025.createClient({
    transport,
    clientInfo: { name: "c", version: "1" },
    capabilities,
    handlers: {
      createMessage: (params) => {
        handled.push(params as unknown as JsonObject);
        return answer(params as unknown as JsonObject) as unknown as v2025.CreateMessageResult;
      },
    },
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => client.close());
  const connected = client.connect();
  const init = await raw.nextRequest("initialize");
  await raw.answer(init, {
    protocolVersion: "2025-11-25",
    capabilities: {},
    serverInfo: { name: "raw", version: "1" },
  });
  await connected;
  return { raw, client, handled, errors, declared: init["params"] as JsonObject };
}

/** What the client answers a sampling request with. */
async function sample(raw: RawPeer, params: JsonObject): Promise<JsonObject> {
  return raw.request("sampling/createMessage", { maxTokens: 100, ...params });
}

const ruleOf = (answer: JsonObject) => ((answer["error"] as JsonObject | undefined)?.["data"] as JsonObject)?.["rule"];

describe("a 2025-11-25 client receiving sampling requests", () => {
  it("declares sampling.tools only when told, and answers tools without it with -32602 (SAMPLING_TOOLS_CAPABILITY)", async () => {
    const { raw, handled, declared } = await clientBehindRawServer({});
    expect(declared["capabilities"]).toEqual({ sampling: {} });
    for (const params of [
      { messages: [user("weather?")], tools: [weatherTool] },
      { messages: [user("weather?")], toolChoice: { mode: "auto" } },
      // Tool content in the history is tool use too.
      { messages: [user("weather?"), toolUse("a"), toolResults("a")] },
    ]) {
      const answer = await sample(raw, params);
      expect(answer["error"]).toMatchObject({ code: -32602, data: { rule: "SAMPLING_TOOLS_CAPABILITY" } });
    }
    expect(handled).toEqual([]);
  });

  it("answers includeContext beyond none without sampling.context with -32602 (SAMPLING_CONTEXT_CAPABILITY)", async () => {
    const without = await clientBehindRawServer({});
    for (const includeContext of ["thisServer", "allServers"]) {
      const answer = await sample(without.raw, { messages: [user("hi")], includeContext });
      expect(ruleOf(answer)).toBe("SAMPLING_CONTEXT_CAPABILITY");
      expect(answer["error"]).toMatchObject({ code: -32602 });
    }
    expect((await sample(without.raw, { messages: [user("hi")], includeContext: "none" }))["result"]).toEqual(final);
    const withContext = await clientBehindRawServer({ sampling: { context: {} } });
    expect((await sample(withContext.raw, { messages: [user("hi")], includeContext: "thisServer" }))["result"]).toEqual(
      final,
    );
  });

  it("answers tool results mixed with other content with -32602 (SAMPLING_TOOL_RESULTS_ONLY)", async () => {
    const { raw, handled } = await clientBehindRawServer({ sampling: { tools: {} } });
    const mixed = toolResults("a");
    (mixed.content as unknown[]).push({ type: "text", text: "and also" });
    const answer = await sample(raw, { messages: [user("weather?"), toolUse("a"), mixed], tools: [weatherTool] });
    expect(answer["error"]).toMatchObject({ code: -32602, data: { rule: "SAMPLING_TOOL_RESULTS_ONLY" } });
    expect(handled).toEqual([]);
  });

  it("answers a tool use without its result, or a result for no tool use, with -32602 (SAMPLING_TOOL_RESULTS_PAIRED)", async () => {
    const { raw, handled } = await clientBehindRawServer({ sampling: { tools: {} } });
    for (const messages of [
      [user("weather?"), toolUse("a", "b"), toolResults("a")], // b unanswered
      [user("weather?"), toolUse("a"), user("never mind")], // the next message is no result
      [user("weather?"), toolUse("a")], // nothing follows
      [user("weather?"), toolUse("a"), toolResults("a", "z")], // z answers nothing
      [user("weather?"), toolResults("a")], // no tool use before it
    ]) {
      const answer = await sample(raw, { messages, tools: [weatherTool] });
      expect(answer["error"], JSON.stringify(messages)).toMatchObject({
        code: -32602,
        data: { rule: "SAMPLING_TOOL_RESULTS_PAIRED" },
      });
    }
    expect(handled).toEqual([]);
  });

  it("passes a valid tool loop through untouched: tools, toolChoice and a toolUse answer", async () => {
    const useAnswer = { role: "assistant", content: toolUse("a", "b").content, model: "m", stopReason: "toolUse" };
    const { raw, handled, errors } = await clientBehindRawServer({ sampling: { tools: {} } }, (params) =>
      (params["messages"] as unknown[]).length === 1 ? useAnswer : final,
    );
    const first = { messages: [user("weather?")], tools: [weatherTool], toolChoice: { mode: "required" } };
    expect((await sample(raw, first))["result"]).toEqual(useAnswer);
    const second = { messages: [user("weather?"), toolUse("a", "b"), toolResults("b", "a")], tools: [weatherTool] };
    expect((await sample(raw, second))["result"]).toEqual(final);
    expect(handled).toEqual([
      { maxTokens: 100, ...first },
      { maxTokens: 100, ...second },
    ]);
    expect(errors).toEqual([]);
  });

  it("does not send its handler's tool use when toolChoice is none: -32603 (SAMPLING_TOOL_CHOICE_NONE)", async () => {
    const useAnswer = { role: "assistant", content: toolUse("a").content, model: "m", stopReason: "toolUse" };
    const { raw, errors } = await clientBehindRawServer({ sampling: { tools: {} } }, () => useAnswer);
    const answer = await sample(raw, {
      messages: [user("weather?")],
      tools: [weatherTool],
      toolChoice: { mode: "none" },
    });
    expect(answer["error"]).toMatchObject({ code: -32603, data: { rule: "SAMPLING_TOOL_CHOICE_NONE" } });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["SAMPLING_TOOL_CHOICE_NONE"]);
  });

  it("does not send its handler's final answer while toolChoice requires a tool and none was used: -32603 (SAMPLING_TOOL_CHOICE_REQUIRED)", async () => {
    const useAnswer = { role: "assistant", content: toolUse("a").content, model: "m", stopReason: "toolUse" };
    const cutOff = { ...final, stopReason: "maxTokens" };
    let answer: JsonObject = final;
    const { raw, errors } = await clientBehindRawServer({ sampling: { tools: {} } }, () => answer);
    const required = { tools: [weatherTool], toolChoice: { mode: "required" } };
    const refused = await sample(raw, { messages: [user("weather?")], ...required });
    expect(refused["error"]).toMatchObject({ code: -32603, data: { rule: "SAMPLING_TOOL_CHOICE_REQUIRED" } });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["SAMPLING_TOOL_CHOICE_REQUIRED"]);
    // A tool use, a completion after the model used a tool, and a result the token limit cut off all go out.
    answer = useAnswer;
    expect((await sample(raw, { messages: [user("weather?")], ...required }))["result"]).toEqual(useAnswer);
    answer = final;
    const after = [user("weather?"), toolUse("a"), toolResults("a")];
    expect((await sample(raw, { messages: after, ...required }))["result"]).toEqual(final);
    answer = cutOff;
    expect((await sample(raw, { messages: [user("weather?")], ...required }))["result"]).toEqual(cutOff);
    expect(errors).toHaveLength(1);
  });

  it("checks nothing of a rule it was told to relax", async () => {
    const { raw, transport } = await RawPeer.open();
    const lenient = v2025.createClient({
      transport,
      clientInfo: { name: "c", version: "1" },
      handlers: { createMessage: () => final as unknown as v2025.CreateMessageResult },
      relaxRules: ["SAMPLING_CONTEXT_CAPABILITY"],
    });
    cleanups.push(() => lenient.close());
    const connected = lenient.connect();
    await raw.answer(await raw.nextRequest("initialize"), {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "raw", version: "1" },
    });
    await connected;
    expect((await sample(raw, { messages: [user("hi")], includeContext: "allServers" }))["result"]).toEqual(final);
    // The others still hold.
    expect(ruleOf(await sample(raw, { messages: [user("hi")], tools: [weatherTool] }))).toBe(
      "SAMPLING_TOOLS_CAPABILITY",
    );
  });
});

/** A 2025-11-25 server whose `ask` tool sends the sampling request the test gives, behind a raw client. */
async function serverBehindRawClient(capabilities: JsonObject, request: () => JsonObject) {
  const { raw, transport } = await RawPeer.open();
  const outcomes: unknown[] = [];
  const server = v2025.createServer({
    serverInfo: { name: "s", version: "1" },
    handlers: {
      callTool: async (_params, context) => {
        try {
          outcomes.push(await context.createMessage(request() as unknown as v2025.CreateMessageRequestParams));
        } catch (error) {
          outcomes.push(error);
        }
        return { content: [] };
      },
    },
  });
  await server.connect(transport);
  cleanups.push(() => server.close());
  await raw.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities,
    clientInfo: { name: "raw", version: "1" },
  });
  await raw.notify("notifications/initialized");
  return { raw, outcomes };
}

describe("a 2025-11-25 server sending sampling requests", () => {
  const isSampling = (m: JsonObject) => m["method"] === "sampling/createMessage";

  it.each([
    ["tools to a client without sampling.tools", {}, { tools: [weatherTool] }, "SAMPLING_TOOLS_CAPABILITY"],
    [
      "includeContext to one without sampling.context",
      {},
      { includeContext: "allServers" },
      "SAMPLING_CONTEXT_CAPABILITY",
    ],
    [
      "mixed tool results",
      { tools: {} },
      {
        messages: [
          user("q"),
          toolUse("a"),
          { role: "user", content: [...toolResults("a").content, { type: "text", text: "x" }] },
        ],
      },
      "SAMPLING_TOOL_RESULTS_ONLY",
    ],
    [
      "a missing tool result",
      { tools: {} },
      { messages: [user("q"), toolUse("a", "b"), toolResults("a")] },
      "SAMPLING_TOOL_RESULTS_PAIRED",
    ],
  ])("fails locally, sending nothing, for %s", async (_what, sampling, extra, rule) => {
    const { raw, outcomes } = await serverBehindRawClient({ sampling }, () => ({
      messages: [user("q")],
      maxTokens: 10,
      ...extra,
    }));
    await raw.request("tools/call", { name: "ask" });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toBeInstanceOf(RuleViolation);
    expect(outcomes[0]).toMatchObject({ rule, code: -32603 });
    expect(await raw.sentNothing(isSampling)).toBe(true);
  });

  it("rejects a client's tool use when toolChoice is none (SAMPLING_TOOL_CHOICE_NONE), and takes a valid one", async () => {
    const { raw, outcomes } = await serverBehindRawClient({ sampling: { tools: {} } }, () => ({
      messages: [user("q")],
      maxTokens: 10,
      tools: [weatherTool],
      toolChoice: { mode: outcomes.length === 0 ? "none" : "auto" },
    }));
    const useAnswer = { role: "assistant", content: toolUse("a").content, model: "m", stopReason: "toolUse" };
    for (let i = 0; i < 2; i++) {
      const call = raw.request("tools/call", { name: "ask" });
      await raw.answer(await raw.nextRequest("sampling/createMessage"), useAnswer);
      await call;
    }
    expect(outcomes[0]).toMatchObject({ rule: "SAMPLING_TOOL_CHOICE_NONE" });
    expect(outcomes[1]).toEqual(useAnswer);
  });

  it("rejects a client's final answer while toolChoice requires a tool and none was used (SAMPLING_TOOL_CHOICE_REQUIRED)", async () => {
    const history = [[user("q")], [user("q"), toolUse("a"), toolResults("a")]];
    const { raw, outcomes } = await serverBehindRawClient({ sampling: { tools: {} } }, () => ({
      messages: history[outcomes.length],
      maxTokens: 10,
      tools: [weatherTool],
      toolChoice: { mode: "required" },
    }));
    for (let i = 0; i < 2; i++) {
      const call = raw.request("tools/call", { name: "ask" });
      await raw.answer(await raw.nextRequest("sampling/createMessage"), final);
      await call;
    }
    expect(outcomes[0]).toBeInstanceOf(RuleViolation);
    expect(outcomes[0]).toMatchObject({ rule: "SAMPLING_TOOL_CHOICE_REQUIRED", code: -32603 });
    // Once the history shows a tool use, the model may complete.
    expect(outcomes[1]).toEqual(final);
  });
});

const meta2026 = (capabilities: JsonObject, revision = "2026-07-28") => ({
  "io.modelcontextprotocol/protocolVersion": revision,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

// The draft speaks as 2026-07-28 does (its module is typed as one); its version is its own name.
const revisions2026 = [v2026, vDraft as unknown as typeof v2026].map((rev) => [rev.REVISION, rev] as const);

describe.each(revisions2026)("sampling with tools inside InputRequiredResult (%s)", (revision, rev) => {
  const meta = (capabilities: JsonObject) => meta2026(capabilities, revision);

  /** A server whose tool asks for the sampling request the test gives, behind a raw client. */
  async function server2026(request: JsonObject) {
    const { raw, transport } = await RawPeer.open();
    const errors: Error[] = [];
    const server = rev.createServer({
      serverInfo: { name: "s", version: "1" },
      onError: (error) => errors.push(error),
      handlers: {
        callTool: () =>
          ({
            resultType: "input_required",
            inputRequests: { s: { method: "sampling/createMessage", params: { maxTokens: 10, ...request } } },
          }) as unknown as v2026.CallToolResult,
      },
    });
    await server.connect(transport);
    cleanups.push(() => server.close());
    return { raw, errors };
  }

  it("a server answers -32021 naming sampling.tools for tools a client did not declare (SAMPLING_TOOLS_CAPABILITY)", async () => {
    const { raw } = await server2026({ messages: [user("q")], tools: [weatherTool] });
    const answer = await raw.request("tools/call", { name: "t", _meta: meta({ sampling: {} }) });
    expect(answer["error"]).toMatchObject({
      code: rev.MISSING_REQUIRED_CLIENT_CAPABILITY,
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
  });

  it("a server does not send mixed content: -32603 (SAMPLING_TOOL_RESULTS_ONLY), said to onError too", async () => {
    const mixed = { role: "user", content: [...toolResults("a").content, { type: "text", text: "x" }] };
    const { raw, errors } = await server2026({ messages: [user("q"), toolUse("a"), mixed], tools: [weatherTool] });
    const answer = await raw.request("tools/call", { name: "t", _meta: meta({ sampling: { tools: {} } }) });
    expect(answer["error"]).toMatchObject({ code: -32603, data: { rule: "SAMPLING_TOOL_RESULTS_ONLY" } });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["SAMPLING_TOOL_RESULTS_ONLY"]);
  });

  /** A client with a tool-capable sampling handler answering `answer`, behind a raw server, connected. */
  async function client2026(answer: JsonObject = final) {
    const pair = await RawPeer.open();
    const handled: unknown[] = [];
    const errors: Error[] = [];
    const client = rev.createClient({
      transport: pair.transport,
      clientInfo: { name: "c", version: "1" },
      capabilities: { sampling: { tools: {} } },
      onError: (error) => errors.push(error),
      handlers: {
        createMessage: (params) => {
          handled.push(params);
          return answer as unknown as v2026.CreateMessageResult;
        },
      },
    });
    cleanups.push(() => client.close());
    const server = pair.raw;
    const connected = client.connect();
    await server.answer(await server.nextRequest("server/discover"), {
      resultType: "complete",
      supportedVersions: [revision],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: "private",
    });
    await connected;
    return { server, client, handled, errors };
  }

  /** Makes the client's tool call ask for `sampling` as input; `call`: what the call gives or throws. */
  async function askForSampling(server: RawPeer, client: v2026.Client, sampling: JsonObject) {
    const call = client.callTool({ name: "t", arguments: {} }).catch((e: unknown) => e);
    await server.answer(await server.nextRequest("tools/call"), {
      resultType: "input_required",
      inputRequests: {
        s: { method: "sampling/createMessage", params: { maxTokens: 10, tools: [weatherTool], ...sampling } },
      },
    });
    return { call };
  }

  it.each([
    [
      "mixed tool results",
      [user("q"), toolUse("a"), { role: "user", content: [...toolResults("a").content, { type: "text", text: "x" }] }],
      "SAMPLING_TOOL_RESULTS_ONLY",
    ],
    ["a missing tool result", [user("q"), toolUse("a", "b"), toolResults("b")], "SAMPLING_TOOL_RESULTS_PAIRED"],
  ])("a client refuses %s with -32602 and no retry", async (_what, messages, rule) => {
    const { server, client, handled } = await client2026();
    const error = await (await askForSampling(server, client, { messages })).call;
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ rule, code: -32602 });
    expect(handled).toEqual([]);
    expect(server.received.filter((m) => m["method"] === "tools/call")).toEqual([]);
  });

  it("a client does not retry with its handler's final answer while toolChoice requires a tool: -32603 (SAMPLING_TOOL_CHOICE_REQUIRED)", async () => {
    const { server, client, handled, errors } = await client2026(final);
    const { call } = await askForSampling(server, client, { messages: [user("q")], toolChoice: { mode: "required" } });
    const error = await call;
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ rule: "SAMPLING_TOOL_CHOICE_REQUIRED", code: -32603 });
    expect(handled).toHaveLength(1);
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["SAMPLING_TOOL_CHOICE_REQUIRED"]);
    expect(await server.sentNothing((m) => m["method"] === "tools/call")).toBe(true);
    // After a tool round the same answer completes the loop: the retry goes out with it.
    const retried = await askForSampling(server, client, {
      messages: [user("q"), toolUse("a"), toolResults("a")],
      toolChoice: { mode: "required" },
    });
    const retry = await server.nextRequest("tools/call");
    expect((retry["params"] as JsonObject)["inputResponses"]).toEqual({ s: final });
    await server.answer(retry, { resultType: "complete", content: [] });
    expect(await retried.call).toMatchObject({ content: [] });
  });
});

describe("against the official SDK v2 (@modelcontextprotocol/server 2.4.0) as the server", () => {
  /** An SDK v2 McpServer connected to a generated 2025-11-25 client over the SDK's in-memory pair. */
  const useAnswer = { role: "assistant", content: toolUse("a").content, model: "m", stopReason: "toolUse" };

  /** `answer`: the client's sampling handler (default: a tool use first, then a final answer). */
  async function sdkServerAndClient(
    capabilities: JsonObject,
    answer = (params: { messages: unknown[] }) => (params.messages.length === 1 ? useAnswer : final),
  ) {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const mcp = new McpServer({ name: "sdk-v2", version: "2.4.0" }, { capabilities: {} });
    await mcp.connect(serverSide);
    const handled: unknown[] = [];
    const client = v2025.createClient({
      transport: clientSide,
      clientInfo: { name: "c", version: "1" },
      capabilities,
      handlers: {
        createMessage: (params) => {
          handled.push(params);
          return answer(params) as unknown as v2025.CreateMessageResult;
        },
      },
    });
    cleanups.push(
      () => client.close(),
      () => mcp.close(),
    );
    await client.connect();
    // The SDK's low-level request checks nothing of sampling, so it can send what breaks the rules.
    const send = (params: JsonObject) =>
      mcp.server.request({ method: "sampling/createMessage", params: { maxTokens: 10, ...params } } as never);
    return { mcp, send, handled };
  }

  it.each([
    [
      "tools to a client without sampling.tools",
      {},
      { messages: [user("q")], tools: [weatherTool] },
      "SAMPLING_TOOLS_CAPABILITY",
    ],
    [
      "mixed tool results",
      { sampling: { tools: {} } },
      {
        messages: [
          user("q"),
          toolUse("a"),
          { role: "user", content: [...toolResults("a").content, { type: "text", text: "x" }] },
        ],
      },
      "SAMPLING_TOOL_RESULTS_ONLY",
    ],
    [
      "a missing tool result",
      { sampling: { tools: {} } },
      { messages: [user("q"), toolUse("a", "b"), toolResults("a")] },
      "SAMPLING_TOOL_RESULTS_PAIRED",
    ],
  ])("the SDK gets -32602 for %s", async (_what, capabilities, params, rule) => {
    const { send, handled } = await sdkServerAndClient(capabilities);
    const error = await send(params).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602, data: { rule } });
    expect(handled).toEqual([]);
  });

  it("the SDK's own createMessage runs a tool loop through the client untouched", async () => {
    const { mcp, handled } = await sdkServerAndClient({ sampling: { tools: {} } });
    const first = await mcp.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "weather?" } }],
      tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
      maxTokens: 10,
    });
    expect(first).toMatchObject({ stopReason: "toolUse", content: useAnswer.content });
    const second = await mcp.server.createMessage({
      messages: [
        { role: "user", content: { type: "text", text: "weather?" } },
        { role: "assistant", content: useAnswer.content as never },
        { role: "user", content: toolResults("a").content as never },
      ],
      tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
      maxTokens: 10,
    });
    expect(second).toMatchObject({ stopReason: "endTurn" });
    expect(handled).toHaveLength(2);
  });

  it("the SDK's createMessage requiring a tool gets -32603 for a final answer that uses none (SAMPLING_TOOL_CHOICE_REQUIRED)", async () => {
    const { mcp, handled } = await sdkServerAndClient({ sampling: { tools: {} } }, () => final);
    const error = await mcp.server
      .createMessage({
        messages: [{ role: "user", content: { type: "text", text: "weather?" } }],
        tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
        toolChoice: { mode: "required" },
        maxTokens: 10,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603, data: { rule: "SAMPLING_TOOL_CHOICE_REQUIRED" } });
    expect(handled).toHaveLength(1);
  });
});

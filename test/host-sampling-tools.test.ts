// Sampling with tools through the host, end to end: a 2025-11-25 server (sampling requests of its
// own) and a 2026-07-28 server (sampling requests inside InputRequiredResult, the history kept in
// requestState) each run a tool loop through the host's sampling handler, a fake model that asks
// for the weather tool once and then answers from the tool results. The host declares
// sampling.tools (samplingSupport), passes tools, toolChoice and stopReason "toolUse" through,
// refuses mixed content and missing results with -32602 before the handler or consent sees them,
// and stops a server that loops for ever (toolLoopLimit, rule SAMPLING_TOOL_LOOP_LIMIT).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createHost, type Host, type SamplingParams, type SamplingResult } from "../host/index.js";
import { createInMemoryTransportPair, RuleViolation, type JsonObject } from "../runtime/index.js";

type Message = { role: "user" | "assistant"; content: JsonObject | JsonObject[] };

const QUESTION: Message = { role: "user", content: { type: "text", text: "Weather in Paris and London?" } };
const WEATHER_TOOL = { name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
const LIMIT = 3;

/** How each tool builds the message answering the model's tool uses: right, or breaking a rule. */
const ANSWERS: Record<string, (uses: JsonObject[]) => Message> = {
  forecast: (uses) => ({ role: "user", content: uses.map(result) }),
  runaway: (uses) => ({ role: "user", content: uses.map(result) }),
  mixed: (uses) => ({ role: "user", content: [...uses.map(result), { type: "text", text: "and some chatter" }] }),
  missing: (uses) => ({ role: "user", content: uses.slice(1).map(result) }),
};

function result(use: JsonObject): JsonObject {
  const city = (use["input"] as { city: string }).city;
  return { type: "tool_result", toolUseId: use["id"], content: [{ type: "text", text: `${city}: 18°C` }] };
}

/** The sampling request a tool sends for its history; `runaway` asks a model that never stops using tools. */
function samplingRequest(tool: string, messages: Message[]): JsonObject {
  return {
    messages,
    tools: [WEATHER_TOOL],
    toolChoice: { mode: "auto" },
    maxTokens: 200,
    ...(tool === "runaway" ? { systemPrompt: "never stop" } : {}),
  };
}

/** The history after the model's answer: its tool uses, then the tool's answer to them. */
function continued(tool: string, messages: Message[], answer: JsonObject): Message[] {
  const uses = (answer["content"] as JsonObject[]).filter((block) => block["type"] === "tool_use");
  return [...messages, { role: "assistant", content: uses }, (ANSWERS[tool] as (uses: JsonObject[]) => Message)(uses)];
}

const textOf = (answer: JsonObject) => ((answer["content"] as JsonObject)["text"] as string) ?? "";
const tools = Object.keys(ANSWERS).map((name) => ({ name, inputSchema: { type: "object" as const } }));
// The servers break content rules on purpose: their own checks would stop them first.
const RELAXED = ["SAMPLING_TOOL_RESULTS_ONLY", "SAMPLING_TOOL_RESULTS_PAIRED"];

/** A 2025-11-25 server running the loop with its own sampling requests. */
function server2025(): v2025.Server {
  return v2025.createServer({
    serverInfo: { name: "loop-2025", version: "1.0.0" },
    relaxRules: RELAXED,
    handlers: {
      listTools: () => ({ tools }),
      callTool: async (params, context) => {
        let messages: Message[] = [QUESTION];
        try {
          for (;;) {
            const answer = (await context.createMessage(
              samplingRequest(params.name, messages) as unknown as v2025.CreateMessageRequestParams,
            )) as unknown as JsonObject;
            if (answer["stopReason"] !== "toolUse") return { content: [{ type: "text", text: textOf(answer) }] };
            messages = continued(params.name, messages, answer);
          }
        } catch (error) {
          const refusal = error as v2025.JSONRPCErrorResponse["error"];
          const rule = (refusal.data as { rule?: string } | undefined)?.rule;
          return { isError: true, content: [{ type: "text", text: `${refusal.code} ${rule}` }] };
        }
      },
    },
  });
}

/** A 2026-07-28 server running the loop one InputRequiredResult per round, its history in requestState. */
function server2026(): v2026.Server {
  return v2026.createServer({
    serverInfo: { name: "loop-2026", version: "1.0.0" },
    relaxRules: RELAXED,
    handlers: {
      listTools: () => ({ ttlMs: 0, cacheScope: "private", tools }),
      callTool: (params) => {
        let messages: Message[] = params.requestState ? (JSON.parse(params.requestState) as Message[]) : [QUESTION];
        const answer = params.inputResponses?.["sample"] as JsonObject | undefined;
        if (answer && answer["stopReason"] !== "toolUse") return { content: [{ type: "text", text: textOf(answer) }] };
        if (answer) messages = continued(params.name, messages, answer);
        return {
          resultType: "input_required",
          inputRequests: {
            sample: { method: "sampling/createMessage", params: samplingRequest(params.name, messages) },
          },
          requestState: JSON.stringify(messages),
        } as unknown as v2026.CallToolResult;
      },
    },
  });
}

/** The fake model: asks for the weather of both cities, then answers from the tool results it got. */
function model(params: SamplingParams): SamplingResult {
  const messages = params.messages as unknown as Message[];
  const last = messages[messages.length - 1] as Message;
  const results = Array.isArray(last.content) ? last.content.filter((b) => b["type"] === "tool_result") : [];
  if (results.length > 0 && params.systemPrompt !== "never stop") {
    const text = results.map((r) => ((r["content"] as JsonObject[])[0] as JsonObject)["text"]).join("; ");
    return { role: "assistant", model: "fake", stopReason: "endTurn", content: { type: "text", text } };
  }
  const round = messages.length;
  return {
    role: "assistant",
    model: "fake",
    stopReason: "toolUse",
    content: ["Paris", "London"].map((city) => ({
      type: "tool_use",
      id: `${city}-${round}`,
      name: "get_weather",
      input: { city },
    })),
  } as unknown as SamplingResult;
}

describe("sampling with tools through the host", () => {
  let host: Host;
  const sampled: { server: string; params: SamplingParams }[] = [];
  const reviewed: string[] = [];

  beforeAll(async () => {
    host = createHost({
      servers: { mcpServers: { old: { command: "in-memory" }, new: { command: "in-memory" } } },
      transport: (spec) => {
        const [hostSide, serverSide] = createInMemoryTransportPair();
        void (spec.name === "old" ? server2025() : server2026()).connect(serverSide);
        return hostSide;
      },
      samplingSupport: { tools: true },
      toolLoopLimit: LIMIT,
      consent: (request) => {
        if (request.kind === "sampling") reviewed.push(request.server);
        return { action: "approve" };
      },
      sampling: ({ server, params }) => {
        sampled.push({ server, params });
        return model(params);
      },
    });
    await host.connect();
  });

  afterAll(() => host?.close());

  const of = (server: string) => sampled.filter((s) => s.server === server);

  it("connects each server at its revision, the host declaring sampling.tools", () => {
    expect(host.servers.map((s) => [s.name, s.revision, s.state])).toEqual([
      ["old", "2025-11-25", "up"],
      ["new", "2026-07-28", "up"],
    ]);
  });

  it.each([
    ["old", "2025-11-25"],
    ["new", "2026-07-28"],
  ])(
    "runs a tool loop of the %s server (%s): tools, toolChoice and stopReason toolUse pass through",
    async (server) => {
      sampled.length = 0;
      const answer = await host.callTool(`${server}__forecast`);
      expect(answer.content).toEqual([{ type: "text", text: "Paris: 18°C; London: 18°C" }]);
      const seen = of(server).map((s) => s.params);
      expect(seen).toHaveLength(2);
      expect(seen[0]).toMatchObject({ tools: [WEATHER_TOOL], toolChoice: { mode: "auto" }, messages: [QUESTION] });
      // The second round carries the model's tool uses and the server's results, as the server wrote them.
      expect(seen[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    },
  );

  it.each([
    ["mixed", "SAMPLING_TOOL_RESULTS_ONLY"],
    ["missing", "SAMPLING_TOOL_RESULTS_PAIRED"],
  ])("refuses %s tool results with -32602 (%s): at 2025-11-25 the server gets the error", async (tool, rule) => {
    sampled.length = 0;
    reviewed.length = 0;
    const answer = await host.callTool(`old__${tool}`);
    expect(answer).toMatchObject({ isError: true, content: [{ type: "text", text: `-32602 ${rule}` }] });
    // The first round was fine; the broken second one reached neither consent nor the handler.
    expect(of("old")).toHaveLength(1);
    expect(reviewed).toEqual(["old"]);
  });

  it.each([
    ["mixed", "SAMPLING_TOOL_RESULTS_ONLY"],
    ["missing", "SAMPLING_TOOL_RESULTS_PAIRED"],
  ])("refuses %s tool results with -32602 (%s): at 2026-07-28 the call fails at the host", async (tool, rule) => {
    sampled.length = 0;
    const error = await host.callTool(`new__${tool}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ code: -32602, rule });
    expect(of("new")).toHaveLength(1);
  });

  it.each([
    ["old", "2025-11-25"],
    ["new", "2026-07-28"],
  ])("stops the %s server's runaway loop (%s) after the host's limit of rounds", async (server) => {
    sampled.length = 0;
    const outcome = await host.callTool(`${server}__runaway`).catch((e: unknown) => e);
    // Rounds 0 to LIMIT reach the model; the next request, with LIMIT + 1 rounds of tool use, does not.
    expect(of(server)).toHaveLength(LIMIT + 1);
    if (server === "old") {
      expect(outcome).toMatchObject({
        isError: true,
        content: [{ type: "text", text: "-32602 SAMPLING_TOOL_LOOP_LIMIT" }],
      });
    } else {
      expect(outcome).toBeInstanceOf(RuleViolation);
      expect(outcome).toMatchObject({ code: -32602, rule: "SAMPLING_TOOL_LOOP_LIMIT" });
      expect((outcome as Error).message).toContain(`more than this host's limit of ${LIMIT}`);
    }
  });
});

// The conformance tools and prompt that ask the client for input the 2026-07-28 way: a multi
// round-trip result (InputRequiredResult) naming what the server needs, answered by the client's
// retry. The registry's `context.input` reads the answers (checked against the result type of
// what was asked) and the state, and asks; the server keeps nothing between rounds, and what it
// must remember goes into the request state, which createMcpServer seals so a client cannot alter it.
import type { HandlerContext, InputContext, ToolResult } from "../../generated/2026-07-28/registry.js";
import type * as T from "../../generated/2026-07-28/types.js";

const text = (value: string): T.TextContent => ({ type: "text", text: value });

/** An elicitation asking for one string field. */
function askFor(message: string, field: string): T.InputRequest {
  return {
    method: "elicitation/create",
    params: {
      message,
      requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
    },
  };
}

const confirm: T.InputRequest = {
  method: "elicitation/create",
  params: {
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
};

function ask(message: string, maxTokens = 50): T.InputRequest {
  return {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: text(message) }], maxTokens },
  };
}

const listRoots: T.InputRequest = { method: "roots/list" };

/** The content of an accepted elicitation answer under `key`. */
function accepted(input: InputContext, key: string): { [field: string]: unknown } | undefined {
  const answer = input.response(key, "elicitation/create");
  return answer?.action === "accept" ? answer.content : undefined;
}

function sampledText(input: InputContext, key: string): string | undefined {
  const content = input.response(key, "sampling/createMessage")?.content;
  return content && !Array.isArray(content) && content.type === "text" ? content.text : undefined;
}

export interface InputTool {
  readonly name: string;
  readonly description: string;
  run(args: object, context: HandlerContext): ToolResult;
}

export const inputTools: readonly InputTool[] = [
  {
    // Also what the result-type, missing-response, extra-params and invalid-input scenarios call:
    // anything but an accepted name asks again.
    name: "test_input_required_result_elicitation",
    description: "Asks for the caller's name",
    run: (_args, { input }) => {
      const name = accepted(input, "user_name")?.["name"];
      if (typeof name !== "string") return input.ask({ user_name: askFor("What is your name?", "name") });
      return { content: [text(`Hello, ${name}!`)] };
    },
  },
  {
    name: "test_input_required_result_sampling",
    description: "Asks the client's model a question",
    run: (_args, { input }) => {
      const answer = sampledText(input, "capital_question");
      if (answer === undefined) return input.ask({ capital_question: ask("What is the capital of France?", 100) });
      return { content: [text(`Sampling response: ${answer}`)] };
    },
  },
  {
    name: "test_input_required_result_list_roots",
    description: "Asks for the client's roots",
    run: (_args, { input }) => {
      const list = input.response("client_roots", "roots/list")?.roots;
      if (!list) return input.ask({ client_roots: listRoots });
      return { content: [text(`Client exposed ${list.length} root(s): ${list.map((r) => r.uri).join(", ")}`)] };
    },
  },
  {
    name: "test_input_required_result_request_state",
    description: "Round-trips its state with a confirmation",
    run: (_args, { input }) => {
      if (!accepted(input, "confirm") || input.state !== "request_state")
        return input.ask({ confirm }, "request_state");
      return { content: [text("state-ok: requestState verified and confirmation received")] };
    },
  },
  {
    name: "test_input_required_result_multiple_inputs",
    description: "Asks for a name, a greeting and the roots at once",
    run: (_args, { input }) => {
      const name = accepted(input, "user_name")?.["name"];
      const greeting = sampledText(input, "greeting");
      const list = input.response("client_roots", "roots/list")?.roots;
      if (typeof name !== "string" || greeting === undefined || !list)
        return input.ask(
          {
            user_name: askFor("What is your name?", "name"),
            greeting: ask("Generate a greeting"),
            client_roots: listRoots,
          },
          "multiple_inputs",
        );
      return { content: [text(`${greeting} ${name}: ${list.length} root(s) visible`)] };
    },
  },
  {
    // The round and what was learnt so far travel in the (sealed) state: the server keeps nothing.
    name: "test_input_required_result_multi_round",
    description: "Two rounds of questions, then the answer",
    run: (_args, { input }) => {
      const state = input.state === undefined ? {} : (JSON.parse(input.state) as { round?: number; name?: string });
      if (state.round === undefined)
        return input.ask({ step1: askFor("Step 1: What is your name?", "name") }, JSON.stringify({ round: 1 }));
      if (state.round === 1) {
        const name = accepted(input, "step1")?.["name"];
        return input.ask(
          { step2: askFor("Step 2: What is your favorite color?", "color") },
          JSON.stringify({ round: 2, name: typeof name === "string" ? name : "unknown" }),
        );
      }
      const color = accepted(input, "step2")?.["color"];
      return {
        content: [text(`Multi-round complete: ${state.name} likes ${typeof color === "string" ? color : "unknown"}`)],
      };
    },
  },
  {
    // A tampered state never reaches here: the generated server refuses it with -32602.
    name: "test_input_required_result_tampered_state",
    description: "Trusts only the state it sealed",
    run: (_args, { input }) => {
      if (input.state === "tampered_state" && accepted(input, "confirm"))
        return { content: [text("integrity-ok: requestState verified")] };
      return input.ask({ confirm }, "tampered_state");
    },
  },
  {
    name: "test_input_required_result_capabilities",
    description: "Asks only for what the client declared it can give",
    run: (_args, { input, client }) => {
      if (input.state === "asked") return { content: [text("Capability-aware input requests fulfilled")] };
      const declared = client.clientCapabilities ?? {};
      const requests: T.InputRequests = {};
      if (declared.elicitation) requests["user_name"] = askFor("What is your name?", "name");
      if (declared.sampling) requests["greeting"] = ask("Generate a short greeting");
      if (declared.roots) requests["client_roots"] = listRoots;
      if (Object.keys(requests).length === 0) return { content: [text("The client declared nothing to ask for")] };
      return input.ask(requests, "asked");
    },
  },
  {
    // Needs sampling: a client that did not declare it gets -32021 from the generated server.
    name: "test_missing_capability",
    description: "Needs the client's sampling capability",
    run: (_args, { input }) => {
      if (input.response("llm_answer", "sampling/createMessage") === undefined)
        return input.ask({ llm_answer: ask("Reply with the single word: pong") });
      return { content: [text("sampling round-trip complete")] };
    },
  },
];

/** The prompt that asks for input before it renders (multi round-trip is not only for tools). */
export function inputPrompt({ input }: HandlerContext): T.GetPromptResult | T.InputRequiredResult {
  const context = accepted(input, "user_context")?.["context"];
  if (typeof context !== "string")
    return input.ask({ user_context: askFor("What context should the prompt use?", "context") });
  return {
    resultType: "complete",
    messages: [{ role: "user", content: text(`Use the following context: ${context}`) }],
  };
}

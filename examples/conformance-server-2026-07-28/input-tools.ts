// The conformance tools and prompt that ask the client for input the 2026-07-28 way: a multi
// round-trip result (InputRequiredResult) naming what the server needs, answered by the client's
// retry. The server keeps nothing between rounds: what it must remember goes into requestState,
// which the generated server seals (createRequestStateSeal) so a client cannot alter it.
import type { Answer as Reply, ClientState } from "../../generated/2026-07-28/server.js";
import type * as T from "../../generated/2026-07-28/types.js";

type Responses = T.CallToolRequestParams["inputResponses"];
type Answer = Reply<T.CallToolResult | T.InputRequiredResult>;

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

function ask(message: string): T.InputRequest {
  return {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: text(message) }], maxTokens: 50 },
  };
}

const listRoots: T.InputRequest = { method: "roots/list" };

function inputRequired(inputRequests: T.InputRequests, requestState?: string): T.InputRequiredResult {
  return { resultType: "input_required", inputRequests, ...(requestState === undefined ? {} : { requestState }) };
}

/** The content of an accepted elicitation answer under `key`, if that is what the client sent. */
function accepted(responses: Responses, key: string): { [field: string]: unknown } | undefined {
  const answer = responses?.[key] as { action?: unknown; content?: unknown } | undefined;
  return answer?.action === "accept" && typeof answer.content === "object" && answer.content !== null
    ? (answer.content as { [field: string]: unknown })
    : undefined;
}

function sampledText(responses: Responses, key: string): string | undefined {
  const content = (responses?.[key] as { content?: { text?: unknown } } | undefined)?.content;
  return typeof content?.text === "string" ? content.text : undefined;
}

function roots(responses: Responses, key: string): { uri: string }[] | undefined {
  const list = (responses?.[key] as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(list) ? (list as { uri: string }[]) : undefined;
}

export interface InputTool {
  readonly tool: T.Tool;
  run(params: T.CallToolRequestParams, client: ClientState): Answer;
}

const noArguments: T.Tool["inputSchema"] = { type: "object", properties: {} };
const tool = (name: string, description: string): T.Tool => ({ name, description, inputSchema: noArguments });

export const inputTools: readonly InputTool[] = [
  {
    // Also what the result-type, missing-response, extra-params and invalid-input scenarios call:
    // anything but an accepted name asks again.
    tool: tool("test_input_required_result_elicitation", "Asks for the caller's name"),
    run: ({ inputResponses }) => {
      const name = accepted(inputResponses, "user_name")?.["name"];
      if (typeof name !== "string") return inputRequired({ user_name: askFor("What is your name?", "name") });
      return { content: [text(`Hello, ${name}!`)] };
    },
  },
  {
    tool: tool("test_input_required_result_sampling", "Asks the client's model a question"),
    run: ({ inputResponses }) => {
      const answer = sampledText(inputResponses, "capital_question");
      if (answer === undefined)
        return inputRequired({
          capital_question: {
            method: "sampling/createMessage",
            params: { messages: [{ role: "user", content: text("What is the capital of France?") }], maxTokens: 100 },
          },
        });
      return { content: [text(`Sampling response: ${answer}`)] };
    },
  },
  {
    tool: tool("test_input_required_result_list_roots", "Asks for the client's roots"),
    run: ({ inputResponses }) => {
      const list = roots(inputResponses, "client_roots");
      if (!list) return inputRequired({ client_roots: listRoots });
      return { content: [text(`Client exposed ${list.length} root(s): ${list.map((r) => r.uri).join(", ")}`)] };
    },
  },
  {
    tool: tool("test_input_required_result_request_state", "Round-trips its state with a confirmation"),
    run: ({ inputResponses, requestState }) => {
      if (!accepted(inputResponses, "confirm") || requestState !== "request_state")
        return inputRequired({ confirm }, "request_state");
      return { content: [text("state-ok: requestState verified and confirmation received")] };
    },
  },
  {
    tool: tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots at once"),
    run: ({ inputResponses }) => {
      const name = accepted(inputResponses, "user_name")?.["name"];
      const greeting = sampledText(inputResponses, "greeting");
      const list = roots(inputResponses, "client_roots");
      if (typeof name !== "string" || greeting === undefined || !list)
        return inputRequired(
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
    tool: tool("test_input_required_result_multi_round", "Two rounds of questions, then the answer"),
    run: ({ inputResponses, requestState }) => {
      const state = requestState === undefined ? {} : (JSON.parse(requestState) as { round?: number; name?: string });
      if (state.round === undefined)
        return inputRequired({ step1: askFor("Step 1: What is your name?", "name") }, JSON.stringify({ round: 1 }));
      if (state.round === 1) {
        const name = accepted(inputResponses, "step1")?.["name"];
        return inputRequired(
          { step2: askFor("Step 2: What is your favorite color?", "color") },
          JSON.stringify({ round: 2, name: typeof name === "string" ? name : "unknown" }),
        );
      }
      const color = accepted(inputResponses, "step2")?.["color"];
      return {
        content: [text(`Multi-round complete: ${state.name} likes ${typeof color === "string" ? color : "unknown"}`)],
      };
    },
  },
  {
    // A tampered state never reaches here: the generated server refuses it with -32602.
    tool: tool("test_input_required_result_tampered_state", "Trusts only the state it sealed"),
    run: ({ inputResponses, requestState }) => {
      if (requestState === "tampered_state" && accepted(inputResponses, "confirm"))
        return { content: [text("integrity-ok: requestState verified")] };
      return inputRequired({ confirm }, "tampered_state");
    },
  },
  {
    tool: tool("test_input_required_result_capabilities", "Asks only for what the client declared it can give"),
    run: ({ inputResponses }, client) => {
      if (inputResponses !== undefined) return { content: [text("Capability-aware input requests fulfilled")] };
      const declared = client.clientCapabilities ?? {};
      const requests: T.InputRequests = {};
      if (declared.elicitation) requests["user_name"] = askFor("What is your name?", "name");
      if (declared.sampling) requests["greeting"] = ask("Generate a short greeting");
      if (declared.roots) requests["client_roots"] = listRoots;
      if (Object.keys(requests).length === 0) return { content: [text("The client declared nothing to ask for")] };
      return inputRequired(requests);
    },
  },
  {
    // Needs sampling: a client that did not declare it gets -32021 from the generated server.
    tool: tool("test_missing_capability", "Needs the client's sampling capability"),
    run: ({ inputResponses }) => {
      if (inputResponses?.["llm_answer"] === undefined)
        return inputRequired({ llm_answer: ask("Reply with the single word: pong") });
      return { content: [text("sampling round-trip complete")] };
    },
  },
];

/** The prompt that asks for input before it renders (multi round-trip is not only for tools). */
export function inputPrompt(params: T.GetPromptRequestParams): Reply<T.GetPromptResult | T.InputRequiredResult> {
  const context = accepted(params.inputResponses, "user_context")?.["context"];
  if (typeof context !== "string")
    return inputRequired({ user_context: askFor("What context should the prompt use?", "context") });
  return {
    resultType: "complete",
    messages: [{ role: "user", content: text(`Use the following context: ${context}`) }],
  };
}

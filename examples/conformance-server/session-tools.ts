// The 2025-11-25 conformance tools that ask the client through server→client requests (sampling,
// elicitation) or need the session's resumable streams; at 2026-07-28 those travel otherwise.
import type { StreamableHttpSession } from "../../runtime/http/server/server.js";
import type { HandlerContext } from "../../generated/2025-11-25/registry.js";
import type * as T from "../../generated/2025-11-25/types.js";
import { noArguments, stringArgument, text } from "./fixtures.js";

/** A tool of a 2025-era session: it gets the registry's context and the session it runs in (if any). */
export interface SessionTool {
  readonly tool: T.Tool;
  run(
    args: { [key: string]: unknown },
    context: HandlerContext,
    session: StreamableHttpSession | undefined,
  ): Promise<T.CallToolResult> | T.CallToolResult;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function elicit(context: HandlerContext, params: T.ElicitRequestFormParams): Promise<T.CallToolResult> {
  if (!context.client.clientCapabilities?.elicitation)
    return { isError: true, content: [text("The client does not support elicitation")] };
  const answer = await context.elicit(params);
  return {
    content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)],
  };
}

export const sessionTools: readonly SessionTool[] = [
  {
    tool: {
      name: "test_sampling",
      description: "Asks the client's model to answer a prompt",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    },
    run: async (args, context) => {
      const prompt = stringArgument(args, "prompt");
      if (prompt === undefined) return { isError: true, content: [text("prompt must be a string")] };
      if (!context.client.clientCapabilities?.sampling)
        return { isError: true, content: [text("The client does not support sampling")] };
      const answer = await context.createMessage({
        messages: [{ role: "user", content: text(prompt) }],
        maxTokens: 100,
      });
      const reply = Array.isArray(answer.content) ? answer.content : [answer.content];
      return {
        content: [
          text(`LLM response: ${reply.map((block) => (block.type === "text" ? block.text : block.type)).join(" ")}`),
        ],
      };
    },
  },
  {
    tool: {
      name: "test_elicitation",
      description: "Asks the user for a name and an email address",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    run: (args, context) =>
      elicit(context, {
        message: stringArgument(args, "message") ?? "Please provide your information",
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      }),
  },
  {
    tool: {
      name: "test_elicitation_sep1034_defaults",
      description: "Elicits fields with default values",
      inputSchema: noArguments,
    },
    run: (_args, context) =>
      elicit(context, {
        message: "Please review these values",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", default: "John Doe" },
            age: { type: "integer", default: 30 },
            score: { type: "number", default: 95.5 },
            status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", default: true },
          },
        },
      }),
  },
  {
    tool: {
      name: "test_elicitation_sep1330_enums",
      description: "Elicits every kind of enum field",
      inputSchema: noArguments,
    },
    run: (_args, context) =>
      elicit(context, {
        message: "Please choose",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                ],
              },
            },
          },
        },
      }),
  },
  {
    tool: {
      name: "test_reconnection",
      description: "Closes its stream, then answers on the resumed one",
      inputSchema: noArguments,
    },
    run: async (_args, context, session) => {
      // Ends the HTTP response carrying this call's stream; the client comes back for the rest.
      session?.closeSSEStream(context.requestId);
      await pause(100);
      return { content: [text("Answered after the client reconnected")] };
    },
  },
];

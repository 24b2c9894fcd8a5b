// Tool use inside sampling, as the sampling page constrains it: tool content only for a client
// that declared the capability, a message with tool results holds nothing else, every tool use
// is answered by a result in the very next message (and every result answers one), a tool
// choice of "none" gets no tool use back, and one of "required" gets a tool use before the model
// completes. The block types and field names come from the model.
import { ErrorCode, isObject } from "../jsonrpc.js";
import { declares } from "./capabilities.js";
import type { SamplingToolsFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const SAMPLING_TOOLS_CAPABILITY = "SAMPLING_TOOLS_CAPABILITY";
export const SAMPLING_TOOL_RESULTS_ONLY = "SAMPLING_TOOL_RESULTS_ONLY";
export const SAMPLING_TOOL_RESULTS_PAIRED = "SAMPLING_TOOL_RESULTS_PAIRED";
export const SAMPLING_TOOL_CHOICE_NONE = "SAMPLING_TOOL_CHOICE_NONE";
export const SAMPLING_TOOL_CHOICE_REQUIRED = "SAMPLING_TOOL_CHOICE_REQUIRED";

/** A message's content blocks: one block or an array of them. */
function blocks(facts: SamplingToolsFact, message: unknown): readonly unknown[] {
  const content = isObject(message) ? message[facts.content] : undefined;
  return Array.isArray(content) ? content : content === undefined ? [] : [content];
}

function typeOf(block: unknown): unknown {
  return isObject(block) ? block["type"] : undefined;
}

/** The ids of a message's blocks of one type (tool uses by `id`, results by `toolUseId`). */
function ids(content: readonly unknown[], kind: { type: string; id: string }): unknown[] {
  return content.filter((b) => typeOf(b) === kind.type).map((b) => (b as { [key: string]: unknown })[kind.id]);
}

/**
 * The first rule a sampling request's messages break, given the client's capabilities; `code`
 * is what the violation is answered with (an incoming request: -32602, as the page lists).
 */
export function samplingRequestViolation(
  facts: SamplingToolsFact,
  params: unknown,
  clientCapabilities: unknown,
  code: number = ErrorCode.InternalError,
): RuleViolation | undefined {
  const messages = isObject(params) ? params[facts.messages] : undefined;
  if (!Array.isArray(messages)) return undefined;
  const contents = messages.map((m) => blocks(facts, m));
  const isTool = (b: unknown) => typeOf(b) === facts.use.type || typeOf(b) === facts.result.type;
  if (contents.some((c) => c.some(isTool)) && !declares(clientCapabilities, facts.capability.path)) {
    return new RuleViolation(
      SAMPLING_TOOLS_CAPABILITY,
      `${facts.request}: tool use content needs the client capability ${facts.capability.path.join(".")}, which the client did not declare`,
      code,
      facts.capability,
    );
  }
  for (const [i, content] of contents.entries()) {
    const results = ids(content, facts.result);
    if (results.length > 0 && results.length < content.length) {
      return new RuleViolation(
        SAMPLING_TOOL_RESULTS_ONLY,
        `${facts.request}: message ${i} mixes ${facts.result.type} with other content`,
        code,
      );
    }
    const asked = i > 0 ? ids(contents[i - 1] as unknown[], facts.use) : [];
    const unmatched = results.find((id) => !asked.includes(id));
    if (unmatched !== undefined) {
      return new RuleViolation(
        SAMPLING_TOOL_RESULTS_PAIRED,
        `${facts.request}: message ${i} has a ${facts.result.type} for ${JSON.stringify(unmatched)}, which the message before did not ask for`,
        code,
      );
    }
    const uses = ids(content, facts.use);
    const next = contents[i + 1];
    const answered = next ? ids(next, facts.result) : [];
    const missing = uses.find((id) => !answered.includes(id));
    if (missing !== undefined) {
      return new RuleViolation(
        SAMPLING_TOOL_RESULTS_PAIRED,
        `${facts.request}: the ${facts.use.type} ${JSON.stringify(missing)} of message ${i} has no ${facts.result.type} in the message after it`,
        code,
      );
    }
  }
  return undefined;
}

/**
 * A sampling result that breaks the request's tool choice: a tool use although the mode is
 * "none", or a completion without any tool use although it is "required". The model may complete
 * once it has used a tool (the history holds a tool use); a result the token limit cut off has not
 * completed.
 */
export function samplingResultViolation(
  facts: SamplingToolsFact,
  params: unknown,
  result: unknown,
): RuleViolation | undefined {
  const { field, mode: modeField, none, required } = facts.toolChoice;
  const choice = isObject(params) ? params[field] : undefined;
  const mode = isObject(choice) ? choice[modeField] : undefined;
  if (mode !== none && mode !== required) return undefined;
  const uses = ids(blocks(facts, result), facts.use).length > 0;
  if (mode === none && uses)
    return new RuleViolation(
      SAMPLING_TOOL_CHOICE_NONE,
      `${facts.request}: the result uses a tool although ${field}.${modeField} is ${JSON.stringify(none)}`,
    );
  if (mode !== required || uses || toolRounds(facts, params) > 0) return undefined;
  if (isObject(result) && result[facts.stopReason.field] === facts.stopReason.cutOff) return undefined;
  return new RuleViolation(
    SAMPLING_TOOL_CHOICE_REQUIRED,
    `${facts.request}: the result completes without using a tool although ${field}.${modeField} is ${JSON.stringify(required)} and no tool was used before`,
  );
}

/** How many times the model has used tools in a request's history: the rounds of its tool loop. */
export function toolRounds(facts: SamplingToolsFact, params: unknown): number {
  const messages = isObject(params) ? params[facts.messages] : undefined;
  if (!Array.isArray(messages)) return 0;
  return messages.filter((m) => blocks(facts, m).some((b) => typeOf(b) === facts.use.type)).length;
}

// The host's side of sampling with tools: what its sampling handler can do, declared at the
// paths the revision's model gives (no revision named here), and the iteration limit for tool
// loops that the sampling page asks of both parties.
import { ErrorCode, RuleViolation, toolRounds, type RuleFacts } from "../runtime/index.js";

export const SAMPLING_TOOL_LOOP_LIMIT = "SAMPLING_TOOL_LOOP_LIMIT";

/** Tool-use rounds a sampling request's history may hold before the host refuses it. */
export const DEFAULT_TOOL_LOOP_LIMIT = 20;

/** What the application's sampling handler supports beyond plain messages. */
export interface SamplingSupport {
  /** Tool use: `tools`, `toolChoice`, and tool use and result content (declares `sampling.tools`). */
  tools?: boolean;
  /** Context inclusion: `includeContext` other than "none" (declares `sampling.context`). */
  context?: boolean;
}

/** The rule whose gate names the capability for context inclusion. */
const CONTEXT_RULE = "SAMPLING_CONTEXT_CAPABILITY";

/** The capabilities object declaring `support`, where the revision has such capabilities. */
export function samplingCapabilities(rules: RuleFacts, support: SamplingSupport): { [key: string]: unknown } {
  const tools = rules.samplingTools;
  const paths: (readonly string[])[] = [];
  if (support.tools && tools) paths.push(tools.capability.path);
  const context = tools && rules.paramGates?.serverToClient?.[tools.request]?.find((g) => g.rule === CONTEXT_RULE);
  if (support.context && context) paths.push(context.capability.path);
  const declared: { [key: string]: unknown } = {};
  for (const path of paths) {
    let node = declared;
    for (const key of path) node = (node[key] ??= {}) as { [key: string]: unknown };
  }
  return declared;
}

/**
 * A sampling request whose history shows more tool-use rounds than `limit`: refused with -32602
 * before anyone reviews it, so a server that never stops looping is stopped.
 */
export function toolLoopViolation(
  rules: RuleFacts,
  params: unknown,
  limit: number,
  server: string,
): RuleViolation | undefined {
  const tools = rules.samplingTools;
  if (!tools) return undefined;
  const rounds = toolRounds(tools, params);
  if (rounds <= limit) return undefined;
  return new RuleViolation(
    SAMPLING_TOOL_LOOP_LIMIT,
    `${tools.request} from ${JSON.stringify(server)}: its tool loop has run ${rounds} rounds, more than this host's limit of ${limit}`,
    ErrorCode.InvalidParams,
  );
}

// Capability rules: a method, a params field or one of its values may be used only when the
// capability that gates it was declared (lifecycle: only negotiated capabilities; the sampling
// and elicitation pages for fields and modes). No allocation unless something is wrong.
import { ErrorCode, isObject } from "../jsonrpc.js";
import type { CapabilityFact, Negotiated, ParamGateFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

/** Rule id: a message whose method needs a capability its gating side did not declare. */
export const CAPABILITY_NEGOTIATED = "CAPABILITY_NEGOTIATED";

/** Whether a capabilities object declares the capability at `path` (a key present and not false). */
export function declares(capabilities: unknown, path: readonly string[], impliedByEmpty = false): boolean {
  let node = capabilities;
  let parent: unknown;
  for (const key of path) {
    parent = node;
    node = isObject(node) ? node[key] : undefined;
  }
  if (node !== undefined && node !== false) return true;
  return impliedByEmpty && isObject(parent) && Object.keys(parent).length === 0;
}

/**
 * A method used without its capability: `sender` says which side sends the message, so that the
 * text says whose capability is missing. Undefined when the capability is declared (or nothing
 * gates the method).
 */
export function methodViolation(
  method: string,
  capability: CapabilityFact | null | undefined,
  negotiated: Negotiated,
  code: number = ErrorCode.InternalError,
): RuleViolation | undefined {
  if (!capability || declares(negotiated[capability.side], capability.path)) return undefined;
  return new RuleViolation(
    CAPABILITY_NEGOTIATED,
    `${method} needs the ${capability.side} capability ${capability.path.join(".")}, which the ${capability.side} did not declare`,
    code,
    capability,
  );
}

/** The first gated params field (or value) the receiver did not declare the capability for. */
export function paramViolation(
  method: string,
  gates: readonly ParamGateFact[] | undefined,
  params: unknown,
  negotiated: Negotiated,
  code: number = ErrorCode.InternalError,
): RuleViolation | undefined {
  if (!gates) return undefined;
  const given = isObject(params) ? params : undefined;
  for (const gate of gates) {
    const raw = given?.[gate.field];
    const value = raw === undefined ? gate.absentAs : raw;
    if (value === undefined || (gate.values && !gate.values.includes(value))) continue;
    if (declares(negotiated[gate.capability.side], gate.capability.path, gate.impliedByEmpty)) continue;
    const used = gate.values ? `${gate.field} ${JSON.stringify(value)}` : gate.field;
    return new RuleViolation(
      gate.rule,
      `${method} with ${used} needs the ${gate.capability.side} capability ${gate.capability.path.join(".")}, which the ${gate.capability.side} did not declare`,
      code,
      gate.capability,
    );
  }
  return undefined;
}

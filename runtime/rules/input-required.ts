// Multi round-trip results (the MRTR page): only the requests that may ask for input do, and a
// result asking for input carries input requests, request state or both. Checked by the server
// before it answers and by the client before it retries.
import { isObject } from "../jsonrpc.js";
import type { InputRequiredFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const INPUT_REQUIRED_METHODS = "INPUT_REQUIRED_METHODS";
export const INPUT_REQUIRED_CONTENT = "INPUT_REQUIRED_CONTENT";

/** Whether a result asks for input. */
export function asksForInput(facts: InputRequiredFact, result: unknown): boolean {
  return isObject(result) && result[facts.marker.field] === facts.marker.value;
}

export function inputRequiredViolation(
  facts: InputRequiredFact,
  method: string,
  result: unknown,
): RuleViolation | undefined {
  if (!asksForInput(facts, result)) return undefined;
  if (!facts.methods.includes(method))
    return new RuleViolation(INPUT_REQUIRED_METHODS, `a ${method} result may not ask for input`);
  const r = result as { [key: string]: unknown };
  if (r[facts.requests] === undefined && r[facts.state] === undefined)
    return new RuleViolation(
      INPUT_REQUIRED_CONTENT,
      `a ${method} result asks for input with neither ${facts.requests} nor ${facts.state}`,
    );
  return undefined;
}

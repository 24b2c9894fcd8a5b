// Result kinds (the base protocol page, 2026-07-28 on): a result says in one field what kind it
// is, so that its receiver knows how to read it. A kind the receiver does not recognise makes the
// result invalid; a missing one means complete. The kinds recognised are the core protocol's (the
// schema's literals): mcp-gen supports no extension that adds any.
import { isObject } from "../jsonrpc.js";
import type { ResultTypesFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const RESULT_TYPE_RECOGNISED = "RESULT_TYPE_RECOGNISED";

/** Whether a result's kind is one recognised, or missing (complete). */
export function recognisedKind(facts: ResultTypesFact, result: unknown): boolean {
  const kind = isObject(result) ? result[facts.field] : undefined;
  return kind === undefined || (typeof kind === "string" && facts.values.includes(kind));
}

/** A result whose kind is present and none of the recognised ones. */
export function resultTypeViolation(
  facts: ResultTypesFact,
  method: string,
  result: unknown,
): RuleViolation | undefined {
  if (recognisedKind(facts, result)) return undefined;
  const kind = (result as { [key: string]: unknown })[facts.field];
  const known = facts.values.map((v) => JSON.stringify(v)).join(", ");
  return new RuleViolation(
    RESULT_TYPE_RECOGNISED,
    `a ${method} result of ${facts.field} ${JSON.stringify(kind)}, which is not one this revision knows (${known})`,
  );
}

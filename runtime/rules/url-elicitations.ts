// URL-mode elicitations a client was given (by request, or listed in a required-elicitation
// error), so that a completion notification is passed on only for an id it knows and that has
// not completed yet (the elicitation page: clients ignore the others).
import { isObject, RpcError } from "../jsonrpc.js";
import type { UrlElicitationFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const ELICITATION_COMPLETE_KNOWN = "ELICITATION_COMPLETE_KNOWN";
export const ELICITATION_REQUIRED_ERROR = "ELICITATION_REQUIRED_ERROR";

/** Ids kept at most; the oldest go first (a server that never completes cannot grow the client). */
const MAX_PENDING = 1024;

export class UrlElicitations {
  private readonly pending = new Set<unknown>();

  constructor(private readonly facts: UrlElicitationFact) {}

  /** An elicitation request this client received. */
  requested(method: string, params: unknown): void {
    if (method !== this.facts.request || !isObject(params)) return;
    if (params[this.facts.mode.field] === this.facts.mode.value) this.add(params[this.facts.id]);
  }

  /** An error a request got: the required-elicitation error lists URL elicitations by their params. */
  failed(error: unknown): void {
    const required = this.facts.requiredError;
    if (!required || !(error instanceof RpcError) || error.code !== required.code) return;
    const listed = isObject(error.data) ? error.data[required.data] : undefined;
    if (Array.isArray(listed)) for (const params of listed) if (isObject(params)) this.add(params[this.facts.id]);
  }

  /** A completion notification: undefined when it may pass (and the id is done), else why not. */
  completed(params: unknown): RuleViolation | undefined {
    const id = isObject(params) ? params[this.facts.id] : undefined;
    if (this.pending.delete(id)) return undefined;
    return new RuleViolation(
      ELICITATION_COMPLETE_KNOWN,
      `${this.facts.complete} for ${JSON.stringify(id)}, which is unknown or already completed: ignored`,
    );
  }

  private add(id: unknown): void {
    if (typeof id !== "string") return;
    this.pending.delete(id);
    this.pending.add(id);
    if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.values().next().value);
  }
}

/**
 * A required-elicitation error a handler threw: it must list the URL-mode elicitations the
 * request needs first, each with its id. Undefined for any other error, or a well-formed one.
 */
export function requiredElicitationViolation(facts: UrlElicitationFact, error: unknown): RuleViolation | undefined {
  const required = facts.requiredError;
  if (!required || !(error instanceof RpcError) || error.code !== required.code) return undefined;
  const listed = isObject(error.data) ? error.data[required.data] : undefined;
  const wellFormed =
    Array.isArray(listed) &&
    listed.length > 0 &&
    listed.every((p) => isObject(p) && p[facts.mode.field] === facts.mode.value && typeof p[facts.id] === "string");
  if (wellFormed) return undefined;
  return new RuleViolation(
    ELICITATION_REQUIRED_ERROR,
    `error ${required.code} must list in data.${required.data} the ${facts.mode.value}-mode elicitations needed, each with its ${facts.id}`,
  );
}

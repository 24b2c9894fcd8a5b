// A protocol rule broken, named by its id in docs/protocol-rules.md (spec/protocol-rules.json).
import { ErrorCode, RpcError } from "../jsonrpc.js";
import type { CapabilityFact } from "./facts.js";

/**
 * A message that breaks a rule of the spec's pages. Incoming requests that break one are answered
 * with it (the code the page prescribes, else -32602); everything else this side refuses (a call
 * it was about to make, an answer of its own handler, an answer from the other side) fails with
 * code -32603: the side that sees it did nothing wrong.
 */
export class RuleViolation extends RpcError {
  constructor(
    readonly rule: string,
    detail: string,
    code: number = ErrorCode.InternalError,
    /** The capability whose absence is the violation (side and path), when that is what it is. */
    readonly missing?: CapabilityFact,
  ) {
    super(code, `${detail} (rule ${rule})`, { rule });
    this.name = "RuleViolation";
  }
}

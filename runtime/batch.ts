// The answer to one incoming JSON-RPC batch: JSON-RPC 2.0 answers a batch with one array holding
// a response to each of its requests (in any order), sent once all of them are done, and with
// nothing when there is nothing to answer (only notifications and responses).
import type { JsonRpcMessage } from "./jsonrpc.js";

export class BatchReply {
  private readonly replies: JsonRpcMessage[] = [];
  // Starts at 1 for the batch itself, so that a request answered while later elements are still
  // being routed cannot flush the array early.
  private open = 1;

  private readonly flush: (replies: JsonRpcMessage[]) => void;

  constructor(flush: (replies: JsonRpcMessage[]) => void) {
    this.flush = flush;
  }

  add(reply: JsonRpcMessage): void {
    this.replies.push(reply);
  }

  /** A request of the batch is being served; `end()` once it is done, answered or not (cancelled). */
  begin(): void {
    this.open++;
  }

  /** Called once per `begin()` and once after the batch's last element has been routed. */
  end(): void {
    if (--this.open === 0 && this.replies.length > 0) this.flush(this.replies);
  }
}

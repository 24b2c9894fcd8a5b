// Errors a host's caller (or a server, for denied sampling) sees; each names the server it is about.
import { ConnectionClosedError, ErrorCode, RpcError } from "../runtime/index.js";

/** The code the protocol's sampling flow uses for a request the user rejected. */
export const USER_REJECTED = -1;

/** The server is not connected (it crashed, is restarting, or the host closed): its calls fail with this. */
export class ServerDownError extends ConnectionClosedError {
  constructor(
    readonly server: string,
    reason: string,
  ) {
    super(`server ${JSON.stringify(server)} is down: ${reason}`);
    this.name = "ServerDownError";
  }
}

/** A request to a server got no answer within the server's timeout. */
export class ServerTimeoutError extends RpcError {
  constructor(
    readonly server: string,
    readonly method: string,
    readonly timeoutMs: unknown,
  ) {
    super(ErrorCode.RequestTimeout, `server ${JSON.stringify(server)}: ${method} timed out after ${timeoutMs} ms`, {
      timeoutMs,
    });
    this.name = "ServerTimeoutError";
  }
}

/** The consent hook (or its absence) said no. Sent to the server as is for sampling. */
export class ConsentDeniedError extends RpcError {
  constructor(
    readonly server: string,
    readonly kind: "sampling" | "toolCall",
    readonly reason: string,
  ) {
    super(
      USER_REJECTED,
      kind === "sampling" ? `User rejected sampling request: ${reason}` : `tool call denied: ${reason}`,
    );
    this.name = "ConsentDeniedError";
  }
}

/** An id that names no tool, prompt or resource of a server the host knows. */
export class UnknownIdError extends RpcError {
  constructor(
    readonly id: string,
    what: string,
  ) {
    super(ErrorCode.InvalidParams, `no ${what} ${JSON.stringify(id)}`, { id });
    this.name = "UnknownIdError";
  }
}

/** No revision this host speaks was accepted by the server; `attempts` says what each offer got. */
export class NegotiationError extends Error {
  constructor(
    readonly server: string,
    readonly attempts: readonly string[],
  ) {
    super(`server ${JSON.stringify(server)}: no common protocol revision (${attempts.join("; ")})`);
    this.name = "NegotiationError";
  }
}

// JSON-RPC 2.0 messages and errors as the runtime sees them, independent of any revision.
// Generated code narrows these with the revision's own types and validators.

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: { [key: string]: unknown } | undefined;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown } | undefined;
}

export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: { [key: string]: unknown };
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id?: RequestId | undefined;
  error: JsonRpcErrorObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/**
 * JSON-RPC 2.0 error codes, and two codes in the implementation-defined range that the official
 * TypeScript SDK uses for the same conditions (so errors read the same on both sides).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
} as const;

/** An error that travels as a JSON-RPC error object: thrown by handlers, received by callers. */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** One failed check of a message, as the generated validators report it. */
export interface ValidationIssue {
  readonly path: string;
  readonly expected: string;
  readonly message: string;
}

/** Validation issues as one line of an error message: each failing path and why. */
export function issuesText(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ");
}

/** A result from the other side that does not match its method's type: names the failing paths. */
export class ResultValidationError extends RpcError {
  readonly method: string;
  readonly issues: readonly ValidationIssue[];

  constructor(method: string, issues: readonly ValidationIssue[]) {
    super(ErrorCode.InvalidParams, `invalid ${method} result: ${issuesText(issues)}`, { issues });
    this.name = "ResultValidationError";
    this.method = method;
    this.issues = issues;
  }
}

/** A request as errors name it: its method, and the tool or prompt (`name`) or resource (`uri`) it is about. */
export function requestName(method: string, params: object | undefined): string {
  const p = params as { [key: string]: unknown } | undefined;
  const about = typeof p?.["name"] === "string" ? p["name"] : typeof p?.["uri"] === "string" ? p["uri"] : undefined;
  return about === undefined ? method : `${method} ${JSON.stringify(about)}`;
}

/**
 * This side's handler failed a request: it threw, or answered with no valid result of its
 * method. -32603 naming the request; the Peer also reports it to onError. What a handler threw
 * may hold paths or secrets: the caller is told only "Internal error" (`toJSON`), while
 * `message` says what was thrown, and `cause` is it, stack and all.
 */
export class HandlerError extends RpcError {
  /** The message the caller gets. */
  private readonly told: string;

  constructor(message: string, options: { told?: string; data?: unknown; cause?: unknown } = {}) {
    super(ErrorCode.InternalError, message, options.data);
    this.name = "HandlerError";
    this.told = options.told ?? message;
    if (options.cause !== undefined) this.cause = options.cause;
  }

  override toJSON(): JsonRpcErrorObject {
    return { ...super.toJSON(), message: this.told };
  }

  /** What a handler threw (anything but an RpcError, which travels as it is). */
  static thrown(method: string, params: object | undefined, error: unknown): HandlerError {
    const name = requestName(method, params);
    const reason = error instanceof Error ? error.message : String(error);
    return new HandlerError(`${name} failed: ${reason}`, { told: `${name} failed: Internal error`, cause: error });
  }

  /** A handler's answer that is no valid result: the failing paths, relative to the result. */
  static invalid(
    method: string,
    params: object | undefined,
    result: unknown,
    issues: readonly ValidationIssue[],
  ): HandlerError {
    const what = result === undefined ? "returned undefined" : "returned an invalid result";
    return new HandlerError(`${requestName(method, params)} ${what}: ${issuesText(issues)}`, { data: { issues } });
  }
}

/** The peer closed, or the connection dropped, before the answer came. */
export class ConnectionClosedError extends RpcError {
  constructor(reason = "connection closed") {
    super(ErrorCode.ConnectionClosed, reason);
    this.name = "ConnectionClosedError";
  }
}

/** The result of a response (a message without a method), if the message is one. */
export function responseResult(message: unknown): unknown {
  const m = typeof message === "object" && message !== null ? (message as { [key: string]: unknown }) : {};
  return m["method"] === undefined ? m["result"] : undefined;
}

export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// JSON-RPC 2.0 messages and errors as the runtime sees them, independent of any revision.
// Generated code narrows these with the revision's own types and validators.

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown };
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
  id?: RequestId;
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

/** A result from the other side that does not match its method's type: names the failing paths. */
export class ResultValidationError extends RpcError {
  readonly method: string;
  readonly issues: readonly ValidationIssue[];

  constructor(method: string, issues: readonly ValidationIssue[]) {
    super(
      ErrorCode.InvalidParams,
      `invalid ${method} result: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`,
      { issues },
    );
    this.name = "ResultValidationError";
    this.method = method;
    this.issues = issues;
  }
}

/** The peer closed, or the connection dropped, before the answer came. */
export class ConnectionClosedError extends RpcError {
  constructor(reason = "connection closed") {
    super(ErrorCode.ConnectionClosed, reason);
    this.name = "ConnectionClosedError";
  }
}

export function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

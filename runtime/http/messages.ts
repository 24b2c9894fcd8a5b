// What the two HTTP client transports (Streamable HTTP, and the HTTP+SSE transport of 2024-11-05)
// share: the error for an HTTP status, the JSON-RPC message an SSE `message` event carries, and a
// body read up to a limit.
import { isObject, type JsonRpcMessage } from "../jsonrpc.js";

/** The server answered an HTTP request with an error status. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
  }
}

/**
 * The messages in an event's data, each one or the error to report in its place (the stream goes
 * on either way). One message, or several when the event carries a JSON-RPC batch (a 2025-03-26
 * server may batch what it sends).
 */
export function eventMessages(data: string): (JsonRpcMessage | Error)[] {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return [new Error(`an SSE event that is not JSON: ${data.slice(0, 100)}`)];
  }
  if (!Array.isArray(value)) return [asMessage(value)];
  return value.length === 0 ? [new Error("an SSE event with an empty JSON-RPC batch")] : value.map(asMessage);
}

/** A parsed value as a message, or the error to report when it cannot be one. */
export function asMessage(value: unknown): JsonRpcMessage | Error {
  if (!isObject(value)) return new Error("the server sent something that is not a JSON-RPC message");
  return value as unknown as JsonRpcMessage;
}

/** A body's text; undefined once it grows past `limit` bytes (the rest is not read). */
export async function readText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return text + decoder.decode();
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}

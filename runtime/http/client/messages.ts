// What the two HTTP client transports (Streamable HTTP, and the HTTP+SSE transport of 2024-11-05)
// share: the error for an HTTP status (readable when its body is a proxy's HTML page), the
// JSON-RPC message an SSE `message` event carries, and a body read up to a limit.
import { isObject, type JsonRpcMessage } from "../../jsonrpc.js";

/**
 * The server answered an HTTP request with an error status. The message says what the status
 * means where it is a proxy's (a load balancer answers 502 when the node behind it died) and
 * gives the body's text: an HTML error page, as proxies send, is reduced to what it says.
 */
export class HttpError extends Error {
  readonly status: number;
  /** The body as received. */
  readonly body: string;

  constructor(status: number, body: string) {
    const meaning = GATEWAY_STATUSES[status];
    const said = summarize(body);
    super(`HTTP ${status}${meaning ? ` (${meaning})` : ""}${said ? `: ${said}` : ""}`);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
  }
}

/** Statuses only a proxy or load balancer in front of the server answers. */
const GATEWAY_STATUSES: { readonly [status: number]: string } = {
  502: "a proxy or load balancer in front of the MCP server got no valid answer from it",
  504: "a proxy or load balancer in front of the MCP server got no answer from it in time",
};

const ENTITIES: { readonly [entity: string]: string } = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&nbsp;": " ",
};

/** A body for a message, at most 200 characters: an HTML page's text on one line (its title when its body has none). */
function summarize(body: string): string {
  if (!/^\s*<(!doctype|html|head|body)\b/i.test(body)) return body.slice(0, 200);
  const text = (html: string) =>
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
      .replace(/\s+/g, " ")
      .trim();
  const page = text(body.replace(/<head\b[\s\S]*?<\/head\s*>/i, " "));
  const title = text(/<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(body)?.[1] ?? "");
  return (page || title).slice(0, 200);
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

// Server-sent events as the HTTP transports use them: writing one event, and reading
// a stream of them back incrementally (chunks may split lines anywhere). Only the fields MCP
// uses matter here: `id` (the resumption cursor), `retry` (how long to wait before reconnecting),
// `event` and `data`. See https://html.spec.whatwg.org/multipage/server-sent-events.html.

export interface SseEvent {
  /** The event type; "message" when the stream did not name one. */
  readonly event: string;
  readonly data: string;
  /** The event's own `id` field, when it had one. */
  readonly id: string | undefined;
}

/** One event in wire form. `data` may hold newlines: each line becomes its own `data:` field. */
export function formatSseEvent(fields: { id?: string; retryMs?: number; event?: string; data: string }): string {
  let out = "";
  if (fields.event !== undefined) out += `event: ${fields.event}\n`;
  if (fields.id !== undefined) out += `id: ${fields.id}\n`;
  if (fields.retryMs !== undefined) out += `retry: ${Math.max(0, Math.floor(fields.retryMs))}\n`;
  for (const line of fields.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Parses an event stream fed in chunks of text. Events are reported when their blank line
 * arrives; `lastEventId` and `retryMs` keep the stream's latest values, as a reconnecting
 * client needs them.
 */
export class SseParser {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  private buffered = "";
  private started = false;
  private eventType = "";
  private data: string[] = [];
  private eventId: string | undefined;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(chunk: string): void {
    let text = this.buffered + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    for (;;) {
      const end = lineEnd(text, start);
      if (end < 0) break;
      // A lone "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
      if (text[end] === "\r" && end + 1 === text.length) break;
      this.line(text.slice(start, end));
      start = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
    }
    this.buffered = text.slice(start);
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.eventType = value;
    else if (field === "id" && !value.includes("\0")) {
      this.eventId = value;
      this.lastEventId = value;
    } else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    const id = this.eventId;
    const had = this.data.length > 0;
    const event: SseEvent = { event: this.eventType || "message", data: this.data.join("\n"), id };
    this.eventType = "";
    this.data = [];
    this.eventId = undefined;
    if (had || id !== undefined) this.onEvent(event);
  }
}

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return -1;
}

/**
 * Feeds a response body into `parser` until the stream ends. Throws what the stream throws
 * (a dropped connection, or the abort of the request).
 */
export async function readSseBody(body: ReadableStream<Uint8Array> | null, parser: SseParser): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return;
    parser.push(decoder.decode(chunk.value, { stream: true }));
  }
}

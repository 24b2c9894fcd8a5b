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

export interface SseParserOptions {
  /**
   * The longest event accepted, in UTF-16 code units of its lines (default 64 Mi, as the stdio
   * transport's line limit). A longer one is dropped whole, up to its blank line, and reported:
   * a server cannot make the client hold an endless event in memory.
   */
  maxEventLength?: number;
  /** Told about each event dropped for its length. */
  onError?: (error: Error) => void;
}

/**
 * Parses an event stream fed in chunks of text. Events are reported when their blank line
 * arrives; `lastEventId` and `retryMs` keep the stream's latest values, as a reconnecting
 * client needs them. Linear in the stream's length however it is chunked: a line that spans
 * chunks is kept as its pieces and joined once.
 */
export class SseParser {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  private started = false;
  /** The pieces of a line whose end has not arrived yet. */
  private partial: string[] = [];
  /** Whether the last chunk ended in "\r", whose "\n" may start the next one. */
  private afterCr = false;
  private eventType = "";
  private data: string[] = [];
  private eventId: string | undefined;
  /** Code units held for the current event: its data lines and the partial line. */
  private held = 0;
  /** Dropping an over-long event until its blank line. */
  private dropping = false;
  private readonly maxEventLength: number;
  private readonly onEvent: (event: SseEvent) => void;
  private readonly options: SseParserOptions;

  constructor(onEvent: (event: SseEvent) => void, options: SseParserOptions = {}) {
    this.onEvent = onEvent;
    this.options = options;
    this.maxEventLength = options.maxEventLength ?? 64 * 1024 * 1024;
  }

  push(chunk: string): void {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = this.afterCr && text.charCodeAt(0) === 10 ? 1 : 0;
    if (text.length > 0) this.afterCr = false;
    for (;;) {
      const end = lineEnd(text, start);
      if (end < 0) break;
      const piece = text.slice(start, end);
      const line = this.partial.length > 0 ? this.partial.join("") + piece : piece;
      this.partial = [];
      this.held -= line.length - piece.length;
      this.line(line);
      if (text.charCodeAt(end) === 13 && end + 1 === text.length) this.afterCr = true;
      start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    }
    if (start < text.length) {
      const rest = text.slice(start);
      this.held += rest.length;
      // While dropping, only whether the line is empty matters (a blank line ends the event).
      this.partial.push(this.dropping ? "x" : rest);
    }
    if (!this.dropping && this.held > this.maxEventLength) this.drop();
  }

  private line(line: string): void {
    if (this.dropping) {
      if (line === "") {
        this.dropping = false;
        this.held = 0;
      }
      return;
    }
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.held += value.length;
    } else if (field === "event") this.eventType = value;
    else if (field === "id" && !value.includes("\0")) {
      this.eventId = value;
      this.lastEventId = value;
    } else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private drop(): void {
    this.dropping = true;
    this.data = [];
    this.eventType = "";
    this.eventId = undefined;
    this.partial = this.partial.length > 0 ? ["x"] : [];
    this.held = 0;
    this.options.onError?.(new Error(`an SSE event longer than ${this.maxEventLength} characters was dropped`));
  }

  private dispatch(): void {
    const id = this.eventId;
    const had = this.data.length > 0;
    const event: SseEvent = { event: this.eventType || "message", data: this.data.join("\n"), id };
    this.eventType = "";
    this.data = [];
    this.eventId = undefined;
    this.held = 0;
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

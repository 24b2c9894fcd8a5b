// One request of a stateless revision (2026-07-28 and later) over HTTP, as a Transport: a
// stateless server connects to it for the length of one POST. The answer goes back as a JSON
// body, unless something related to the request comes first (progress, a log message, a
// subscription's notifications): then the response turns into an SSE stream that carries those
// and ends with the answer. The client closing the response cancels the request.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import type { MessageExtra } from "../../auth/auth-info.js";
import { ErrorCode, type JsonRpcMessage } from "../../jsonrpc.js";
import type { HttpBinding, Transport } from "../../transport.js";
import { formatSseEvent } from "../sse.js";

/** Where an exchange's answer goes: the one HTTP response. */
export interface ExchangeOutput {
  /** The whole answer as one JSON body. */
  respond(status: number, body: string): void;
  /** Turns the response into an event stream; `write` takes SSE text. */
  openStream(): { write(text: string): void; end(): void };
}

/** Codes that mean the request itself is wrong, answered with 400 whoever raised them. */
const BAD_REQUEST_CODES: readonly number[] = [ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams];

/** The HTTP status of an answer: 404 for an unknown method, 400 for a request refused as wrong, else 200. */
export function answerStatus(message: JsonRpcMessage, binding: HttpBinding | undefined): number {
  if (!("error" in message) || !message.error) return 200;
  const code = message.error.code;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (BAD_REQUEST_CODES.includes(code)) return 400;
  if (binding?.kind === "stateless")
    if (code === binding.headerMismatch || code === binding.missingCapability || code === binding.unsupportedVersion)
      return 400;
  return 200;
}

export class HttpExchange implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  private readonly request: JsonRpcMessage;
  private readonly output: ExchangeOutput;
  private readonly extra: MessageExtra | undefined;
  /** Shown the answer before it goes out (the endpoint learns its tools' header annotations from listings). */
  onAnswer?: ((answer: JsonRpcMessage) => void) | undefined;
  private binding: HttpBinding | undefined;
  private stream: { write(text: string): void; end(): void } | undefined;
  private answered = false;
  private closed = false;

  /** `extra`: what the endpoint knows of the sender (its verified token), handed over with the request. */
  constructor(request: JsonRpcMessage, output: ExchangeOutput, extra?: MessageExtra) {
    this.request = request;
    this.output = output;
    this.extra = extra;
    // A notification gets no answer: its exchange ends once it is handed over.
    this.answered = !("id" in request);
  }

  async start(): Promise<void> {}

  setHttpBinding(binding: HttpBinding): void {
    this.binding = binding;
  }

  /** Hands the request (or notification) to the connected server. */
  deliver(): void {
    // The client may have gone away while the server was connecting: nothing to serve then.
    if (this.closed) return;
    this.onmessage?.(this.request, this.extra);
    if (!("id" in this.request)) void this.close();
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (Array.isArray(message)) throw new Error("no JSON-RPC batches at this revision");
    if (this.answered || this.closed) throw new Error("this request's response is already complete");
    const data = JSON.stringify(message);
    if ("method" in message) {
      // Server→client requests travel inside results at these revisions, never as messages.
      if ("id" in message) throw new Error(`${message.method}: no requests to the client over HTTP at this revision`);
      this.stream ??= this.output.openStream();
      this.stream.write(formatSseEvent({ event: "message", data }));
      return;
    }
    this.answered = true;
    this.onAnswer?.(message);
    if (this.stream) {
      this.stream.write(formatSseEvent({ event: "message", data }));
      this.stream.end();
    } else this.output.respond(answerStatus(message, this.binding), data);
    await this.close();
  }

  /** The client went away: the request is cancelled and nothing more is sent. */
  abandon(): void {
    this.answered = true;
    // Its keep-alive timer goes with it: left running, it would hold the response for good.
    this.stream?.end();
    void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Closed before answering (the server shut down): the client still gets an end, and an error
    // where nothing was sent yet.
    if (!this.answered) {
      this.answered = true;
      const id = "id" in this.request ? this.request.id : null;
      const error = { code: ErrorCode.InternalError, message: "the server closed before answering" };
      if (this.stream) this.stream.end();
      else this.output.respond(500, JSON.stringify({ jsonrpc: "2.0", id, error }));
    }
    this.onclose?.();
  }
}

// The client side of Streamable HTTP at stateless revisions (2026-07-28 and later): every message
// is a POST of its own, whose headers mirror its body (MCP-Protocol-Version, Mcp-Method, Mcp-Name,
// and Mcp-Param-* for the annotated arguments of a tool call, learnt from the tool listings that
// pass by). A request is answered with JSON, or on an SSE stream of its own that carries the
// request's notifications first; a refusal's JSON-RPC error body is the answer too. Closing the
// stream cancels the request. A POST whose answer breaks off (or never comes) loses the request,
// which is sent again once under a new id; a refused authorization is no lost request and is not
// sent again (the user would be asked again). No session, GET stream or DELETE. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import { AuthorizationError } from "../../auth/client/errors.js";
import { isObject, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "../../jsonrpc.js";
import type { StatelessHttpBinding } from "../../transport.js";
import { Aborters } from "./aborters.js";
import { readAnnotations, type HeaderAnnotation } from "../header-annotations.js";
import { mirroredHeaders, paramHeaders } from "../headers.js";
import { eventMessages, HttpError, readText } from "./messages.js";
import { readSseBody, SseParser } from "../sse.js";

/** What the transport lends to the requests it posts. */
export interface PostingContext {
  readonly url: URL;
  readonly fetch: typeof fetch;
  /** The caller's own headers (credentials, say), sent with every POST. */
  readonly headers: Record<string, string>;
  /** The largest JSON answer or SSE event taken, in bytes. */
  readonly maxMessageBytes: number;
  deliver(message: JsonRpcMessage): void;
  report(error: Error): void;
  /** The error for an HTTP status that carries no JSON-RPC answer. */
  httpError(status: number, body: string): HttpError;
}

/** A refusal's body is read this far for its JSON-RPC error; the rest is not. */
const ERROR_BODY_BYTES = 64 * 1024;
/** Ids of re-sent requests: strings, so they never meet the numbers peers count with. */
const REISSUE_PREFIX = "mcp-gen-reissued-";

/** One request in flight, by the id its caller gave it. */
interface Post {
  /** The POST being read now (none between a broken stream and the request sent again). */
  controller: AbortController | undefined;
  cancelled: boolean;
}

/** How one POST of a request ended: with its answer (or cancelled), or with its stream broken. */
type Outcome = { readonly broke: undefined } | { readonly broke: Error };
const ANSWERED: Outcome = { broke: undefined };

export class StatelessPosts {
  private readonly posts = new Map<RequestId, Post>();
  /** Notifications being posted (each is answered 202 and nothing else). */
  private readonly notifying = new Aborters();
  /** Tool name → its annotated arguments, from the latest listing that named the tool. */
  private readonly annotations = new Map<string, readonly HeaderAnnotation[]>();
  private reissued = 0;
  private closed = false;
  private readonly binding: StatelessHttpBinding;
  private readonly context: PostingContext;

  constructor(binding: StatelessHttpBinding, context: PostingContext) {
    this.binding = binding;
    this.context = context;
  }

  /** Settles when the message's exchange is over: a request once its answer has been delivered. */
  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (Array.isArray(message) || !("method" in message))
      throw new Error("clients send no responses or batches at this revision");
    if ("id" in message) return this.request(message);
    const controller = this.notifying.take();
    try {
      const response = await this.context.fetch(this.context.url, {
        method: "POST",
        headers: this.headers(message),
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      if (!response.ok)
        throw this.context.httpError(response.status, (await readText(response.body, ERROR_BODY_BYTES)) ?? "");
    } finally {
      controller.abort();
      this.notifying.release(controller);
    }
  }

  /** Closes the request's stream, which is how it is cancelled; nothing else is to be sent. */
  cancel(id: RequestId): boolean {
    const post = this.posts.get(id);
    if (post) {
      post.cancelled = true;
      post.controller?.abort();
    }
    return true;
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.posts.keys()]) this.cancel(id);
    this.notifying.closeAll();
  }

  private async request(message: JsonRpcRequest): Promise<void> {
    const id = message.id;
    if (this.posts.has(id)) throw new Error(`request id ${JSON.stringify(id)} is already in flight`);
    const post: Post = { controller: undefined, cancelled: false };
    this.posts.set(id, post);
    try {
      let sent = message;
      for (let issue = 1; ; issue++) {
        const { broke } = await this.exchange(sent, id, post);
        if (broke === undefined || post.cancelled || this.closed) return;
        if (issue > 1) throw broke;
        sent = { ...message, id: `${REISSUE_PREFIX}${++this.reissued}` };
      }
    } finally {
      if (this.posts.get(id) === post) this.posts.delete(id);
    }
  }

  /** One POST of a request (`sent`, under the caller's id or a new one) and its answer. */
  private async exchange(sent: JsonRpcRequest, id: RequestId, post: Post): Promise<Outcome> {
    const controller = new AbortController();
    post.controller = controller;
    try {
      let response: Response;
      try {
        response = await this.context.fetch(this.context.url, {
          method: "POST",
          headers: this.headers(sent),
          body: JSON.stringify(sent),
          signal: controller.signal,
        });
      } catch (error) {
        if (post.cancelled || this.closed) return ANSWERED;
        // The authorizing fetch's refusal (declined, a wrong iss, …) is the request's answer.
        if (error instanceof AuthorizationError) throw error;
        // No answer at all (the connection dropped, or there is none): sent again once too; the
        // error is passed on as fetch gave it, its cause (ECONNREFUSED, …) with it.
        return { broke: error instanceof Error ? error : new Error(String(error)) };
      }
      if (!response.ok) return await this.refused(response, sent, id);
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream")) return await this.stream(response, sent, id, post, controller);
      if (type.includes("application/json")) return await this.json(response, sent, id, post);
      await response.body?.cancel();
      throw new Error(
        response.status === 202
          ? `the server accepted ${sent.method} without answering it`
          : `unexpected Content-Type ${JSON.stringify(type)} in the answer to ${sent.method}`,
      );
    } finally {
      // Also lets go of a stream the server keeps open after the answer.
      controller.abort();
      post.controller = undefined;
    }
  }

  /** An error status: its body is the answer when it is a JSON-RPC error for this request. */
  private async refused(response: Response, sent: JsonRpcRequest, id: RequestId): Promise<Outcome> {
    const text = (await readText(response.body, ERROR_BODY_BYTES).catch(() => undefined)) ?? "";
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw this.context.httpError(response.status, text);
    }
    const error = isObject(body) ? body["error"] : undefined;
    // One request per POST: an error without an id (or with null) can only be about this one.
    const about = isObject(body) && (body["id"] === sent.id || body["id"] === null || body["id"] === undefined);
    if (!about || !isObject(error) || typeof error["code"] !== "number" || typeof error["message"] !== "string")
      throw this.context.httpError(response.status, text);
    this.deliver(
      {
        jsonrpc: "2.0",
        id: sent.id,
        error: { code: error["code"], message: error["message"], ...("data" in error ? { data: error["data"] } : {}) },
      },
      sent,
      id,
    );
    return ANSWERED;
  }

  private async json(response: Response, sent: JsonRpcRequest, id: RequestId, post: Post): Promise<Outcome> {
    let text: string | undefined;
    try {
      text = await readText(response.body, this.context.maxMessageBytes);
    } catch (error) {
      if (post.cancelled || this.closed) return ANSWERED;
      return { broke: new Error(`the answer to ${sent.method} broke off: ${errorText(error)}`) };
    }
    if (text === undefined)
      throw new Error(`the answer to ${sent.method} is over ${this.context.maxMessageBytes} bytes`);
    const items = eventMessages(text);
    let answered = false;
    for (const item of items) answered = this.take(item, sent, id) || answered;
    if (!answered) throw new Error(`the JSON answer to ${sent.method} carries no response to it`);
    return ANSWERED;
  }

  private async stream(
    response: Response,
    sent: JsonRpcRequest,
    id: RequestId,
    post: Post,
    controller: AbortController,
  ): Promise<Outcome> {
    let answered = false;
    /** An event dropped for its length may have been the answer: the request fails with that. */
    let dropped: Error | undefined;
    const parser = new SseParser(
      (event) => {
        if (answered || event.data === "" || event.event !== "message") return;
        for (const item of eventMessages(event.data)) {
          if (answered) break;
          answered = this.take(item, sent, id);
        }
        // The stream has done its work: stop reading it (a server may keep it open).
        if (answered) controller.abort();
      },
      {
        maxEventLength: this.context.maxMessageBytes,
        onError: (error) => {
          dropped = error;
          controller.abort();
        },
      },
    );
    // An event dropped for its length aborts the read: then it, not the abort, is the failure's cause.
    const failed = await readSseBody(response.body, parser).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    if (failed) {
      if (dropped) throw new Error(`the stream of ${sent.method}: ${dropped.message}`, { cause: dropped });
      if (answered || post.cancelled || this.closed) return ANSWERED;
      return { broke: new Error(`the stream of ${sent.method} broke before its answer: ${errorText(failed.error)}`) };
    }
    if (answered || post.cancelled || this.closed) return ANSWERED;
    return { broke: new Error(`the stream of ${sent.method} ended without its answer`) };
  }

  /**
   * One message of a request's answer: delivered when it is a notification or this request's
   * answer (true then); anything else is reported and dropped, as servers send no requests to
   * clients at these revisions and a stream carries one request's messages only.
   */
  private take(item: JsonRpcMessage | Error, sent: JsonRpcRequest, id: RequestId): boolean {
    if (item instanceof Error) {
      this.context.report(item);
      return false;
    }
    if ("method" in item) {
      if ("id" in item)
        this.context.report(new Error(`the server sent a request (${item.method}) on the stream of ${sent.method}`));
      else this.deliver(item, sent, id);
      return false;
    }
    if (!("id" in item) || item.id !== sent.id) {
      const named = "id" in item ? JSON.stringify(item.id) : "no id";
      this.context.report(new Error(`an answer to ${named} came on the stream of ${sent.method}`));
      return false;
    }
    this.deliver(item, sent, id);
    return true;
  }

  /**
   * Passes a message on under the caller's id. What a re-sent request's stream names by its new
   * id (the answer, and the `_meta` of its notifications: a subscription's id, say) is shown
   * with the id the caller knows. A tool listing is checked for header annotations on the way.
   */
  private deliver(message: JsonRpcMessage, sent: JsonRpcRequest, id: RequestId): void {
    let incoming = message;
    if (sent.id !== id) {
      if ("id" in incoming && incoming.id === sent.id) incoming = { ...incoming, id };
      const params = "params" in incoming && isObject(incoming.params) ? incoming.params : undefined;
      const meta = params?.["_meta"];
      if (isObject(meta)) {
        const renamed = Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, v === sent.id ? id : v]));
        incoming = { ...incoming, params: { ...params, _meta: renamed } } as JsonRpcMessage;
      }
    }
    if (sent.method === this.binding.paramHeaders.list && "result" in incoming)
      incoming = { ...incoming, result: this.learn(incoming.result) };
    this.context.deliver(incoming);
  }

  /**
   * Remembers each listed tool's annotated arguments; a tool whose annotations break the rules
   * is left out of the listing (the client must not offer it), with a warning naming it.
   */
  private learn(result: { [key: string]: unknown }): { [key: string]: unknown } {
    const { items, schema, annotation } = this.binding.paramHeaders;
    const tools = result[items];
    if (!Array.isArray(tools)) return result;
    const kept = tools.filter((tool: unknown) => {
      if (!isObject(tool) || typeof tool["name"] !== "string") return true;
      const found = readAnnotations(tool[schema], annotation);
      if (typeof found === "string") {
        this.context.report(new Error(`tool ${JSON.stringify(tool["name"])} left out: ${found}`));
        this.annotations.delete(tool["name"]);
        return false;
      }
      if (found.length > 0) this.annotations.set(tool["name"], found);
      else this.annotations.delete(tool["name"]);
      return true;
    });
    return kept.length === tools.length ? result : { ...result, [items]: kept };
  }

  /** The headers of one POST: the caller's, the media types, and those mirroring the body. */
  private headers(message: JsonRpcMessage): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.context.headers,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...mirroredHeaders(message, this.binding),
    };
    const { call, name, arguments: args } = this.binding.paramHeaders;
    const params = "params" in message && isObject(message.params) ? message.params : undefined;
    const tool = "method" in message && message.method === call ? params?.[name] : undefined;
    const annotations = typeof tool === "string" ? this.annotations.get(tool) : undefined;
    if (annotations) Object.assign(headers, paramHeaders(annotations, params?.[args]));
    return headers;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The MCP endpoint as a Web-standard handler, `(request: Request) => Promise<Response>`, for
// Deno, Bun, Cloudflare Workers and Fetch-API frameworks (Hono, …): the request is read through
// the same node:http-shaped interface the endpoint serves, and the response it writes becomes a
// Response, JSON at once or an SSE body streamed as it is written. The client cancelling the
// body (or the request's signal aborting) is the client going away.
import type { HttpRequestLike, HttpResponseLike } from "./request.js";

type Handle = (req: HttpRequestLike, res: HttpResponseLike) => Promise<void>;

/** Reads a Request as the endpoint reads node:http's IncomingMessage. */
function requestLike(request: Request): HttpRequestLike {
  const headers: { [name: string]: string } = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const url = new URL(request.url);
  // Behind a Fetch-API runtime the Host header may be absent from `headers`: the URL has it.
  headers["host"] ??= url.host;
  const body = request.body;
  return {
    method: request.method,
    url: url.pathname + url.search,
    headers,
    async *[Symbol.asyncIterator]() {
      if (!body) return;
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

/** A node:http-shaped response that resolves into a Response once its status and headers are known. */
function responseLike(signal: AbortSignal): { res: HttpResponseLike; response: Promise<Response> } {
  let resolve!: (response: Response) => void;
  const response = new Promise<Response>((r) => (resolve = r));
  const encoder = new TextEncoder();
  const closeListeners: (() => void)[] = [];
  let status = 200;
  let headers: { [name: string]: string } = {};
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const state = { headersSent: false, writableEnded: false, destroyed: false };
  const closed = () => {
    if (state.destroyed) return;
    state.destroyed = true;
    for (const listener of closeListeners.splice(0)) listener();
  };
  signal.addEventListener("abort", closed, { once: true });
  // Counted in bytes from a mark of 0: the queue's size is what the client has not read yet.
  const streaming = () =>
    new ReadableStream<Uint8Array>(
      { start: (c) => void (controller = c), cancel: closed },
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
  const res: HttpResponseLike = {
    get headersSent() {
      return state.headersSent;
    },
    get writableEnded() {
      return state.writableEnded;
    },
    get destroyed() {
      return state.destroyed;
    },
    get writableLength() {
      return Math.max(0, -(controller?.desiredSize ?? 0));
    },
    writeHead(code, fields = {}) {
      status = code;
      headers = fields;
      state.headersSent = true;
      // An event stream is answered at once; a plain body when it ends.
      if (/^text\/event-stream/i.test(headers["Content-Type"] ?? ""))
        resolve(new Response(streaming(), { status, headers }));
    },
    write(chunk) {
      if (state.writableEnded || state.destroyed || !controller) return false;
      controller.enqueue(encoder.encode(chunk));
      return true;
    },
    end(chunk) {
      if (state.writableEnded) return;
      state.writableEnded = true;
      if (controller) {
        if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
        if (!state.destroyed) controller.close();
      } else {
        const noBody = status === 202 || status === 204;
        resolve(new Response(noBody ? null : (chunk ?? ""), { status, headers }));
      }
      closed();
    },
    on(_event, listener) {
      closeListeners.push(listener);
    },
    destroy() {
      state.writableEnded = true;
      if (controller && !state.destroyed) controller.error(new Error("the client does not read its stream"));
      closed();
    },
  };
  return { res, response };
}

/** The endpoint's node:http-shaped handler as a Web-standard one. */
export function fetchHandler(handle: Handle): (request: Request) => Promise<Response> {
  return async (request) => {
    const { res, response } = responseLike(request.signal);
    // The handler answers every request (errors included); the Response exists once it has.
    void handle(requestLike(request), res);
    return response;
  };
}

// A request handler in node:http's shape, and the same handler as a Web-standard one. The shapes
// of node:http's IncomingMessage and ServerResponse that a handler uses are typed here, so that
// vendored code compiles without @types/node. `fetchHandler` makes such a handler a
// `(request: Request) => Promise<Response>`, for Deno, Bun, Cloudflare Workers and Fetch-API
// frameworks (Hono, …): the request is read through the node:http-shaped interface, and the
// response the handler writes becomes a Response, JSON at once or an SSE body streamed as it is
// written. The client cancelling the body (or the request's signal aborting) is the client going
// away. Both the MCP endpoint (http/server/) and its protected resource metadata (auth/server/)
// are served through it: it stands beside both folders so that auth does not import http.

/** What a handler uses of node:http's IncomingMessage. */
export interface HttpRequestLike extends AsyncIterable<unknown> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { [name: string]: string | string[] | undefined };
  /** node:http's events; the body is read through them where they exist (cheaper than async iteration). */
  on?(event: "data" | "end" | "error" | "close", listener: (value?: unknown) => void): unknown;
  destroy?(): unknown;
}

/** What a handler uses of node:http's ServerResponse. */
export interface HttpResponseLike {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  /** Bytes written but not yet taken by the client; a stream whose client stops reading grows it. */
  readonly writableLength?: number;
  writeHead(status: number, headers?: { [name: string]: string }): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  on(event: "close", listener: () => void): unknown;
  /** Ends the connection at once (a client that reads nothing). */
  destroy?(): unknown;
}

type Handle = (req: HttpRequestLike, res: HttpResponseLike) => Promise<void>;

/** Reads a Request as a handler reads node:http's IncomingMessage. */
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

/** A node:http-shaped handler as a Web-standard one. */
export function fetchHandler(handle: Handle): (request: Request) => Promise<Response> {
  return async (request) => {
    const { res, response } = responseLike(request.signal);
    // The handler answers every request (errors included); the Response exists once it has.
    void handle(requestLike(request), res);
    return response;
  };
}

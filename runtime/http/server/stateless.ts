// The stateless half of the MCP endpoint (2026-07-28 and later): each POST is one request or
// notification, its headers must mirror its body, and the one server connects to an HttpExchange
// for it. An answer is JSON unless notifications come first (an SSE stream then), which keeps
// long-lived streams alive with comments and drops a client that stops reading.
import { extraOf, type AuthInfo } from "../../auth/auth-info.js";
import type { HttpRequestLike, HttpResponseLike } from "../../http-handler.js";
import { ErrorCode } from "../../jsonrpc.js";
import type { StatelessHttpBinding, Transport } from "../../transport.js";
import { claimedVersion, headerMismatch, VERSION_HEADER } from "../headers.js";
import type { Classified } from "./classify.js";
import { HttpExchange, type ExchangeOutput } from "./exchange.js";
import { ToolHeaders } from "./tool-headers.js";
import { header, refuse, writeBounded } from "./request.js";

/** What the endpoint needs of a stateless server: generated servers of those revisions are one. */
export interface StatelessServer {
  readonly http: { readonly kind: string };
  connect(transport: Transport): Promise<void>;
}

export interface StatelessOptions {
  /** An SSE comment this often on an open stream, so that idle intermediaries keep it (ms, default 15 000). */
  keepAliveMs?: number | undefined;
  /** A stream whose client leaves this many bytes unread is closed, cancelling its request (default 4 MiB). */
  maxBufferedBytes?: number | undefined;
}

/** The stream a response turns into when something comes before the answer. */
function streamOutput(res: HttpResponseLike, options: StatelessOptions): ExchangeOutput {
  const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  return {
    respond(status, body) {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(body);
    },
    openStream() {
      res.writeHead(200, {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache, no-transform",
        // Proxies (nginx) must pass events on as they come.
        "X-Accel-Buffering": "no",
      });
      let ended = false;
      const write = (text: string) => {
        if (ended || writeBounded(res, text, maxBuffered)) return;
        ended = true;
        clearInterval(timer);
      };
      const timer = setInterval(() => write(":\n\n"), keepAliveMs);
      (timer as { unref?: () => void }).unref?.();
      return {
        write,
        end() {
          ended = true;
          clearInterval(timer);
          if (!res.writableEnded) res.end();
        },
      };
    },
  };
}

/** Each server's tools' header annotations, as its own listings declared them. */
const toolHeaders = new WeakMap<StatelessServer, ToolHeaders>();

function toolHeadersOf(server: StatelessServer, binding: StatelessHttpBinding): ToolHeaders {
  let known = toolHeaders.get(server);
  if (!known) toolHeaders.set(server, (known = new ToolHeaders(binding.paramHeaders)));
  return known;
}

/** Nothing can be sent back for a notification: it got its 202 already. */
const NO_OUTPUT: ExchangeOutput = {
  respond() {},
  openStream: () => ({ write() {}, end() {} }),
};

/**
 * Whether a request is of another revision than the one served: it claims none in `_meta`, and its
 * MCP-Protocol-Version header names another, or none (a 2025-era handshake). A request of the
 * revision served that is malformed otherwise is the server's to answer.
 */
function ofOtherRevision(message: Classified, binding: StatelessHttpBinding, version: string | undefined): boolean {
  return (
    message.kind === "request" && claimedVersion(message.message, binding) === undefined && version !== binding.revision
  );
}

/** Serves one POST of a stateless revision; `authInfo` is the sender's verified token on a protected endpoint. */
export async function serveStateless(
  req: HttpRequestLike,
  res: HttpResponseLike,
  message: Classified,
  server: StatelessServer,
  options: StatelessOptions,
  authInfo?: AuthInfo,
): Promise<void> {
  const binding = server.http as StatelessHttpBinding;
  if (message.kind === "response")
    return refuse(res, 400, ErrorCode.InvalidRequest, "Invalid Request: clients send no responses at this revision");
  const id = message.kind === "request" ? message.message.id : null;
  const headers = (name: string) => header(req, name);
  const version = headers(VERSION_HEADER);
  // A client of another era (a 2025 `initialize`, say) is told what this endpoint serves, not
  // which of this revision's headers it lacks.
  if (ofOtherRevision(message, binding, version))
    return refuse(
      res,
      400,
      binding.unsupportedVersion,
      `Unsupported protocol version: this endpoint serves ${binding.revision}`,
      {},
      id,
      { supported: [binding.revision], ...(version === undefined ? {} : { requested: version }) },
    );
  const tools = toolHeadersOf(server, binding);
  const mismatch = headerMismatch(message.message, headers, binding) ?? tools.mismatch(message.message, headers);
  if (mismatch) return refuse(res, 400, binding.headerMismatch, `Header mismatch: ${mismatch}`, {}, id);
  let exchange: HttpExchange;
  if (message.kind === "notification") {
    res.writeHead(202);
    res.end();
    exchange = new HttpExchange(message.message, NO_OUTPUT, extraOf(authInfo));
  } else {
    exchange = new HttpExchange(message.message, streamOutput(res, options), extraOf(authInfo));
    if (tools.lists(message.message)) exchange.onAnswer = (answer) => tools.learn(answer);
    // The client closing the response cancels the request; it may have closed while the body was read.
    res.on("close", () => exchange.abandon());
    if (res.destroyed) return;
  }
  await server.connect(exchange);
  exchange.deliver();
}

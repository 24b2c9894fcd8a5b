// The MCP endpoint over Streamable HTTP, both eras on one URL: a stateless server (2026-07-28 and
// later: every request stands alone, see stateless.ts) and 2025-era sessions opened by the
// handshake (see session-router.ts), so a server can move to the new revision without breaking old
// clients. Requests pass the same checks first: Host and Origin (DNS rebinding; by default only
// the loopback names), Accept, Content-Type and a body limit. Served from node:http (`handle`,
// `serveStreamableHttp`) or as a Web-standard `fetch(request)` (runtime/http-handler.ts) for Deno,
// Bun, Workers and Fetch-API frameworks. With `auth`, the endpoint is an OAuth resource server
// (runtime/auth/server/resource-server.ts): every request needs a verified Bearer token with the
// scopes its messages need, checked before any server sees it. Node only through its node:http
// types, declared in runtime/http-handler.ts, so vendored code compiles without @types/node. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
import type { AuthInfo } from "../../auth/auth-info.js";
import { PROTECTED_RESOURCE_WELL_KNOWN, type ProtectedResourceEndpoint } from "../../auth/server/protected-resource.js";
import { createResourceServer, type AuthOptions, type AuthVerdict } from "../../auth/server/resource-server.js";
import { fetchHandler, type HttpRequestLike, type HttpResponseLike } from "../../http-handler.js";
import { ErrorCode, isObject, type RequestId } from "../../jsonrpc.js";
import { REGISTRY } from "../../server/registry.js";
import type { StatelessHttpBinding } from "../../transport.js";
import { claimedVersion } from "../headers.js";
import { classify } from "./classify.js";
import { accepts, header, LOOPBACK_HOSTS, readBody, refuse, trusted } from "./request.js";
import { StreamableHttpSession } from "./session-transport.js";
import { createSessionRouter, type SessionRouterOptions } from "./session-router.js";
import { serveStateless, type StatelessOptions, type StatelessServer } from "./stateless.js";

export { StreamableHttpSession, type SseSink } from "./session-transport.js";
export type { HttpRequestLike, HttpResponseLike } from "../../http-handler.js";
export type { StatelessServer } from "./stateless.js";
export type { AuthInfo } from "../../auth/auth-info.js";
export type { AuthOptions, AuthRequest } from "../../auth/server/resource-server.js";
export type { ScopeRules } from "../../auth/server/required-scopes.js";
export {
  canonicalResource,
  protectedResourceEndpoint,
  protectedResourceMetadataUrl,
  type ProtectedResourceEndpoint,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataFields,
} from "../../auth/server/protected-resource.js";

interface HttpServerLike {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  maxConnections: number;
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number } | string | null;
  close(callback: (error?: Error) => void): unknown;
  closeAllConnections?(): void;
  once(event: "error", listener: (error: Error) => void): unknown;
}

const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** The id of a body that is one request, for the error answering it. */
function requestIdOf(body: unknown): RequestId | null {
  const id = isObject(body) ? body["id"] : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

type CreateServer = (
  options: { connectionsCheckingInterval: number },
  listener: (req: HttpRequestLike, res: HttpResponseLike) => void,
) => HttpServerLike;

export interface StreamableHttpOptions extends Partial<SessionRouterOptions>, StatelessOptions {
  /**
   * The server of a stateless revision (a generated 2026-07-28 or draft server): one for every
   * request that is not part of a 2025-era session. Or a registry of a session revision
   * (`createMcpServer` of 2025-11-25, say): it is connected to each session (unless `onSession`
   * is given), and the stateless server it serves beside its own revision, if any, answers the rest.
   */
  server?: StatelessServer | undefined;
  /**
   * 2025-era sessions: called for each new session (a handshake request without Mcp-Session-Id);
   * connect a server of that era to it. With `server` too, both eras share the endpoint.
   */
  onSession?: SessionRouterOptions["onSession"];
  /**
   * Host names (without port) accepted in the Host and Origin headers; "any" turns the Host check
   * off and accepts same-origin requests only. Default: localhost, 127.0.0.1 and [::1].
   */
  allowedHosts?: readonly string[] | "any";
  /** Origins accepted besides those of the allowed hosts, e.g. "https://app.example.com". */
  allowedOrigins?: readonly string[];
  /** The largest POST body accepted, in bytes (default 4 MiB); a larger one gets 413. */
  maxBodyBytes?: number;
  /**
   * How long a POST body may take to arrive once its headers have, in ms (default 30 000; 0: no
   * limit); a slower one gets 408 and its connection is closed.
   */
  bodyTimeoutMs?: number;
  /**
   * The most messages in one JSON-RPC batch (2025-03-26 sessions; default 100); a longer batch is
   * refused whole with 400 before any of it runs.
   */
  maxBatchLength?: number;
  /**
   * Protects the endpoint with OAuth (see docs/authorization.md): Bearer tokens checked by
   * `auth.verify`, scopes per request, method and tool; the metadata is `protectedResource`.
   */
  auth?: AuthOptions;
  /** Problems no client can be told about (a session that failed to start, say). */
  onError?: (error: Error) => void;
}

export interface StreamableHttpHandler {
  /** Serves one HTTP request to the MCP endpoint, from node:http. */
  handle(req: HttpRequestLike, res: HttpResponseLike): Promise<void>;
  /** Serves one HTTP request to the MCP endpoint, Web-standard (Deno, Bun, Workers, Hono, …). */
  fetch(request: Request): Promise<Response>;
  /**
   * With `auth`: the protected resource metadata, to serve at its `path` (serveStreamableHttp
   * does) with its own `handle` or `fetch`.
   */
  readonly protectedResource: ProtectedResourceEndpoint | undefined;
  /** The open 2025-era sessions, by Mcp-Session-Id. */
  readonly sessions: ReadonlyMap<string, StreamableHttpSession>;
  /** Ends every session (the stateless server is closed by its owner). */
  close(): Promise<void>;
}

/**
 * The stateless server and the session opener `options` give: a session revision's registry
 * stands for both (it serves any number of sessions; see every-revision.ts for the stateless
 * server beside it). Any other 2025-era server serves one connection, so it goes in onSession.
 */
function endpointServers(options: StreamableHttpOptions): {
  server: StatelessServer | undefined;
  onSession: SessionRouterOptions["onSession"] | undefined;
} {
  const { server, onSession } = options;
  if (!server || server.http.kind === "stateless") return { server, onSession };
  if (!(REGISTRY in server))
    throw new TypeError(
      "`server` takes a stateless server or a registry (createMcpServer); connect other 2025-era servers in onSession",
    );
  const { stateless } = server as { stateless?: StatelessServer | undefined };
  return { server: stateless, onSession: onSession ?? ((session) => server.connect(session)) };
}

export function createStreamableHttpHandler(options: StreamableHttpOptions): StreamableHttpHandler {
  const { server, onSession } = endpointServers(options);
  if (!server && !onSession) throw new TypeError("createStreamableHttpHandler needs a server, onSession, or both");
  const binding = server?.http as StatelessHttpBinding | undefined;
  const policy = { allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS, allowedOrigins: options.allowedOrigins };
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const maxBatchLength = options.maxBatchLength ?? 100;
  const router = onSession ? createSessionRouter({ ...options, onSession }) : undefined;
  const guard = options.auth ? createResourceServer(options.auth, options.onError) : undefined;

  /** The refusal of an auth verdict, with its challenge. */
  function refuseAuth(res: HttpResponseLike, verdict: AuthVerdict & { ok: false }, id: RequestId | null = null): void {
    const headers: { [name: string]: string } =
      verdict.challenge === undefined ? {} : { "WWW-Authenticate": verdict.challenge };
    const code = verdict.status === 500 ? ErrorCode.InternalError : -32000;
    refuse(res, verdict.status, code, verdict.message, headers, id);
  }

  async function post(req: HttpRequestLike, res: HttpResponseLike, authInfo: AuthInfo | undefined): Promise<void> {
    if (!accepts(req, "application/json") || !accepts(req, "text/event-stream"))
      return refuse(res, 406, -32000, "Not Acceptable: accept both application/json and text/event-stream");
    if (!/^application\/json\b/i.test(header(req, "content-type") ?? ""))
      return refuse(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    const text = await readBody(req, maxBodyBytes, bodyTimeoutMs);
    // The connection is closed after a slow body: what is still to come of it is not a request.
    if (typeof text !== "string")
      return refuse(res, text.status, -32000, text.message, text.status === 408 ? { Connection: "close" } : {});
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return refuse(res, 400, ErrorCode.ParseError, `Parse error: ${reason}`);
    }
    // Every message of a batch costs work and an answer held until the last is done: bounded before any runs.
    if (Array.isArray(body) && body.length > maxBatchLength)
      return refuse(
        res,
        400,
        ErrorCode.InvalidRequest,
        `Invalid Request: a batch of ${body.length} messages; at most ${maxBatchLength} per POST`,
      );
    // Scopes by what the body asks for, before anything reaches a server.
    if (!permitted(res, authInfo, Array.isArray(body) ? body : [body], requestIdOf(body))) return;
    const sessionHeader = header(req, "mcp-session-id") !== undefined;
    // Batches exist only in some 2025-era sessions.
    if (Array.isArray(body)) {
      if (router) return router.post(req, res, body, authInfo);
      return refuse(res, 400, ErrorCode.InvalidRequest, "Invalid Request: no JSON-RPC batches at this revision");
    }
    const message = classify(body);
    if (!message) return refuse(res, 400, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
    // A request claiming a version in `_meta` is stateless; a session, or the handshake opening one, is not.
    if (server && (!router || (binding && claimedVersion(message.message, binding) !== undefined)))
      return serveStateless(req, res, message, server, options, authInfo);
    if (router) {
      if (sessionHeader) return router.post(req, res, body, authInfo);
      const handshake = message.kind === "request" && message.message.method === binding?.legacyHandshake;
      if (!server || handshake) return router.open(res, message, binding?.legacyHandshake, authInfo);
    }
    if (server) return serveStateless(req, res, message, server, options, authInfo);
  }

  /** The request's verified token (undefined on an unprotected endpoint), or false once a refusal is sent. */
  async function authenticate(req: HttpRequestLike, res: HttpResponseLike): Promise<AuthInfo | undefined | false> {
    if (!guard) return undefined;
    const verdict = await guard.authenticate({ method: req.method, url: req.url, headers: req.headers });
    if (verdict.ok) return verdict.authInfo;
    refuseAuth(res, verdict);
    return false;
  }

  /** Whether the token grants what the messages need (true on an unprotected endpoint); refuses when not. */
  function permitted(
    res: HttpResponseLike,
    authInfo: AuthInfo | undefined,
    messages: readonly unknown[],
    id: RequestId | null = null,
  ): boolean {
    const verdict = guard && authInfo ? guard.authorize(authInfo, messages) : undefined;
    if (!verdict || verdict.ok) return true;
    refuseAuth(res, verdict, id);
    return false;
  }

  const handle = async (req: HttpRequestLike, res: HttpResponseLike): Promise<void> => {
    try {
      if (!trusted(req, policy)) return refuse(res, 403, -32000, "Forbidden: Host or Origin not allowed");
      // GET streams and DELETE belong to sessions, which a stateless endpoint does not have.
      const method = req.method ?? "";
      if (!(method === "POST" || (router && (method === "GET" || method === "DELETE"))))
        return refuse(res, 405, -32000, "Method Not Allowed", { Allow: router ? "GET, POST, DELETE" : "POST" });
      const authInfo = await authenticate(req, res);
      if (authInfo === false) return;
      if (method === "POST") return await post(req, res, authInfo);
      if (!permitted(res, authInfo, [])) return;
      if (method === "GET") return router?.get(req, res, authInfo);
      return await router?.remove(req, res, authInfo);
    } catch (error) {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) refuse(res, 500, -32603, "Internal error");
      else if (!res.writableEnded) res.end();
    }
  };

  return {
    handle,
    fetch: fetchHandler(handle),
    protectedResource: guard?.metadata,
    sessions: router?.sessions ?? new Map(),
    async close() {
      await router?.close();
    },
  };
}

/** `auth` for serveStreamableHttp: the resource defaults to the endpoint's URL. */
export type ServeAuthOptions = Omit<AuthOptions, "resource"> & { resource?: string };

export interface ServeOptions extends Omit<StreamableHttpOptions, "auth"> {
  /** Default 127.0.0.1. */
  host?: string;
  /** How long a request's headers may take to arrive, in ms (default 10 000); slower gets 408. */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests, in ms (default 5 000). */
  keepAliveTimeoutMs?: number;
  /** Open connections at most (default 4096); a connection beyond them is closed at once. */
  maxConnections?: number;
  /** Default 0: a free port, see the returned `url`. */
  port?: number;
  /** The MCP endpoint's path (default "/mcp"); other paths get 404. */
  path?: string;
  /**
   * Protects the endpoint (see StreamableHttpOptions.auth); `resource` defaults to the returned
   * `url`. The metadata is served at the path-aware well-known URL and at the root one.
   */
  auth?: ServeAuthOptions;
}

export interface StreamableHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:54321/mcp. */
  readonly url: string;
  readonly handler: StreamableHttpHandler;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

type Route = (req: HttpRequestLike, res: HttpResponseLike) => void;

/**
 * Listens on node:http and serves the MCP endpoint with a handler made from `options`, and with
 * `auth` its protected resource metadata. The handler is made once the port is known (the
 * default resource is the URL); until then every path gets 404.
 */
export async function serveStreamableHttp(options: ServeOptions): Promise<StreamableHttpServer> {
  const module = "node:http";
  const { createServer } = (await import(module)) as { createServer: CreateServer };
  const path = options.path ?? "/mcp";
  const host = options.host ?? "127.0.0.1";
  const routes = new Map<string, Route>();
  // Node's own timers are checked this often: a stalled request is cut within a second of its limit.
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const route = routes.get((req.url ?? "/").split("?")[0] ?? "/");
    if (!route) return refuse(res, 404, -32000, "Not Found");
    route(req, res);
  });
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  // Receiving the whole request: the handler's body timeout cuts a stalled body first (with a JSON
  // answer); this is the backstop for the rest. Node stops counting once the request is read, so a
  // long SSE response is never cut.
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  server.requestTimeout = bodyTimeoutMs > 0 ? server.headersTimeout + bodyTimeoutMs : 0;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  server.maxConnections = options.maxConnections ?? 4096;
  const stop = () =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}${path}`;
  const { auth, ...rest } = options;
  let handler: StreamableHttpHandler;
  try {
    handler = createStreamableHttpHandler({
      ...rest,
      ...(auth ? { auth: { ...auth, resource: auth.resource ?? url } } : {}),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  routes.set(path, (req, res) => void handler.handle(req, res));
  const metadata = handler.protectedResource;
  // Clients try the path-aware URL first, then the root one.
  if (metadata) for (const at of [PROTECTED_RESOURCE_WELL_KNOWN, metadata.path]) routes.set(at, metadata.handle);
  return {
    url,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections?.();
      await stop();
    },
  };
}

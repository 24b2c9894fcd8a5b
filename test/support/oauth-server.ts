// A small OAuth 2.1 authorization server and an MCP server protected by it, both on loopback,
// for the tests of runtime/auth. Written here rather than taken from npm: the tests need an
// authorization server that misbehaves on demand (wrong iss, wrong state, no S256, garbage token
// answers, an issuer that does not match, revoked grants), and one that records every request it
// gets, so that a test can show which credentials went where. The referee's fixtures are not a
// library. DPoP proofs and client assertions are checked with WebCrypto, as the client makes them.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { webcrypto } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer as createMcpServer, type Server as McpServer } from "../../generated/2025-11-25/index.js";
import { fromBase64Url } from "../../runtime/encoding.js";
import { createStreamableHttpHandler } from "../../runtime/http/server/server.js";
import type { HttpRequestLike } from "../../runtime/http-handler.js";

/** One request a test server received: enough to tell which credentials went where. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly dpop: string | undefined;
  readonly body: string;
}

export interface Listening {
  readonly origin: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, url: URL) => unknown;

/** A loopback HTTP server that records every request before `handle` answers it. */
export async function listen(handle: Handler): Promise<Listening> {
  const seen: Seen[] = [];
  let origin = "";
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", origin);
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
    seen.push({
      method: req.method ?? "",
      path: url.pathname,
      authorization: header("authorization"),
      dpop: header("dpop"),
      body,
    });
    try {
      await handle(req, res, body, url);
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: "server_error", error_description: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

// --- The authorization server -----------------------------------------------------------------

export interface Grant {
  readonly clientId: string;
  readonly scopes: string[];
  readonly resource: string | undefined;
  /** The DPoP key's thumbprint the token is bound to. */
  readonly jkt: string | undefined;
  expired: boolean;
  revoked: boolean;
}

export interface AuthServerOptions {
  /** A path on the origin: the issuer is `origin + path` (metadata then at the path-inserted URL). */
  issuerPath?: string;
  /** Changes to the metadata served (undefined values remove a member). */
  metadata?: (metadata: Record<string, unknown>) => Record<string, unknown>;
  /** No metadata at all (a 2025-03-26 server's default endpoints at the root). */
  noMetadata?: boolean;
  /** What the user answers, from the authorization request's parameters (default: approve). */
  user?: (params: URLSearchParams) => "approve" | "deny";
  /** Tampers with the authorization response's redirect (a wrong state or iss, …). */
  redirect?: (url: URL) => void;
  /** Answers the token endpoint instead of issuing tokens (garbage, errors, …). */
  tokenAnswer?: (
    params: URLSearchParams,
  ) => { status: number; body: string; headers?: Record<string, string> } | undefined;
  /** Seconds a token lives (sent as expires_in; the test expires tokens with expire()). */
  expiresIn?: number;
  /** Public keys of private_key_jwt clients, by client_id. */
  clientKeys?: Map<string, webcrypto.CryptoKey>;
  /** Secrets of pre-registered clients, by client_id. */
  clientSecrets?: Map<string, string>;
  /** Advertise DPoP (ES256) and bind tokens to the proof's key. */
  dpop?: boolean;
}

export interface TestAuthServer extends Listening {
  readonly issuer: string;
  readonly registrations: Record<string, unknown>[];
  readonly authorizations: URLSearchParams[];
  readonly tokenRequests: URLSearchParams[];
  /** What a token grants, or undefined for a token this server never issued. */
  grant(token: string): Grant | undefined;
  /** Every access token issued so far expires (refresh tokens stay good). */
  expire(): void;
  /** Every access and refresh token issued so far is revoked. */
  revoke(): void;
}

export async function startAuthServer(options: AuthServerOptions = {}): Promise<TestAuthServer> {
  const registrations: Record<string, unknown>[] = [];
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: URLSearchParams[] = [];
  const grants = new Map<string, Grant>();
  const refreshTokens = new Map<string, { grant: Omit<Grant, "expired" | "revoked">; revoked: boolean }>();
  const codes = new Map<string, { params: URLSearchParams }>();
  const clients = new Map<string, { secret?: string; method: string }>();
  let counter = 0;
  let issuer = "";
  const path = options.issuerPath ?? "";
  const endpoint = (name: string) => `${issuer}/${name}`;

  const metadata = () => {
    const base: Record<string, unknown> = {
      issuer,
      authorization_endpoint: endpoint("authorize"),
      token_endpoint: endpoint("token"),
      registration_endpoint: endpoint("register"),
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["mcp:read", "mcp:write", "offline_access"],
      ...(options.dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
    };
    return options.metadata ? options.metadata(base) : base;
  };

  const issue = async (
    res: ServerResponse,
    clientId: string,
    scopes: string[],
    resource: string | undefined,
    jkt: string | undefined,
    refresh: boolean,
  ) => {
    const token = `at-${++counter}-${clientId.length}`;
    grants.set(token, { clientId, scopes, resource, jkt, expired: false, revoked: false });
    const body: Record<string, unknown> = {
      access_token: token,
      token_type: jkt ? "DPoP" : "Bearer",
      expires_in: options.expiresIn ?? 3600,
      scope: scopes.join(" "),
    };
    if (refresh) {
      const refreshToken = `rt-${counter}`;
      refreshTokens.set(refreshToken, { grant: { clientId, scopes, resource, jkt }, revoked: false });
      body["refresh_token"] = refreshToken;
    }
    json(res, 200, body);
  };

  /** The client a token request authenticates as, or an error to answer with. */
  const authenticate = async (req: IncomingMessage, params: URLSearchParams): Promise<string | { error: string }> => {
    const basic = req.headers.authorization?.startsWith("Basic ")
      ? Buffer.from(req.headers.authorization.slice(6), "base64").toString("utf8").split(":").map(decodeURIComponent)
      : undefined;
    const clientId = basic?.[0] ?? params.get("client_id") ?? "";
    const secret = basic?.[1] ?? params.get("client_secret") ?? undefined;
    const assertion = params.get("client_assertion");
    const key = options.clientKeys?.get(clientId);
    if (key) {
      if (!assertion || !(await verifyJwt(assertion, key, { iss: clientId, sub: clientId, aud: issuer })))
        return { error: "invalid_client" };
      return clientId;
    }
    const expected = options.clientSecrets?.get(clientId) ?? clients.get(clientId)?.secret;
    if (clientId.startsWith("https://")) return clientId; // a Client ID Metadata Document URL
    if (!clients.has(clientId) && !options.clientSecrets?.has(clientId)) return { error: "invalid_client" };
    if (expected !== undefined && secret !== expected) return { error: "invalid_client" };
    return clientId;
  };

  const server = await listen(async (req, res, body, url) => {
    const route = url.pathname;
    if (req.method === "GET" && !options.noMetadata && route === `/.well-known/oauth-authorization-server${path}`)
      return json(res, 200, metadata());
    if (req.method === "POST" && route === `${path}/register`) {
      const request = JSON.parse(body) as Record<string, unknown>;
      registrations.push(request);
      const clientId = `client-${registrations.length}`;
      const method =
        typeof request["token_endpoint_auth_method"] === "string" ? request["token_endpoint_auth_method"] : "none";
      const secret = method === "none" ? undefined : `secret-${registrations.length}`;
      clients.set(clientId, { method, ...(secret ? { secret } : {}) });
      return json(res, 201, { ...request, client_id: clientId, ...(secret ? { client_secret: secret } : {}) });
    }
    if (req.method === "GET" && route === `${path}/authorize`) {
      const params = url.searchParams;
      authorizations.push(params);
      const redirect = new URL(params.get("redirect_uri") ?? "");
      if ((options.user?.(params) ?? "approve") === "deny") {
        redirect.searchParams.set("error", "access_denied");
        redirect.searchParams.set("error_description", "the user said no");
      } else {
        const code = `code-${++counter}`;
        codes.set(code, { params });
        redirect.searchParams.set("code", code);
      }
      redirect.searchParams.set("state", params.get("state") ?? "");
      redirect.searchParams.set("iss", issuer);
      options.redirect?.(redirect);
      res.writeHead(302, { Location: redirect.href });
      return res.end();
    }
    if (req.method === "POST" && route === `${path}/token`) {
      const params = new URLSearchParams(body);
      tokenRequests.push(params);
      const answer = options.tokenAnswer?.(params);
      if (answer) {
        res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
        return res.end(answer.body);
      }
      const client = await authenticate(req, params);
      if (typeof client !== "string") return json(res, 401, client);
      let jkt: string | undefined;
      const proof = req.headers["dpop"];
      if (options.dpop && typeof proof === "string") {
        const checked = await verifyProof(proof, "POST", endpoint("token"));
        if (!checked) return json(res, 400, { error: "invalid_dpop_proof" });
        jkt = checked.jkt;
      }
      const grantType = params.get("grant_type");
      if (grantType === "authorization_code") {
        const code = codes.get(params.get("code") ?? "");
        codes.delete(params.get("code") ?? "");
        const verifier = params.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (
          !code ||
          code.params.get("code_challenge") !== challenge ||
          code.params.get("redirect_uri") !== params.get("redirect_uri")
        )
          return json(res, 400, { error: "invalid_grant" });
        const scopes = (code.params.get("scope") ?? "").split(" ").filter(Boolean);
        return issue(res, client, scopes, params.get("resource") ?? undefined, jkt, true);
      }
      if (grantType === "refresh_token") {
        const kept = refreshTokens.get(params.get("refresh_token") ?? "");
        if (!kept || kept.revoked || kept.grant.clientId !== client) return json(res, 400, { error: "invalid_grant" });
        return issue(res, client, kept.grant.scopes, kept.grant.resource, kept.grant.jkt, false);
      }
      if (grantType === "client_credentials") {
        const scopes = (params.get("scope") ?? "").split(" ").filter(Boolean);
        return issue(res, client, scopes, params.get("resource") ?? undefined, jkt, false);
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    json(res, 404, { error: "not_found" });
  });
  issuer = `${server.origin}${path}`;
  return {
    ...server,
    issuer,
    registrations,
    authorizations,
    tokenRequests,
    grant: (token) => grants.get(token),
    expire: () => grants.forEach((grant) => (grant.expired = true)),
    revoke: () => {
      grants.forEach((grant) => (grant.revoked = true));
      refreshTokens.forEach((refresh) => (refresh.revoked = true));
    },
  };
}

// --- The protected MCP server -----------------------------------------------------------------

export interface ProtectedServerOptions {
  /** The authorization servers its resource metadata lists (read on every request: they may change). */
  authorizationServers: () => string[];
  /** Checks a token (an authorization server's grant()). */
  grant: (token: string) => Grant | undefined;
  /** The scope a request needs, from its JSON-RPC method and tool name (default: none). */
  scopeFor?: (method: string, tool: string | undefined) => string[];
  scopesSupported?: string[];
  /** The resource its metadata names and its tokens must be for (default: its own URL). */
  resource?: (url: string) => string;
  /** Name the resource metadata in 401 challenges (default true); else only the well-known URL has it. */
  challengeWithMetadata?: boolean;
  /** The resource metadata URL the challenges name, instead of the server's own. */
  challengeMetadataUrl?: string;
  /** Challenge with the DPoP scheme, and require DPoP-bound tokens with a proof. */
  dpop?: boolean;
}

export interface ProtectedServer extends Listening {
  /** The MCP endpoint. */
  readonly url: string;
}

export async function startProtectedServer(options: ProtectedServerOptions): Promise<ProtectedServer> {
  const sessions = createStreamableHttpHandler({ onSession: (session) => exampleServer().connect(session) });
  let url = "";
  const metadataUrl = () => `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
  const server = await listen(async (req, res, body, requestUrl) => {
    if (req.method === "GET" && requestUrl.pathname === "/.well-known/oauth-protected-resource/mcp")
      return json(res, 200, {
        resource: options.resource?.(url) ?? url,
        authorization_servers: options.authorizationServers(),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        ...(options.dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
      });
    if (requestUrl.pathname !== "/mcp") return json(res, 404, { error: "not_found" });
    const message = body ? (JSON.parse(body) as { method?: string; params?: { name?: string } }) : {};
    const needed = message.method ? (options.scopeFor?.(message.method, message.params?.name) ?? []) : [];
    const scheme = options.dpop ? "DPoP" : "Bearer";
    const challenge = (status: number, error: string, scope: string[]) => {
      const params = [`error="${error}"`];
      if (scope.length > 0) params.push(`scope="${scope.join(" ")}"`);
      if (options.challengeWithMetadata !== false)
        params.push(`resource_metadata="${options.challengeMetadataUrl ?? metadataUrl()}"`);
      json(res, status, { error }, { "WWW-Authenticate": `${scheme} ${params.join(", ")}` });
    };
    const [given, token] = (req.headers.authorization ?? "").split(" ");
    const grant = token ? options.grant(token) : undefined;
    if (!grant || grant.expired || grant.revoked || given !== scheme) return challenge(401, "invalid_token", needed);
    if (grant.resource !== (options.resource?.(url) ?? url)) return challenge(401, "invalid_token", needed);
    if (options.dpop) {
      const proof = req.headers["dpop"];
      const checked = typeof proof === "string" ? await verifyProof(proof, req.method ?? "", url, token) : undefined;
      if (!checked || checked.jkt !== grant.jkt) return challenge(401, "invalid_token", needed);
    }
    if (!needed.every((scope) => grant.scopes.includes(scope))) return challenge(403, "insufficient_scope", needed);
    // The body was read here: the MCP endpoint reads it again from this stand-in.
    const replay: HttpRequestLike = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      async *[Symbol.asyncIterator]() {
        yield Buffer.from(body);
      },
    };
    await sessions.handle(replay, res);
  });
  url = `${server.origin}/mcp`;
  return {
    ...server,
    url,
    async close() {
      await sessions.close();
      await server.close();
    },
  };
}

/** Tools that need different scope: "read" and "write". */
function exampleServer(): McpServer {
  return createMcpServer({
    serverInfo: { name: "protected", version: "1.0.0" },
    handlers: {
      listTools: () => ({
        tools: [
          { name: "read", inputSchema: { type: "object" } },
          { name: "write", inputSchema: { type: "object" } },
        ],
      }),
      callTool: (params) => ({ content: [{ type: "text", text: `${params.name} done` }] }),
    },
  });
}

// --- JWTs, checked with WebCrypto --------------------------------------------------------------

const decodeJson = (part: string | undefined): Record<string, unknown> | undefined => {
  const bytes = part === undefined ? undefined : fromBase64Url(part);
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>) : undefined;
};

async function verifySignature(jwt: string, key: webcrypto.CryptoKey): Promise<Record<string, unknown> | undefined> {
  const [header, claims, signature] = jwt.split(".");
  const bytes = signature === undefined ? undefined : fromBase64Url(signature);
  if (!header || !claims || !bytes) return undefined;
  const ok = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    bytes,
    new TextEncoder().encode(`${header}.${claims}`),
  );
  return ok ? decodeJson(claims) : undefined;
}

async function verifyJwt(jwt: string, key: webcrypto.CryptoKey, expected: Record<string, string>): Promise<boolean> {
  const claims = await verifySignature(jwt, key);
  return claims !== undefined && Object.entries(expected).every(([name, value]) => claims[name] === value);
}

/** A DPoP proof's key thumbprint when the proof is good for `method` `url` (and `token`). */
async function verifyProof(
  proof: string,
  method: string,
  url: string,
  token?: string,
): Promise<{ jkt: string } | undefined> {
  const header = decodeJson(proof.split(".")[0]);
  const jwk = header?.["jwk"] as webcrypto.JsonWebKey | undefined;
  if (header?.["typ"] !== "dpop+jwt" || header["alg"] !== "ES256" || !jwk || "d" in jwk) return undefined;
  const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const claims = await verifySignature(proof, key);
  if (!claims || claims["htm"] !== method || claims["htu"] !== url || typeof claims["jti"] !== "string")
    return undefined;
  if (token !== undefined && claims["ath"] !== createHash("sha256").update(token).digest("base64url")) return undefined;
  const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return { jkt: createHash("sha256").update(members).digest("base64url") };
}

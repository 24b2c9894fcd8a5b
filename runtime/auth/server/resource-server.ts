// Server side of authorization: the MCP endpoint as an OAuth 2.1 resource server. Each request's
// Bearer token goes to the user's `verify` hook; what it returns must name this server among its
// audiences and must not have expired, else 401 with a challenge pointing at the protected
// resource metadata; the scopes a POST needs (every request's, its method's, its tool's) must be
// granted, else 403 insufficient_scope naming them all. Verdicts only: the HTTP endpoint
// (runtime/http/server/server.ts) writes them. A token never reaches a challenge, an error body or
// onError.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#access-token-usage
import type { AuthInfo } from "../auth-info.js";
import { formatChallenge, readBearerToken, type Challenge } from "./bearer.js";
import {
  canonicalResource,
  checkResourceUrl,
  protectedResourceEndpoint,
  type ProtectedResourceEndpoint,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataFields,
} from "./protected-resource.js";
import { checkScopes, missingScopes, requiredScopes, type ScopeRules } from "./required-scopes.js";

/** What `verify` sees of a request: its line and headers, not its body. */
export interface AuthRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
}

export interface AuthOptions extends ScopeRules {
  /**
   * This server's resource identifier (RFC 8707): its public URL, e.g. https://mcp.example.com/mcp.
   * Tokens must name it among their audiences; its metadata is served at the path-aware well-known URL.
   */
  resource: string;
  /** The issuers of tokens for this server (at least one), as the metadata lists them. */
  authorizationServers: readonly string[];
  /**
   * Checks an access token (signature, issuer, expiry…) and describes it; undefined when it is not
   * valid. Throw only when it cannot tell (its key server is down): the client gets 500, not 401.
   */
  verify(token: string, request: AuthRequest): AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /** Audiences accepted besides `resource` (an authorization server that names the origin only, say). */
  audiences?: readonly string[] | undefined;
  /**
   * More fields of the metadata document (resource_name, resource_documentation, jwks_uri, …).
   * `scopes_supported` defaults to `requiredScopes`.
   */
  metadata?: ProtectedResourceMetadataFields | undefined;
}

export type AuthVerdict =
  | { readonly ok: true; readonly authInfo: AuthInfo }
  | {
      readonly ok: false;
      readonly status: 400 | 401 | 403 | 500;
      /** The WWW-Authenticate value (none for 500). */
      readonly challenge: string | undefined;
      /** For the error body. */
      readonly message: string;
    };

export interface ResourceServer {
  /** The protected resource metadata and its handlers. */
  readonly metadata: ProtectedResourceEndpoint;
  /** Verifies the request's access token. */
  authenticate(request: AuthRequest): Promise<AuthVerdict>;
  /** Checks that a verified token grants the scopes the messages of one POST (none for GET, DELETE) need. */
  authorize(authInfo: AuthInfo, messages: readonly unknown[]): AuthVerdict;
}

const STATUS_TEXT = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden" } as const;

function metadataOf(options: AuthOptions): ProtectedResourceMetadata {
  const ours = { resource: options.resource, authorization_servers: options.authorizationServers };
  const scopes = options.requiredScopes ?? [];
  const defaults = { bearer_methods_supported: ["header"], ...(scopes.length > 0 ? { scopes_supported: scopes } : {}) };
  // Ours first (the document's key order) and last (the user's fields cannot replace them).
  return Object.assign({}, ours, defaults, options.metadata, ours);
}

/** The error onError gets when `verify` throws: the token cut out of whatever it said. */
function redacted(error: unknown, token: string): Error {
  const cut = (text: string) => text.split(token).join("[token]");
  const original = error instanceof Error ? error : new Error(String(error));
  const safe = new Error(`access token verification failed: ${cut(original.message)}`);
  if (original.stack) safe.stack = cut(original.stack);
  return safe;
}

export function createResourceServer(options: AuthOptions, onError?: (error: Error) => void): ResourceServer {
  checkResourceUrl(options.resource, "auth.resource");
  if (options.authorizationServers.length === 0) throw new TypeError("auth.authorizationServers lists no issuer");
  for (const issuer of options.authorizationServers) checkResourceUrl(issuer, "an authorization server");
  for (const audience of options.audiences ?? []) checkResourceUrl(audience, "an audience");
  checkScopes(options);
  const metadata = protectedResourceEndpoint(metadataOf(options));
  const accepted = new Set([options.resource, ...(options.audiences ?? [])].map((a) => canonicalResource(a)));

  const refuse = (status: 400 | 401 | 403, challenge: Challenge, description: string): AuthVerdict => ({
    ok: false,
    status,
    challenge: formatChallenge({ resourceMetadata: metadata.url, ...challenge }),
    message: `${STATUS_TEXT[status]}: ${description}`,
  });
  const invalid = (description: string) =>
    refuse(401, { scope: options.requiredScopes, error: "invalid_token", errorDescription: description }, description);

  function forThisServer(authInfo: AuthInfo): boolean {
    const audience = authInfo.audience;
    const audiences = typeof audience === "string" ? [audience] : (audience ?? []);
    return audiences.some((a) => typeof a === "string" && accepted.has(canonicalResource(a)));
  }

  return {
    metadata,
    async authenticate(request) {
      const authorization = request.headers["authorization"];
      const bearer = readBearerToken(Array.isArray(authorization) ? authorization.join(", ") : authorization);
      if (bearer.kind === "missing")
        return refuse(401, { scope: options.requiredScopes }, "this server needs an access token");
      if (bearer.kind === "malformed")
        return refuse(400, { error: "invalid_request", errorDescription: bearer.reason }, bearer.reason);
      let authInfo: AuthInfo | undefined;
      try {
        authInfo = await options.verify(bearer.token, request);
      } catch (error) {
        onError?.(redacted(error, bearer.token));
        return {
          ok: false,
          status: 500,
          challenge: undefined,
          message: "Internal error: the access token could not be verified",
        };
      }
      if (!authInfo) return invalid("the access token is not valid");
      // NaN and the like count as expired.
      if (authInfo.expiresAt !== undefined && !(authInfo.expiresAt * 1000 > Date.now()))
        return invalid("the access token has expired");
      if (!forThisServer(authInfo)) return invalid("the access token was not issued for this resource");
      return { ok: true, authInfo };
    },
    authorize(authInfo, messages) {
      const needed = requiredScopes(options, messages);
      if (missingScopes(options, authInfo.scopes, needed).length === 0) return { ok: true, authInfo };
      const description = `this request needs the scopes ${needed.join(" ")}`;
      return refuse(403, { scope: needed, error: "insufficient_scope", errorDescription: description }, description);
    },
  };
}

// The one error authorization raises: a reason to tell failures apart, the MCP server it was for,
// and a message a person can act on. Nothing secret ever goes into one (no token, code, verifier
// or client secret), and what a hostile server wrote is quoted short and on one line.

export type AuthorizationFailure =
  /** No usable protected-resource or authorization-server metadata. */
  | "discovery"
  /** The protected-resource metadata names another resource than the server asked. */
  | "resource-mismatch"
  /** Metadata, or the redirect's `iss`, name another issuer than the one recorded (RFC 8414, RFC 9207). */
  | "issuer-mismatch"
  /** An authorization-server endpoint that is neither HTTPS nor on the loopback interface. */
  | "insecure-endpoint"
  /** The authorization server does not advertise PKCE with S256. */
  | "pkce-unsupported"
  /** No client id could be had: nothing pre-registered, no CIMD, no registration endpoint, or it refused. */
  | "registration"
  /** The redirect came back with another `state` than the one sent. */
  | "state-mismatch"
  /** The authorization server answered the authorization request with an error (the user declined, …). */
  | "denied"
  /** The token endpoint answered with an OAuth error. */
  | "token"
  /** An authorization server answered with something that is not what the protocol says. */
  | "bad-response"
  /** The MCP server refused a token just issued or refreshed. */
  | "refused"
  /** The MCP server keeps asking for scope that re-authorizing does not bring. */
  | "insufficient-scope"
  /** An authorized request was redirected to another origin, or in a way that cannot be followed. */
  | "redirect"
  /** An authorization server could not be reached, or did not answer in time. */
  | "unavailable"
  /** The user step could not be done (no way to ask, no answer in time). */
  | "interaction";

export class AuthorizationError extends Error {
  readonly reason: AuthorizationFailure;
  /** The MCP server the authorization was for. */
  readonly server: string;

  constructor(
    reason: AuthorizationFailure,
    server: string,
    message: string,
    options: { cause?: unknown; oauthError?: string } = {},
  ) {
    super(
      `authorization for ${server}: ${message}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "AuthorizationError";
    this.reason = reason;
    this.server = server;
    this.oauthError = options.oauthError;
  }

  /** The OAuth `error` code the authorization server answered with, if any. */
  readonly oauthError: string | undefined;
}

/** A value a server sent, fit to quote in a message: one line, at most `max` characters, quoted. */
export function shown(value: unknown, max = 120): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const line = text.replace(/\p{Cc}+/gu, " ");
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
}

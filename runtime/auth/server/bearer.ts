// Server side of Bearer tokens (RFC 6750): reading the access token from a request's
// Authorization header, and writing the WWW-Authenticate challenge a refusal carries. Hostile
// input gives a verdict, never an exception; a token never goes into a challenge.
// Spec: https://datatracker.ietf.org/doc/html/rfc6750#section-2.1 and #section-3

/** Longer than any real access token; a header beyond it is refused before anyone parses it. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** The b64token syntax of RFC 6750 §2.1. */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export type BearerToken =
  | { readonly kind: "token"; readonly token: string }
  /** No Bearer credentials at all (no header, or another scheme): the request is unauthenticated. */
  | { readonly kind: "missing" }
  /** Bearer credentials that cannot be a token (RFC 6750's invalid_request). */
  | { readonly kind: "malformed"; readonly reason: string };

/** The access token an Authorization header carries. Linear in the header's length: no backtracking. */
export function readBearerToken(authorization: string | undefined): BearerToken {
  if (authorization === undefined || authorization === "") return { kind: "missing" };
  const space = authorization.indexOf(" ");
  const scheme = space < 0 ? authorization : authorization.slice(0, space);
  if (scheme.toLowerCase() !== "bearer") return { kind: "missing" };
  const token = space < 0 ? "" : authorization.slice(space + 1).trim();
  if (token.length > MAX_TOKEN_LENGTH) return { kind: "malformed", reason: "the access token is too long" };
  // A comma is how repeated headers are joined: two tokens are one too many.
  if (!TOKEN.test(token)) return { kind: "malformed", reason: "the Authorization header is not `Bearer <token>`" };
  return { kind: "token", token };
}

/** The parameters of a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface Challenge {
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope" | undefined;
  readonly errorDescription?: string | undefined;
  readonly scope?: readonly string[] | undefined;
  readonly resourceMetadata?: string | undefined;
}

/** A quoted-string: backslash and quote escaped, characters a header cannot carry replaced. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7e]/g, " ")}"`;
}

/** The WWW-Authenticate value of a challenge. */
export function formatChallenge(challenge: Challenge): string {
  const params: string[] = [];
  if (challenge.resourceMetadata !== undefined) params.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
  if (challenge.scope && challenge.scope.length > 0) params.push(`scope=${quoted(challenge.scope.join(" "))}`);
  if (challenge.error !== undefined) params.push(`error=${quoted(challenge.error)}`);
  if (challenge.errorDescription !== undefined) params.push(`error_description=${quoted(challenge.errorDescription)}`);
  return params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer";
}

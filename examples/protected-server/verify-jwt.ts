// A `verify` hook for the MCP endpoint's `auth` option that accepts JWT access tokens (RFC 9068):
// the signature checked against the issuer's JSON Web Key Set with jose, then the claims mapped to
// the AuthInfo handlers see. jose lives here, in the example, not in the dependency-free runtime.
// The endpoint itself checks the audience against its resource URL and refuses expired tokens.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { AuthInfo } from "../../runtime/http/server/server.js";

export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; tokens must carry it in `iss`. */
  issuer: string;
  /** Where it publishes its keys (`jwks_uri` in its metadata). */
  jwksUri: string;
  /** Signature algorithms accepted (default: those of the published keys). */
  algorithms?: string[];
}

/** What jose says of a token that is not valid; anything else (the key server failing) is not the token's fault. */
const TOKEN_PROBLEMS = new Set([
  errors.JWTExpired.code,
  errors.JWTClaimValidationFailed.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
]);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The claims as handlers see them: `scope` (RFC 9068) or `scp` (a list, as some issuers write it). */
function authInfoOf(payload: JWTPayload): AuthInfo {
  const { sub, exp, aud, iss, scope, scp, client_id, azp } = payload;
  const clientId = typeof client_id === "string" ? client_id : typeof azp === "string" ? azp : undefined;
  return {
    subject: sub,
    clientId,
    scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : strings(scp),
    expiresAt: exp,
    audience: aud,
    issuer: iss,
  };
}

/**
 * Verifies JWTs signed by `issuer`'s keys (fetched once, refreshed when a new key id shows up).
 * Undefined for a token that is not valid; throws when the keys cannot be had, so that the
 * client gets 500 and keeps its token.
 */
export function jwtVerifier(options: JwtVerifierOptions): (token: string) => Promise<AuthInfo | undefined> {
  const keys = createRemoteJWKSet(new URL(options.jwksUri));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        requiredClaims: ["exp", "aud"],
        ...(options.algorithms ? { algorithms: options.algorithms } : {}),
      });
      return authInfoOf(payload);
    } catch (error) {
      if (error instanceof errors.JOSEError && TOKEN_PROBLEMS.has(error.code)) return undefined;
      throw error;
    }
  };
}

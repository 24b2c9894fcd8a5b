// Requests to the token endpoint (RFC 6749 §3.2): one form POST for any grant, with the client's
// authentication and, for DPoP, a proof (retried once with the nonce the server asks for, RFC 9449
// §8). The answer is read as untrusted: a token response with a usable access token, or an OAuth
// error, or a clear refusal of whatever else came back.
import { authenticateClient, type ClientIdentity } from "./client-auth.js";
import type { DpopProver } from "./dpop.js";
import { AuthorizationError, shown } from "./errors.js";
import { readJsonObject, send, type HttpContext, type Json } from "./http-context.js";

export interface TokenRequest {
  readonly endpoint: URL;
  /** The authorization server's issuer: the audience of a client assertion. */
  readonly issuer: string;
  readonly identity: ClientIdentity;
  /** grant_type and the grant's parameters (code, refresh_token, resource, scope, …). */
  readonly params: { readonly [name: string]: string };
  readonly dpop?: DpopProver | undefined;
}

export interface IssuedTokens {
  readonly accessToken: string;
  readonly tokenType: "Bearer" | "DPoP";
  readonly refreshToken?: string | undefined;
  /** Seconds. */
  readonly expiresIn?: number | undefined;
  readonly scope?: string | undefined;
}

/** What may go into an HTTP header as a credential: visible ASCII, nothing else. */
const CREDENTIAL = /^[\x21-\x7e]{1,16384}$/;

export async function requestToken(context: HttpContext, request: TokenRequest): Promise<IssuedTokens> {
  let response = await post(context, request);
  const newNonce = request.dpop?.remember(request.endpoint, response) === true;
  if (newNonce && response.status === 400) {
    // RFC 9449 §8: the server wants a nonce in the proof; it names one, and the request is redone once.
    const error = await readJsonObject(context, response.clone(), "the token endpoint's answer");
    if (error?.["error"] === "use_dpop_nonce") {
      await response.body?.cancel().catch(() => {});
      response = await post(context, request);
      request.dpop?.remember(request.endpoint, response);
    }
  }
  const body = await readJsonObject(context, response, "the token endpoint's answer");
  if (response.status !== 200) throw refusal(context, request, response.status, body);
  if (body === undefined)
    throw new AuthorizationError(
      "bad-response",
      context.server,
      `the token endpoint ${request.endpoint.href} answered with something that is not a JSON object`,
    );
  return parseTokens(context, request, body);
}

async function post(context: HttpContext, request: TokenRequest): Promise<Response> {
  const body = new URLSearchParams(request.params);
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Accept: "application/json",
  };
  await authenticateClient(request.identity, body, headers, request.issuer);
  if (request.dpop) headers["DPoP"] = await request.dpop.proof("POST", request.endpoint);
  // Never followed: a redirect would carry the client's credentials and the grant elsewhere.
  return send(context, request.endpoint, { method: "POST", headers, body, redirect: "error" }, "the token request");
}

function refusal(
  context: HttpContext,
  request: TokenRequest,
  status: number,
  body: Json | undefined,
): AuthorizationError {
  const error = body?.["error"];
  if (typeof error !== "string")
    return new AuthorizationError(
      "bad-response",
      context.server,
      `the token endpoint ${request.endpoint.href} answered HTTP ${status} without an OAuth error`,
    );
  const description = body?.["error_description"];
  const detail = typeof description === "string" ? ` (${shown(description)})` : "";
  return new AuthorizationError(
    "token",
    context.server,
    `the token endpoint of ${request.issuer} refused the ${request.params["grant_type"] ?? ""} grant: ${shown(error, 60)}${detail}`,
    { oauthError: error },
  );
}

function parseTokens(context: HttpContext, request: TokenRequest, body: Json): IssuedTokens {
  const bad = (why: string) =>
    new AuthorizationError(
      "bad-response",
      context.server,
      `the token endpoint ${request.endpoint.href} answered with ${why}`,
    );
  const accessToken = body["access_token"];
  if (typeof accessToken !== "string" || !CREDENTIAL.test(accessToken)) throw bad("no usable access_token");
  const type = body["token_type"];
  const tokenType = typeof type === "string" ? type.toLowerCase() : undefined;
  if (tokenType !== "bearer" && tokenType !== "dpop")
    throw bad(`the token_type ${shown(type)}, neither Bearer nor DPoP`);
  if (tokenType === "dpop" && !request.dpop) throw bad("a DPoP token to a request without a proof");
  const refreshToken = body["refresh_token"];
  if (refreshToken !== undefined && (typeof refreshToken !== "string" || !CREDENTIAL.test(refreshToken)))
    throw bad("an unusable refresh_token");
  const expires = body["expires_in"];
  const expiresIn = typeof expires === "string" && /^\d+$/.test(expires) ? Number(expires) : expires;
  if (expiresIn !== undefined && (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn < 0))
    throw bad(`the expires_in ${shown(expires)}, which is not a number of seconds`);
  const scope = body["scope"];
  if (scope !== undefined && typeof scope !== "string") throw bad("a scope that is not a string");
  return {
    accessToken,
    tokenType: tokenType === "dpop" ? "DPoP" : "Bearer",
    refreshToken,
    expiresIn,
    scope,
  };
}

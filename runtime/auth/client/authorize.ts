// The authorization code flow with PKCE (OAuth 2.1 §4.1): refuse an authorization server that
// does not advertise S256; send the user to its authorization endpoint with the challenge, a
// random state, the scope and the resource; check what comes back before anything else is done
// with it (the state, then the issuer as RFC 9207 and the 2026-07-28 table say, then an error);
// and exchange the code for tokens.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#authorization-response-validation
import type { ClientIdentity } from "./client-auth.js";
import type { DpopProver } from "./dpop.js";
import { AuthorizationError, shown } from "./errors.js";
import { secureEndpoint, type HttpContext } from "./http-context.js";
import type { AuthorizationServerMetadata } from "./metadata.js";
import { createPkce, randomString } from "./pkce.js";
import type { OAuthClientProvider } from "./provider.js";
import { requestToken, type IssuedTokens } from "./token.js";

export interface CodeFlow {
  readonly provider: OAuthClientProvider;
  readonly server: AuthorizationServerMetadata;
  readonly identity: ClientIdentity;
  readonly redirectUri: string;
  readonly resource: string;
  /** Empty: the scope parameter is left out. */
  readonly scope: readonly string[];
  readonly dpop?: DpopProver | undefined;
}

export async function authorizeWithCode(context: HttpContext, flow: CodeFlow): Promise<IssuedTokens> {
  const { server } = flow;
  if (!server.code_challenge_methods_supported?.includes("S256"))
    throw new AuthorizationError(
      "pkce-unsupported",
      context.server,
      `the authorization server ${shown(server.issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported): refused`,
    );
  if (server.authorization_endpoint === undefined)
    throw new AuthorizationError(
      "discovery",
      context.server,
      `the authorization server ${shown(server.issuer)} has no authorization endpoint`,
    );
  const endpoint = secureEndpoint(context, server.authorization_endpoint, "authorization endpoint");
  const tokenEndpoint = secureEndpoint(context, server.token_endpoint, "token endpoint");
  const pkce = await createPkce();
  const state = randomString(32);
  const url = new URL(endpoint);
  const params: [string, string][] = [
    ["response_type", "code"],
    ["client_id", flow.identity.clientId],
    ["redirect_uri", flow.redirectUri],
    ["code_challenge", pkce.challenge],
    ["code_challenge_method", "S256"],
    ["state", state],
    ["resource", flow.resource],
  ];
  if (flow.scope.length > 0) params.push(["scope", flow.scope.join(" ")]);
  for (const [name, value] of params) url.searchParams.set(name, value);

  let returned: string | URL;
  try {
    returned = await flow.provider.authorize({
      url,
      server: context.server,
      issuer: server.issuer,
      redirectUri: flow.redirectUri,
    });
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new AuthorizationError(
      "interaction",
      context.server,
      `the authorization at ${shown(server.issuer)} was not completed: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const code = checkResponse(context, server, state, returned);
  return requestToken(context, {
    endpoint: tokenEndpoint,
    issuer: server.issuer,
    identity: flow.identity,
    params: {
      grant_type: "authorization_code",
      code,
      redirect_uri: flow.redirectUri,
      code_verifier: pkce.verifier,
      resource: flow.resource,
    },
    dpop: flow.dpop,
  });
}

/** The code of an authorization response that passes every check. */
function checkResponse(
  context: HttpContext,
  server: AuthorizationServerMetadata,
  state: string,
  returned: string | URL,
): string {
  const url =
    typeof returned === "string" && URL.canParse(returned)
      ? new URL(returned)
      : returned instanceof URL
        ? returned
        : undefined;
  if (url === undefined)
    throw new AuthorizationError("bad-response", context.server, "the authorization response is not a URL");
  const params = url.searchParams;
  if (params.get("state") !== state)
    throw new AuthorizationError(
      "state-mismatch",
      context.server,
      "the authorization response carries another state than the request did: discarded (it is not the answer to this request)",
    );
  // RFC 9207 §2.4, compared as strings: a present iss must be the recorded issuer whether or not
  // the server advertises it; an advertised one must be present. On mismatch nothing else of the
  // response is believed, its error included.
  const iss = params.get("iss");
  if (iss !== null ? iss !== server.issuer : server.authorization_response_iss_parameter_supported === true)
    throw new AuthorizationError(
      "issuer-mismatch",
      context.server,
      iss === null
        ? `the authorization response has no iss, though ${shown(server.issuer)} says it sends one: discarded`
        : `the authorization response comes from the issuer ${shown(iss)}, not ${shown(server.issuer)}: discarded`,
    );
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new AuthorizationError(
      "denied",
      context.server,
      `${shown(server.issuer)} did not authorize: ${shown(error, 60)}${description !== null ? ` (${shown(description)})` : ""}`,
      { oauthError: error },
    );
  }
  const code = params.get("code");
  if (code === null || code === "")
    throw new AuthorizationError(
      "bad-response",
      context.server,
      "the authorization response has neither a code nor an error",
    );
  return code;
}

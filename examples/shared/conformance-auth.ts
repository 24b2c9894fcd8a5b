// The authorization side of the conformance example clients (any revision): for an `auth/*`
// scenario of the official referee, the fetch that authorizes every request to the scenario's
// server, built on runtime/auth only. The referee passes credentials in MCP_CONFORMANCE_CONTEXT
// (pre-registered clients, client credentials); its authorization server redirects at once, so
// the "user" here is a fetch that reads the redirect instead of a browser.
import {
  withAuthorization,
  type AuthorizationProvider,
  type Fetch,
  type OAuthClientProvider,
  type SigningAlgorithm,
} from "../../runtime/auth/client/index.js";

/** The Client ID Metadata Document URL the referee expects (it is never fetched). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Registered, never listened on: the authorization server's redirect is read, not followed. */
const REDIRECT_URI = "http://127.0.0.1:3000/callback";

interface Context {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
}

function context(): Context {
  const raw = process.env["MCP_CONFORMANCE_CONTEXT"];
  return raw ? (JSON.parse(raw) as Context) : {};
}

/** A user who approves every authorization at once: the redirect's Location is the answer. */
const approvingUser =
  (fetch: Fetch): OAuthClientProvider["authorize"] =>
  async ({ url }) => {
    const response = await fetch(url, { redirect: "manual" });
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    return new URL(location, url);
  };

function provider(scenario: string, fetch: Fetch): AuthorizationProvider {
  const given = context();
  if (scenario.startsWith("auth/client-credentials-"))
    return {
      grant: "client_credentials",
      clientId: given.client_id ?? "",
      ...(given.client_secret !== undefined ? { clientSecret: given.client_secret } : {}),
      ...(given.private_key_pem !== undefined ? { privateKey: given.private_key_pem } : {}),
      ...(given.signing_algorithm !== undefined
        ? { signingAlgorithm: given.signing_algorithm as SigningAlgorithm }
        : {}),
    };
  return {
    clientMetadata: { client_name: "mcp-gen conformance client" },
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(given.client_id !== undefined
      ? {
          preRegistered: {
            client_id: given.client_id,
            ...(given.client_secret !== undefined ? { client_secret: given.client_secret } : {}),
          },
        }
      : {}),
    redirectUri: () => REDIRECT_URI,
    authorize: approvingUser(fetch),
  };
}

/** The fetch for a scenario's transport: authorizing for `auth/*` scenarios, the plain one otherwise. */
export function scenarioFetch(scenario: string, server: string): Fetch {
  const plain: Fetch = (input, init) => fetch(input, init);
  if (!scenario.startsWith("auth/")) return plain;
  return withAuthorization(plain, { server, provider: provider(scenario, plain) });
}

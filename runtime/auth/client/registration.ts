// Who the client is at an authorization server, in the order the spec gives: credentials
// registered beforehand, then a Client ID Metadata Document URL where the server supports them,
// then a registration kept from an earlier Dynamic Client Registration with that same issuer,
// then a new registration (RFC 7591, with application_type). Registrations are kept per issuer
// and never offered to another authorization server.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration
import { chooseAuthMethod, isAuthMethod, type ClientIdentity, type TokenEndpointAuthMethod } from "./client-auth.js";
import { AuthorizationError, shown } from "./errors.js";
import { isLoopback, readJsonObject, secureEndpoint, send, type HttpContext } from "./http-context.js";
import { importPemKey, isSigningAlgorithm } from "./jwt.js";
import type { AuthorizationServerMetadata } from "./metadata.js";
import type {
  ClientCredentialsProvider,
  CredentialStore,
  OAuthClientProvider,
  PreRegisteredClient,
  StoredClient,
} from "./provider.js";

/** The identity for the authorization code flow with `server`, registering when there is none. */
export async function clientIdentity(
  context: HttpContext,
  provider: OAuthClientProvider,
  store: CredentialStore,
  server: AuthorizationServerMetadata,
  redirectUri: string,
): Promise<ClientIdentity> {
  if (provider.preRegistered) return preRegistered(context, provider.preRegistered, server);
  if (server.client_id_metadata_document_supported === true && provider.clientMetadataUrl !== undefined)
    return { clientId: metadataDocumentUrl(context, provider.clientMetadataUrl), method: "none" };
  const kept = await store.client(server.issuer);
  if (kept && usable(kept, redirectUri)) return storedIdentity(kept);
  const registered = await register(context, provider, server, redirectUri);
  await store.saveClient(server.issuer, registered);
  return storedIdentity(registered);
}

/**
 * The identity a token was issued to, for refreshing it, without registering anew; undefined
 * when this client no longer has it (the token then cannot be refreshed).
 */
export async function issuedTo(
  context: HttpContext,
  provider: OAuthClientProvider | ClientCredentialsProvider,
  store: CredentialStore,
  server: AuthorizationServerMetadata,
  clientId: string,
): Promise<ClientIdentity | undefined> {
  if (provider.grant === "client_credentials")
    return provider.clientId === clientId ? machineIdentity(context, provider, server) : undefined;
  if (provider.preRegistered?.client_id === clientId) return preRegistered(context, provider.preRegistered, server);
  if (provider.clientMetadataUrl === clientId) return { clientId, method: "none" };
  const kept = await store.client(server.issuer);
  return kept?.client_id === clientId ? storedIdentity(kept) : undefined;
}

/** The identity of a client credentials client at `server`. */
export async function machineIdentity(
  context: HttpContext,
  provider: ClientCredentialsProvider,
  server: AuthorizationServerMetadata,
): Promise<ClientIdentity> {
  boundTo(context, provider.issuer, server);
  const has = { secret: provider.clientSecret !== undefined, key: provider.privateKey !== undefined };
  const method = chooseAuthMethod(server.token_endpoint_auth_methods_supported, has);
  if (method === undefined) throw unsupported(context, server, has);
  if (method !== "private_key_jwt") return { clientId: provider.clientId, method, clientSecret: provider.clientSecret };
  const algorithm = provider.signingAlgorithm ?? "ES256";
  if (!isSigningAlgorithm(algorithm))
    throw new AuthorizationError(
      "registration",
      context.server,
      `the signing algorithm ${shown(algorithm)} is not supported`,
    );
  try {
    const signingKey = await importPemKey(provider.privateKey ?? "", algorithm);
    return { clientId: provider.clientId, method, signingKey };
  } catch (error) {
    throw new AuthorizationError(
      "registration",
      context.server,
      `the client's private key cannot be used: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

function preRegistered(
  context: HttpContext,
  client: PreRegisteredClient,
  server: AuthorizationServerMetadata,
): ClientIdentity {
  boundTo(context, client.issuer, server);
  const has = { secret: client.client_secret !== undefined, key: false };
  const method = chooseAuthMethod(server.token_endpoint_auth_methods_supported, has);
  if (method === undefined) throw unsupported(context, server, has);
  return { clientId: client.client_id, method, clientSecret: client.client_secret };
}

/** Credentials that belong to one issuer are never offered to another (spec: surface an error). */
function boundTo(context: HttpContext, issuer: string | undefined, server: AuthorizationServerMetadata): void {
  if (issuer !== undefined && issuer !== server.issuer)
    throw new AuthorizationError(
      "registration",
      context.server,
      `the client credentials are registered with ${shown(issuer)}, but the server's authorization server is now ${shown(server.issuer)}; not sent there`,
    );
}

function unsupported(
  context: HttpContext,
  server: AuthorizationServerMetadata,
  has: { secret: boolean; key: boolean },
): AuthorizationError {
  const what = has.key ? "a private key" : has.secret ? "a client secret" : "no secret";
  return new AuthorizationError(
    "registration",
    context.server,
    `${shown(server.issuer)} accepts none of the ways a client with ${what} can authenticate (it lists ${shown(
      (server.token_endpoint_auth_methods_supported ?? []).join(" "),
    )})`,
  );
}

/** A CIMD client id must be an HTTPS URL with a path. */
function metadataDocumentUrl(context: HttpContext, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== "https:" || url.pathname === "/")
    throw new AuthorizationError(
      "registration",
      context.server,
      `the client metadata URL ${shown(value)} is not an HTTPS URL with a path`,
    );
  return value;
}

/**
 * A kept registration still serves: its secret has not expired, and it has the redirect URI (a
 * loopback one on another port counts, as authorization servers must allow any port, RFC 8252 §7.3).
 */
function usable(client: StoredClient, redirectUri: string): boolean {
  const expires = client.client_secret_expires_at;
  if (expires !== undefined && expires !== 0 && expires * 1000 <= Date.now()) return false;
  const wanted = new URL(redirectUri);
  return (client.redirect_uris ?? []).some((uri) => {
    if (uri === redirectUri) return true;
    const kept = URL.canParse(uri) ? new URL(uri) : undefined;
    if (!kept || !isLoopback(kept) || !isLoopback(wanted)) return false;
    kept.port = wanted.port;
    return kept.href === wanted.href;
  });
}

function storedIdentity(client: StoredClient): ClientIdentity {
  const method = isAuthMethod(client.token_endpoint_auth_method) ? client.token_endpoint_auth_method : "none";
  return { clientId: client.client_id, method, clientSecret: client.client_secret };
}

/** Dynamic Client Registration (RFC 7591 §3). */
async function register(
  context: HttpContext,
  provider: OAuthClientProvider,
  server: AuthorizationServerMetadata,
  redirectUri: string,
): Promise<StoredClient> {
  if (server.registration_endpoint === undefined)
    throw new AuthorizationError(
      "registration",
      context.server,
      `no client id for ${shown(server.issuer)}: it supports neither Client ID Metadata Documents${
        provider.clientMetadataUrl === undefined ? " (and none is configured)" : ""
      } nor dynamic registration, and no client is pre-registered for it`,
    );
  const endpoint = secureEndpoint(context, server.registration_endpoint, "registration endpoint");
  const metadata = provider.clientMetadata ?? {};
  const requested = requestedMethod(metadata.token_endpoint_auth_method, server.token_endpoint_auth_methods_supported);
  const body = {
    client_name: "mcp-gen",
    grant_types: ["authorization_code", "refresh_token"],
    ...metadata,
    redirect_uris: [redirectUri],
    response_types: ["code"],
    token_endpoint_auth_method: requested,
    application_type: metadata.application_type ?? (isLoopback(new URL(redirectUri)) ? "native" : "web"),
  };
  const response = await send(
    context,
    endpoint,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      redirect: "error",
    },
    "the client registration",
  );
  const answer = await readJsonObject(context, response, "the registration endpoint's answer");
  if (response.status !== 200 && response.status !== 201) {
    const error = answer?.["error"];
    const description = answer?.["error_description"];
    throw new AuthorizationError(
      "registration",
      context.server,
      `${shown(server.issuer)} refused to register this client (HTTP ${response.status}${typeof error === "string" ? `, ${shown(error, 60)}` : ""}${
        typeof description === "string" ? `: ${shown(description)}` : ""
      })`,
    );
  }
  const clientId = answer?.["client_id"];
  const secret = answer?.["client_secret"];
  const expires = answer?.["client_secret_expires_at"];
  const method = answer?.["token_endpoint_auth_method"];
  if (typeof clientId !== "string" || clientId === "" || (secret !== undefined && typeof secret !== "string"))
    throw new AuthorizationError(
      "bad-response",
      context.server,
      `the registration endpoint of ${shown(server.issuer)} answered without a usable client_id`,
    );
  const effective = typeof method === "string" ? method : requested;
  if (
    effective !== "none" &&
    (!isAuthMethod(effective) || effective === "private_key_jwt" || typeof secret !== "string")
  )
    throw new AuthorizationError(
      "bad-response",
      context.server,
      `${shown(server.issuer)} registered this client for ${shown(effective)}, which it has no credentials for`,
    );
  return {
    client_id: clientId,
    ...(typeof secret === "string" && effective !== "none" ? { client_secret: secret } : {}),
    ...(typeof expires === "number" ? { client_secret_expires_at: expires } : {}),
    token_endpoint_auth_method: effective,
    redirect_uris: [redirectUri],
  };
}

/** What to ask to be registered with: the configured method, else a public client where possible. */
function requestedMethod(
  configured: string | undefined,
  supported: readonly string[] | undefined,
): TokenEndpointAuthMethod {
  // private_key_jwt needs a key this kind of client does not have.
  if (isAuthMethod(configured) && configured !== "private_key_jwt") return configured;
  if (supported === undefined || supported.includes("none")) return "none";
  return (["client_secret_basic", "client_secret_post"] as const).find((m) => supported.includes(m)) ?? "none";
}

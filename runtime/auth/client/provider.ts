// What a user of authorization plugs in: how the client identifies itself (its metadata, a
// Client ID Metadata Document URL, pre-registered credentials), where registrations and tokens
// are kept, and how the user is sent to the authorization server and brought back. Two kinds:
// a provider for the authorization code flow (a person authorizes), and client credentials
// (a machine authorizes itself). node.ts has a ready provider for CLIs and hosts.
import type { Jwk, SigningAlgorithm } from "./jwt.js";

/** What the client tells authorization servers about itself (RFC 7591 §2). */
export interface ClientMetadata {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  contacts?: string[];
  software_id?: string;
  software_version?: string;
  /** Default: authorization_code and refresh_token. */
  grant_types?: string[];
  /** Default: "none" where the authorization server takes it (a public client). */
  token_endpoint_auth_method?: string;
  /** Default: "native" for a loopback redirect URI, else "web" (OpenID Connect Registration). */
  application_type?: "native" | "web";
}

/** Client credentials registered with an authorization server beforehand. */
export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  /** The issuer they belong to; when given, they are never sent to another authorization server. */
  issuer?: string;
}

/** A registration obtained with Dynamic Client Registration, kept per issuer. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  /** Seconds since the epoch; 0 or absent: does not expire (RFC 7591 §3.2.1). */
  client_secret_expires_at?: number;
  token_endpoint_auth_method?: string;
  redirect_uris?: string[];
}

/** Tokens for one MCP server, with what they are bound to. */
export interface StoredTokens {
  access_token: string;
  token_type: "Bearer" | "DPoP";
  refresh_token?: string;
  /** Milliseconds since the epoch. */
  expires_at?: number;
  /** The lifetime the authorization server gave the token, in seconds (its `expires_in`). */
  expires_in?: number;
  /** The scope granted (or, when the authorization server did not say, the scope asked for). */
  scope?: string;
  /** The authorization server that issued them. */
  issuer: string;
  /** The client they were issued to. */
  client_id: string;
  /** The resource indicator (RFC 8707) they were issued for. */
  resource: string;
  /** DPoP-bound tokens: the private key they are bound to. */
  dpop_key?: Jwk;
}

/**
 * Where registrations (keyed by issuer) and tokens (keyed by the MCP server's URL) are kept. Both
 * are secrets: keep them where only the user can read them (node.ts's file store does).
 */
export interface CredentialStore {
  client(issuer: string): Promise<StoredClient | undefined>;
  saveClient(issuer: string, client: StoredClient | undefined): Promise<void>;
  tokens(server: string): Promise<StoredTokens | undefined>;
  saveTokens(server: string, tokens: StoredTokens | undefined): Promise<void>;
}

/** One authorization the user is asked for. */
export interface AuthorizationRequest {
  /** Where to send the user. */
  readonly url: URL;
  /** The MCP server and the authorization server, to tell the user what is asked and by whom. */
  readonly server: string;
  readonly issuer: string;
  /** Where the authorization server will send the user back (from redirectUri()). */
  readonly redirectUri: string;
}

/** The authorization code flow: a person authorizes this client. */
export interface OAuthClientProvider {
  readonly grant?: "authorization_code";
  readonly clientMetadata?: ClientMetadata;
  /**
   * An HTTPS URL with a path where this client's metadata document is served (Client ID Metadata
   * Documents); used as the client id wherever the authorization server supports it.
   */
  readonly clientMetadataUrl?: string;
  readonly preRegistered?: PreRegisteredClient;
  /** Default: in memory, for this process only. */
  readonly store?: CredentialStore;
  /** The redirect URI of the next authorization (a loopback listener may start here). */
  redirectUri(): string | Promise<string>;
  /**
   * Sends the user to `request.url` and resolves with the URL the authorization server sent them
   * back to (its query has the code, state and iss, or the error). The state and iss are checked
   * by the caller.
   */
  authorize(request: AuthorizationRequest): Promise<string | URL>;
}

/** The client credentials grant: the client authorizes itself (RFC 6749 §4.4). */
export interface ClientCredentialsProvider {
  readonly grant: "client_credentials";
  readonly clientId: string;
  /** For client_secret_basic or client_secret_post. */
  readonly clientSecret?: string | undefined;
  /** A PKCS#8 PEM private key, for private_key_jwt (RFC 7523). */
  readonly privateKey?: string | undefined;
  /** The private key's JWS algorithm (default ES256). */
  readonly signingAlgorithm?: SigningAlgorithm | undefined;
  /** The issuer these credentials belong to; when given, never sent to another. */
  readonly issuer?: string | undefined;
  /** Default: the scope the server challenges with, else its scopes_supported. */
  readonly scope?: string | undefined;
  readonly store?: CredentialStore | undefined;
}

export type AuthorizationProvider = OAuthClientProvider | ClientCredentialsProvider;

export function isClientCredentials(provider: AuthorizationProvider): provider is ClientCredentialsProvider {
  return provider.grant === "client_credentials";
}

/** A store for this process only. */
export function memoryStore(): CredentialStore {
  const clients = new Map<string, StoredClient>();
  const tokens = new Map<string, StoredTokens>();
  const put = <T>(map: Map<string, T>, key: string, value: T | undefined) =>
    value === undefined ? map.delete(key) : map.set(key, value);
  return {
    client: async (issuer) => clients.get(issuer),
    saveClient: async (issuer, client) => void put(clients, issuer, client),
    tokens: async (server) => tokens.get(server),
    saveTokens: async (server, value) => void put(tokens, server, value),
  };
}

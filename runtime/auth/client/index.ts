// OAuth 2.1 authorization for MCP clients over HTTP, without dependencies (WebCrypto only):
// `withAuthorization(fetch, { server, provider })` is a fetch for any HTTP client transport's
// `fetch` option. Discovery, registration, PKCE, DPoP, refresh and step-up happen inside it; the
// provider says who the client is, where credentials are kept and how the user is asked.
// Node's ready provider (loopback redirect, browser, a credentials file) is in ./node.js.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
export { withAuthorization, type WithAuthorizationOptions } from "./with-authorization.js";
export { AuthorizationSession, type AuthorizationOptions, type Recovery } from "./authorization-session.js";
export { AuthorizationError, type AuthorizationFailure } from "./errors.js";
export {
  memoryStore,
  type AuthorizationProvider,
  type AuthorizationRequest,
  type ClientCredentialsProvider,
  type ClientMetadata,
  type CredentialStore,
  type OAuthClientProvider,
  type PreRegisteredClient,
  type StoredClient,
  type StoredTokens,
} from "./provider.js";
export type { SigningAlgorithm } from "./jwt.js";
export type { Fetch } from "./http-context.js";
export type { AuthorizationServerMetadata, ProtectedResourceMetadata } from "./metadata.js";

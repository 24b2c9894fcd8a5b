// Server side of authorization: what a protected server knows about who sent a request, once its
// access token was verified. The HTTP endpoint's `auth` option produces it; transports hand it to
// the Peer as the `extra` of onmessage, and the Peer puts it on every handler's context. It names
// no revision. The token itself is deliberately not part of it, so that a handler logging its
// context cannot leak the credential (and an MCP server must not pass the token on anyway).
// The Peer (runtime/peer.ts) and the runtime's index use it as well, so it stands beside client/
// and server/ rather than in server/.

/** A verified access token, as the server's `verify` hook describes it. */
export interface AuthInfo {
  /** Whom the token speaks for: the resource owner (JWT `sub`). */
  readonly subject?: string | undefined;
  /** The OAuth client the token was issued to (JWT `client_id`, or `azp`). */
  readonly clientId?: string | undefined;
  /** The scopes granted. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (JWT `exp`); the endpoint refuses it after. */
  readonly expiresAt?: number | undefined;
  /**
   * The resources the token was issued for (JWT `aud`, RFC 8707); one of them must be this server's
   * resource URL. A hook that establishes the audience some other way returns that URL here.
   */
  readonly audience?: string | readonly string[] | undefined;
  /** Who issued the token (JWT `iss`). */
  readonly issuer?: string | undefined;
  /** Anything else the hook wants handlers to see (claims, roles, tenant). */
  readonly extra?: { readonly [key: string]: unknown } | undefined;
}

/** What a transport tells the receiver about a message besides the message (onmessage's `extra`). */
export interface MessageExtra {
  readonly authInfo?: AuthInfo | undefined;
}

/** The `extra` for messages from a sender: nothing when it is not known. */
export function extraOf(authInfo: AuthInfo | undefined): MessageExtra | undefined {
  return authInfo ? { authInfo } : undefined;
}

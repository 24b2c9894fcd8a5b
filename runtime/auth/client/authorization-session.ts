// One MCP server's authorization. It holds the server's tokens (from the store, refreshed when
// they expire) and acts when the server refuses a request: on 401 it finds who authorizes the
// server (again each time: the server may have moved to another authorization server), then
// refreshes the token or authorizes anew; on 403 insufficient_scope it authorizes again with the
// scope asked for added to the scope had. One flow at a time: requests refused together wait
// for the same flow, and a request refused with a token older than the current one just retries.
import type { ClientIdentity } from "./client-auth.js";
import { authorizeWithCode } from "./authorize.js";
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  resourceCovers,
  type AuthorizationServer,
} from "./discovery.js";
import { DPOP_ALGORITHM, DpopProver } from "./dpop.js";
import { AuthorizationError, shown } from "./errors.js";
import { secureEndpoint, type Fetch, type HttpContext } from "./http-context.js";
import type { ProtectedResourceMetadata } from "./metadata.js";
import {
  isClientCredentials,
  memoryStore,
  type AuthorizationProvider,
  type CredentialStore,
  type StoredTokens,
} from "./provider.js";
import { clientIdentity, issuedTo, machineIdentity } from "./registration.js";
import { covers, initialScope, scopeSet, union, withOfflineAccess } from "./scope-selection.js";
import { requestToken, type IssuedTokens } from "./token.js";
import type { ResourceChallenge } from "./www-authenticate.js";

export interface AuthorizationOptions {
  readonly provider: AuthorizationProvider;
  /**
   * DPoP-bound tokens (RFC 9449): "auto" (default) when both the MCP server (a DPoP challenge, or
   * DPoP in its resource metadata) and the authorization server (ES256) support them; "always"
   * refuses an authorization server that does not; "never" asks for bearer tokens only.
   */
  readonly dpop?: "auto" | "always" | "never";
  /** Each request to an authorization server, in ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Told each time a new access token is had (an authorization or a refresh): a host clears a failure it shows. */
  readonly onToken?: () => void;
}

/** How a refused request was dealt with: a new token by refresh or authorization, or one already there. */
export type Recovery = "refreshed" | "authorized" | "newer";

interface Discovered {
  readonly resource: string;
  readonly resourceMetadata: ProtectedResourceMetadata | undefined;
  readonly authorizationServer: AuthorizationServer;
}

/**
 * A token is refreshed before it is sent once it is this close to its expiry: a tenth of its
 * lifetime, at most 30 s, so a short-lived token is used before it is replaced (5 s: for 4.5 s).
 * Without its lifetime (tokens stored before it was kept) the margin is the longest.
 */
const MAX_EXPIRY_MARGIN_MS = 30_000;
const EXPIRY_MARGIN_SHARE = 0.1;

export class AuthorizationSession {
  readonly server: URL;
  /** The server's canonical URL: the store's key for its tokens. */
  readonly key: string;
  private readonly provider: AuthorizationProvider;
  private readonly store: CredentialStore;
  private readonly context: HttpContext;
  private tokens: StoredTokens | undefined;
  private loaded: Promise<void> | undefined;
  private dpop: DpopProver | undefined;
  private discovered: Discovered | undefined;
  private readonly authorizationServers = new Map<string, Promise<AuthorizationServer>>();
  private flow: { readonly refused: string | undefined; readonly done: Promise<Recovery> } | undefined;
  private readonly options: AuthorizationOptions;

  constructor(server: string | URL, fetch: Fetch, options: AuthorizationOptions) {
    this.options = options;
    this.server = new URL(server);
    this.key = canonicalResource(this.server);
    this.provider = options.provider;
    this.store = options.provider.store ?? memoryStore();
    this.context = { fetch, server: this.key, timeoutMs: options.timeoutMs ?? 30_000 };
  }

  /** The headers that authorize a request (Authorization, and DPoP); none before there is a token. */
  async credentials(
    method: string,
    url: URL,
  ): Promise<{ headers: Record<string, string>; tokens: StoredTokens | undefined }> {
    await this.load();
    const tokens = this.tokens;
    if (tokens && this.expiring(tokens) && this.canRefresh(tokens))
      await this.serialize(tokens, () => this.refreshOrForget(tokens));
    const current = this.tokens;
    if (!current) return { headers: {}, tokens: undefined };
    if (current.token_type === "Bearer")
      return { headers: { Authorization: `Bearer ${current.access_token}` }, tokens: current };
    if (!this.dpop) throw new AuthorizationError("refused", this.key, "a DPoP-bound token without its key");
    const proof = await this.dpop.proof(method, url, current.access_token);
    return { headers: { Authorization: `DPoP ${current.access_token}`, DPoP: proof }, tokens: current };
  }

  /** Keeps a DPoP nonce the server hands out; true when it is new (RFC 9449 §9: redo the request). */
  observe(url: URL, response: Response): boolean {
    return this.dpop?.remember(url, response) ?? false;
  }

  /** After a 401 to a request that carried `sent` (or no token); `refresh` false once a refresh did not help. */
  unauthorized(challenge: ResourceChallenge, sent: StoredTokens | undefined, refresh: boolean): Promise<Recovery> {
    return this.serialize(sent, async () => {
      const discovered = await this.discover(challenge);
      const issuer = discovered.authorizationServer.metadata.issuer;
      const sameServer = sent !== undefined && sent.issuer === issuer;
      if (refresh && sameServer && sent.refresh_token !== undefined && (await this.refresh(discovered, sent)))
        return "refreshed";
      // A new authorization keeps what was had (at the same authorization server) and adds what is asked.
      const scope = sameServer
        ? union(scopeSet(sent.scope), challenge.scope ?? [])
        : initialScope(challenge.scope, discovered.resourceMetadata?.scopes_supported);
      await this.authorize(discovered, scope, challenge);
      return "authorized";
    });
  }

  /** After a 403 insufficient_scope to a request that carried `sent`. */
  insufficientScope(challenge: ResourceChallenge, sent: StoredTokens | undefined): Promise<Recovery> {
    return this.serialize(sent, async () => {
      const discovered = await this.discover(challenge);
      const required = challenge.scope?.length
        ? challenge.scope
        : (discovered.resourceMetadata?.scopes_supported ?? []);
      const had = scopeSet(sent?.scope);
      if (required.length === 0)
        throw new AuthorizationError(
          "insufficient-scope",
          this.key,
          "the server refused the request for lack of scope without naming the scope it needs",
        );
      if (covers(had, required))
        throw new AuthorizationError(
          "insufficient-scope",
          this.key,
          `the server asks for the scope ${shown(required.join(" "))}, which the access token already has: authorizing again would not help`,
        );
      await this.authorize(discovered, union(had, required), challenge);
      return "authorized";
    });
  }

  /** Forgets the server's tokens, here and in the store. */
  async signOut(): Promise<void> {
    await this.load();
    await this.keep(undefined);
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const stored = await this.store.tokens(this.key);
      // Tokens for another resource (a store edited by hand, a server moved) are not sent here.
      if (!stored || !resourceCovers(stored.resource, this.server)) return;
      if (stored.token_type === "DPoP") {
        if (!stored.dpop_key) return;
        this.dpop = await DpopProver.restore(stored.dpop_key).catch(() => undefined);
        if (!this.dpop) return;
      }
      this.tokens = stored;
    })().catch((error: unknown) => {
      // A store that failed to read may work the next time.
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /**
   * Runs one flow at a time. A request refused with the token a running flow is replacing waits
   * for that flow (and shares its outcome); one refused with an older token than the current one
   * just retries with the current one.
   */
  private async serialize(sent: StoredTokens | undefined, task: () => Promise<Recovery>): Promise<Recovery> {
    const refused = sent?.access_token;
    if (this.flow && this.flow.refused === refused) return this.flow.done;
    while (this.flow) await this.flow.done.catch(() => {});
    if (this.tokens !== undefined && this.tokens.access_token !== refused) return "newer";
    const done = task().finally(() => {
      if (this.flow?.done === done) this.flow = undefined;
    });
    this.flow = { refused, done };
    return done;
  }

  private expiring(tokens: StoredTokens): boolean {
    if (tokens.expires_at === undefined) return false;
    const lifetime = tokens.expires_in === undefined ? Infinity : tokens.expires_in * 1000;
    const margin = Math.min(MAX_EXPIRY_MARGIN_MS, lifetime * EXPIRY_MARGIN_SHARE);
    return tokens.expires_at - margin <= Date.now();
  }

  /** A refresh before sending needs the authorization server at hand (found by an earlier 401). */
  private canRefresh(tokens: StoredTokens): boolean {
    return tokens.refresh_token !== undefined && this.discovered?.authorizationServer.metadata.issuer === tokens.issuer;
  }

  private async refreshOrForget(tokens: StoredTokens): Promise<Recovery> {
    const discovered = this.discovered;
    if (discovered && (await this.refresh(discovered, tokens))) return "refreshed";
    // Sent without a token, the request gets the server's challenge, and a new authorization.
    await this.keep(undefined);
    return "newer";
  }

  /** A refreshed token; false when the authorization server will not refresh this one any more. */
  private async refresh(discovered: Discovered, sent: StoredTokens): Promise<boolean> {
    const server = discovered.authorizationServer.metadata;
    const identity = await issuedTo(this.context, this.provider, this.store, server, sent.client_id);
    if (!identity || sent.refresh_token === undefined) return false;
    let issued: IssuedTokens;
    try {
      issued = await requestToken(this.context, {
        endpoint: secureEndpoint(this.context, server.token_endpoint, "token endpoint"),
        issuer: server.issuer,
        identity,
        params: { grant_type: "refresh_token", refresh_token: sent.refresh_token, resource: sent.resource },
        dpop: sent.token_type === "DPoP" ? this.dpop : undefined,
      });
    } catch (error) {
      // An OAuth error (invalid_grant: revoked, expired, …) means authorizing anew; anything else stands.
      if (error instanceof AuthorizationError && error.reason === "token") return false;
      throw error;
    }
    await this.keep(
      this.stored(issued, { ...sent, client_id: identity.clientId }, sent.refresh_token, scopeSet(sent.scope)),
    );
    return true;
  }

  private async authorize(discovered: Discovered, scope: string[], challenge: ResourceChallenge): Promise<void> {
    const server = discovered.authorizationServer.metadata;
    const dpop = await this.prover(discovered, challenge);
    let identity: ClientIdentity;
    let issued: IssuedTokens;
    let requested: string[];
    if (isClientCredentials(this.provider)) {
      identity = await machineIdentity(this.context, this.provider, server);
      requested =
        this.provider.scope !== undefined ? union(scopeSet(this.provider.scope), challenge.scope ?? []) : scope;
      issued = await requestToken(this.context, {
        endpoint: secureEndpoint(this.context, server.token_endpoint, "token endpoint"),
        issuer: server.issuer,
        identity,
        params: {
          grant_type: "client_credentials",
          resource: discovered.resource,
          ...(requested.length > 0 ? { scope: requested.join(" ") } : {}),
        },
        dpop,
      });
    } else {
      const provider = this.provider;
      const redirectUri = await provider.redirectUri();
      identity = await clientIdentity(this.context, provider, this.store, server, redirectUri);
      const grants = provider.clientMetadata?.grant_types;
      requested = withOfflineAccess(
        scope,
        grants === undefined || grants.includes("refresh_token"),
        server.scopes_supported,
      );
      issued = await authorizeWithCode(this.context, {
        provider,
        server,
        identity,
        redirectUri,
        resource: discovered.resource,
        scope: requested,
        dpop,
      });
    }
    const lineage = { issuer: server.issuer, client_id: identity.clientId, resource: discovered.resource };
    await this.keep(this.stored(issued, lineage, undefined, requested));
  }

  /** The DPoP prover for a new token, or undefined for a bearer token (see `dpop` in the options). */
  private async prover(discovered: Discovered, challenge: ResourceChallenge): Promise<DpopProver | undefined> {
    const mode = this.options.dpop ?? "auto";
    if (mode === "never") return undefined;
    const server = discovered.authorizationServer.metadata;
    const supported = server.dpop_signing_alg_values_supported?.includes(DPOP_ALGORITHM) === true;
    const metadata = discovered.resourceMetadata;
    const wanted =
      challenge.schemes.includes("dpop") ||
      metadata?.dpop_bound_access_tokens_required === true ||
      metadata?.dpop_signing_alg_values_supported !== undefined;
    if (mode === "auto" && !(supported && wanted)) return undefined;
    if (!supported)
      throw new AuthorizationError(
        "discovery",
        this.key,
        `DPoP is required, but ${shown(server.issuer)} does not take ${DPOP_ALGORITHM} proofs`,
      );
    this.dpop ??= await DpopProver.create();
    return this.dpop;
  }

  private stored(
    issued: IssuedTokens,
    lineage: Pick<StoredTokens, "issuer" | "client_id" | "resource">,
    previousRefresh: string | undefined,
    requested: readonly string[],
  ): StoredTokens {
    const refresh = issued.refreshToken ?? previousRefresh;
    const scope = issued.scope ?? requested.join(" ");
    return {
      access_token: issued.accessToken,
      token_type: issued.tokenType,
      ...(refresh !== undefined ? { refresh_token: refresh } : {}),
      ...(issued.expiresIn !== undefined
        ? { expires_at: Date.now() + issued.expiresIn * 1000, expires_in: issued.expiresIn }
        : {}),
      ...(scope !== "" ? { scope } : {}),
      issuer: lineage.issuer,
      client_id: lineage.client_id,
      resource: lineage.resource,
      ...(issued.tokenType === "DPoP" && this.dpop ? { dpop_key: this.dpop.privateJwk } : {}),
    };
  }

  private async keep(tokens: StoredTokens | undefined): Promise<void> {
    this.tokens = tokens;
    await this.store.saveTokens(this.key, tokens);
    if (tokens) this.options.onToken?.();
  }

  /** Who authorizes the server, found anew (it may have changed); authorization servers' metadata is kept. */
  private async discover(challenge: ResourceChallenge): Promise<Discovered> {
    const resourceMetadata = await discoverResource(this.context, this.server, challenge.resourceMetadata);
    const legacy = resourceMetadata === undefined;
    const issuer = legacy ? this.server.origin : this.pickIssuer(resourceMetadata.authorization_servers);
    const key = `${legacy}:${issuer}`;
    let found = this.authorizationServers.get(key);
    if (!found) {
      found = discoverAuthorizationServer(this.context, issuer, legacy);
      this.authorizationServers.set(key, found);
      found.catch(() => this.authorizationServers.delete(key));
    }
    const discovered: Discovered = {
      resource: resourceMetadata?.resource ?? this.key,
      resourceMetadata,
      authorizationServer: await found,
    };
    this.discovered = discovered;
    return discovered;
  }

  /** Of several authorization servers: the one the tokens are from, else the one credentials are bound to, else the first. */
  private pickIssuer(listed: readonly string[]): string {
    const bound = isClientCredentials(this.provider) ? this.provider.issuer : this.provider.preRegistered?.issuer;
    const preferred = [this.tokens?.issuer, bound].find((issuer) => issuer !== undefined && listed.includes(issuer));
    return preferred ?? (listed[0] as string);
  }
}

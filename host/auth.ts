// Authorization for the host's `url` servers and `mcp-gen tools --url`: the `auth` settings of a
// server entry (checked with the rest of the config), the provider they make
// (runtime/auth/client/node.ts: a browser and a loopback redirect, or client credentials for a
// machine), and the authorizing fetch the HTTP transports are given, one per server for as long
// as the host runs, which tells the host of each authorization that fails and of each new token.
// Authorization runs when the transport starts, before any MCP request, so the user's time in the
// browser does not count against a request's timeout.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  AuthorizationError,
  withAuthorization,
  type AuthorizationProvider,
  type Fetch,
  type SigningAlgorithm,
} from "../runtime/auth/client/index.js";
import { fileStore, nodeProvider } from "../runtime/auth/client/node.js";
import type { Transport } from "../runtime/index.js";

/** A server entry's `auth`: `true` (or `{}`) for the defaults, or any of these. */
export interface AuthSettings {
  /** Credentials registered beforehand with the server's authorization server. */
  clientId?: string;
  clientSecret?: string;
  /** The authorization server the credentials belong to; they are never sent to another. */
  issuer?: string;
  /** An HTTPS URL serving this client's metadata document (Client ID Metadata Documents). */
  clientMetadataUrl?: string;
  /** The client_name registered with authorization servers (default "mcp-gen"). */
  clientName?: string;
  /** "client_credentials": a machine client (clientId with clientSecret or privateKeyFile); no browser. */
  grant?: "authorization_code" | "client_credentials";
  /** client_credentials with private_key_jwt: a PKCS#8 PEM file, and its algorithm (default ES256). */
  privateKeyFile?: string;
  signingAlgorithm?: SigningAlgorithm;
  /** client_credentials: the scope to ask for (default: what the server asks for). */
  scope?: string;
  /** Where registrations and tokens are kept (default ~/.config/mcp-gen/credentials.json, mode 0600). */
  credentialsFile?: string;
  /** The loopback redirect listener's port (default: any free one). */
  redirectPort?: number;
  /** DPoP-bound tokens: "auto" (default), "always" or "never". */
  dpop?: "auto" | "always" | "never";
}

/** The host's own provider for a server, instead of the one its settings make (a GUI, a test). */
export type AuthorizationFactory = (server: string) => AuthorizationProvider | undefined;

const STRINGS = [
  "clientId",
  "clientSecret",
  "issuer",
  "clientMetadataUrl",
  "clientName",
  "privateKeyFile",
  "scope",
  "credentialsFile",
];
const CHOICES: Record<string, readonly string[]> = {
  grant: ["authorization_code", "client_credentials"],
  signingAlgorithm: ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"],
  dpop: ["auto", "always", "never"],
};

/** Reports each problem of an `auth` value; nothing when it is usable. */
export function checkAuthSettings(value: unknown, problem: (message: string) => void): void {
  if (value === true) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return problem("must be true or an object");
  const settings = value as { [key: string]: unknown };
  for (const [key, member] of Object.entries(settings)) {
    if (STRINGS.includes(key)) {
      if (typeof member !== "string" || member === "") problem(`${key} must be a non-empty string`);
    } else if (key in CHOICES) {
      if (!CHOICES[key]?.includes(member as string)) problem(`${key} must be one of ${CHOICES[key]?.join(", ")}`);
    } else if (key === "redirectPort") {
      if (!Number.isInteger(member) || (member as number) < 0 || (member as number) > 65535)
        problem("redirectPort must be a port number");
    } else problem(`unknown setting ${JSON.stringify(key)}`);
  }
  if (settings["grant"] === "client_credentials") {
    if (settings["clientId"] === undefined) problem("client_credentials needs a clientId");
    if (settings["clientSecret"] === undefined && settings["privateKeyFile"] === undefined)
      problem("client_credentials needs a clientSecret or a privateKeyFile");
  } else if (settings["clientSecret"] !== undefined && settings["clientId"] === undefined)
    problem("clientSecret needs a clientId");
}

export function defaultCredentialsFile(): string {
  const config = process.env["XDG_CONFIG_HOME"] || join(homedir(), ".config");
  return join(config, "mcp-gen", "credentials.json");
}

/** The provider an entry's settings describe. */
export function settingsProvider(settings: AuthSettings | true, log?: (line: string) => void): AuthorizationProvider {
  const given: AuthSettings = settings === true ? {} : settings;
  const credentialsFile = given.credentialsFile ?? defaultCredentialsFile();
  if (given.grant === "client_credentials") {
    return {
      grant: "client_credentials",
      clientId: given.clientId ?? "",
      ...(given.clientSecret !== undefined ? { clientSecret: given.clientSecret } : {}),
      ...(given.privateKeyFile !== undefined ? { privateKey: readFileSync(given.privateKeyFile, "utf8") } : {}),
      ...(given.signingAlgorithm !== undefined ? { signingAlgorithm: given.signingAlgorithm } : {}),
      ...(given.issuer !== undefined ? { issuer: given.issuer } : {}),
      ...(given.scope !== undefined ? { scope: given.scope } : {}),
      store: fileStore(credentialsFile),
    };
  }
  return nodeProvider({
    credentialsFile,
    ...(given.clientName !== undefined ? { clientMetadata: { client_name: given.clientName } } : {}),
    ...(given.clientMetadataUrl !== undefined ? { clientMetadataUrl: given.clientMetadataUrl } : {}),
    ...(given.clientId !== undefined
      ? {
          preRegistered: {
            client_id: given.clientId,
            ...(given.clientSecret !== undefined ? { client_secret: given.clientSecret } : {}),
            ...(given.issuer !== undefined ? { issuer: given.issuer } : {}),
          },
        }
      : {}),
    ...(given.redirectPort !== undefined ? { port: given.redirectPort } : {}),
    ...(log ? { log } : {}),
  });
}

/** A server to authorize for: a `url` entry with `auth`. */
export interface AuthorizedServer {
  readonly name: string;
  readonly url: string;
  readonly auth: AuthSettings | true;
}

/** A fetch that authorizes the requests to the server as its settings say (or with the factory's provider). */
export function authorizedFetch(
  server: AuthorizedServer,
  factory?: AuthorizationFactory,
  log?: (line: string) => void,
  onToken?: () => void,
): Fetch {
  const provider = factory?.(server.name) ?? settingsProvider(server.auth, log);
  const dpop = server.auth === true ? undefined : server.auth.dpop;
  return withAuthorization((input, init) => fetch(input, init), {
    server: server.url,
    provider,
    ...(dpop ? { dpop } : {}),
    ...(onToken ? { onToken } : {}),
  });
}

/** Hears of a server's authorization: the error of one that failed, or undefined when a new token came. */
export type AuthorizationListener = (failure: AuthorizationError | undefined) => void;

/** One authorizing fetch per configured server, kept across its restarts (its tokens with it). */
const perServer = new WeakMap<object, Fetch>();

/**
 * The authorizing fetch of a server entry; undefined when it has no `auth`. The listener given
 * when it is made hears of it for good (one supervisor per entry asks for it at each start).
 */
export function serverFetch(
  server: { readonly name: string; readonly url: string; readonly auth?: AuthSettings | true | undefined },
  factory?: AuthorizationFactory,
  listener?: AuthorizationListener,
): Fetch | undefined {
  const { auth } = server;
  if (auth === undefined) return undefined;
  let kept = perServer.get(server);
  if (!kept) {
    const fetch = authorizedFetch({ name: server.name, url: server.url, auth }, factory, undefined, () =>
      listener?.(undefined),
    );
    perServer.set(server, (kept = reported(fetch, listener)));
  }
  return kept;
}

/**
 * A failed authorization (the user declined, a hostile or misconfigured server) fails the request
 * that needed it and no other: nothing is remembered, so the next request that needs authorizing
 * asks anew (the user may accept this time). The listener is told, for the server's status.
 */
function reported(fetch: Fetch, listener: AuthorizationListener | undefined): Fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (error instanceof AuthorizationError) listener?.(error);
      throw error;
    }
  };
}

/**
 * Authorizes ahead of the MCP connection: one GET, which a protected server refuses with its
 * challenge (and the fetch then authorizes), and which is otherwise answered without a session
 * (405, an error, or a stream that is dropped at once).
 */
export async function authorizeAhead(fetch: Fetch, url: string): Promise<void> {
  const response = await fetch(url, { method: "GET", headers: { Accept: "text/event-stream" } });
  await response.body?.cancel().catch(() => {});
}

/** The transport with authorization done first when it starts (outside any request's timeout). */
export function authorizeBeforeStart<T extends Transport>(transport: T, fetch: Fetch, url: string): T {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await authorizeAhead(fetch, url);
    await start();
  };
  return transport;
}

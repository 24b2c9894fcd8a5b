// Finding who authorizes access to an MCP server. First its protected resource metadata
// (RFC 9728): the URL a 401 challenge names, else the well-known URLs built from the server's
// path, then its root. Then the metadata of the authorization server it lists, at the RFC 8414
// and OpenID Connect Discovery well-known URLs in the order the spec gives, with the issuer in the
// document checked against the one the URL was built from. A server of revision 2025-03-26 has
// no resource metadata: its authorization server is its own origin, whose metadata is looked for
// the same way and, missing, replaced by the default endpoints (/authorize, /token, /register).
// Specs: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery
//        https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#server-metadata-discovery
import { AuthorizationError, shown } from "./errors.js";
import { discard, isLoopback, readJsonObject, secureEndpoint, send, type HttpContext } from "./http-context.js";
import {
  parseResourceMetadata,
  parseServerMetadata,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from "./metadata.js";

/** An authorization server as discovered: its metadata, or the 2025-03-26 default endpoints. */
export interface AuthorizationServer {
  readonly metadata: AuthorizationServerMetadata;
  /** True when no metadata was found and the endpoints are the 2025-03-26 defaults. */
  readonly defaults: boolean;
}

/** The server's URL as a resource indicator (RFC 8707): no fragment or query, no lone trailing slash. */
export function canonicalResource(server: URL): string {
  const path = server.pathname === "/" ? "" : server.pathname;
  return `${server.protocol}//${server.host}${path}`;
}

/**
 * True when metadata naming `resource` may speak for `server`: the same origin, and a path that
 * is the server's or a parent of it (a root document speaks for every path on its origin).
 */
export function resourceCovers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin || url.hash !== "") return false;
  const base = url.pathname.replace(/\/+$/, "");
  return base === "" || server.pathname === base || server.pathname.startsWith(`${base}/`);
}

/**
 * The server's protected resource metadata: from the challenge's `resource_metadata` when it
 * gave one, else from the well-known URLs; undefined when there is none (a 2025-03-26 server).
 * Metadata for another resource is refused.
 */
export async function discoverResource(
  context: HttpContext,
  server: URL,
  resourceMetadata: string | undefined,
): Promise<ProtectedResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (resourceMetadata !== undefined) {
    // Over plain HTTP only where the server itself is (its origin) or on loopback: metadata read
    // in the clear elsewhere could send the user to anyone's authorization server.
    const url = URL.canParse(resourceMetadata) ? new URL(resourceMetadata) : undefined;
    if (
      url &&
      (url.protocol === "https:" || (url.protocol === "http:" && (isLoopback(url) || url.origin === server.origin)))
    )
      candidates.push(url);
  }
  const path = server.pathname.replace(/\/+$/, "");
  if (path !== "") candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server));
  candidates.push(new URL("/.well-known/oauth-protected-resource", server));
  for (const url of candidates) {
    const document = await fetchDocument(context, url, "the protected resource metadata");
    if (document === undefined) continue;
    const metadata = parseResourceMetadata(document);
    if (typeof metadata === "string")
      throw new AuthorizationError(
        "discovery",
        context.server,
        `the protected resource metadata at ${url.href} is unusable: ${metadata}`,
      );
    if (!resourceCovers(metadata.resource, server))
      throw new AuthorizationError(
        "resource-mismatch",
        context.server,
        `the protected resource metadata at ${url.href} is for ${shown(metadata.resource)}, not for this server: refused`,
      );
    return metadata;
  }
  return undefined;
}

/** The well-known metadata URLs of an issuer, in the order the spec gives. */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  const at = (suffix: string) => new URL(suffix, issuer);
  if (path === "") return [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * The metadata of the authorization server `issuer` (as the resource metadata lists it). With
 * `legacy` (a 2025-03-26 server without resource metadata; `issuer` is then its origin), missing
 * metadata means the default endpoints rather than a failure.
 */
export async function discoverAuthorizationServer(
  context: HttpContext,
  issuer: string,
  legacy = false,
): Promise<AuthorizationServer> {
  const base = secureEndpoint(context, issuer, "authorization server");
  if (base.search !== "" || base.hash !== "")
    throw new AuthorizationError("discovery", context.server, `the issuer ${shown(issuer)} has a query or fragment`);
  const tried: string[] = [];
  for (const url of serverMetadataUrls(base)) {
    tried.push(url.href);
    const document = await fetchDocument(context, url, "the authorization server metadata");
    if (document === undefined) continue;
    const metadata = parseServerMetadata(document);
    if (typeof metadata === "string")
      throw new AuthorizationError(
        "discovery",
        context.server,
        `the authorization server metadata at ${url.href} is unusable: ${metadata}`,
      );
    // RFC 8414 §3.3: identical, or the metadata must not be used. A 2025-03-26 issuer is an origin
    // this client derived, which a server may well write with its trailing slash.
    const same = metadata.issuer === issuer || (legacy && metadata.issuer === `${issuer}/`);
    if (!same)
      throw new AuthorizationError(
        "issuer-mismatch",
        context.server,
        `the authorization server metadata at ${url.href} names the issuer ${shown(metadata.issuer)}, not ${shown(issuer)}: refused`,
      );
    return { metadata, defaults: false };
  }
  if (!legacy)
    throw new AuthorizationError(
      "discovery",
      context.server,
      `no metadata for the authorization server ${shown(issuer)} (tried ${tried.join(", ")})`,
    );
  const at = (path: string) => new URL(path, base).href;
  return {
    metadata: {
      issuer,
      authorization_endpoint: at("/authorize"),
      token_endpoint: at("/token"),
      registration_endpoint: at("/register"),
      // 2025-03-26 made PKCE mandatory for every client, with no way to advertise it.
      code_challenge_methods_supported: ["S256"],
    },
    defaults: true,
  };
}

/** A metadata document: the JSON object at `url`, or undefined when it is not there (any non-200). */
async function fetchDocument(context: HttpContext, url: URL, what: string): Promise<unknown> {
  const response = await send(context, url, { headers: { Accept: "application/json" } }, `fetching ${what}`);
  if (response.status !== 200) {
    await discard(response);
    return undefined;
  }
  const document = await readJsonObject(context, response, `${what} at ${url.href}`);
  if (document === undefined)
    throw new AuthorizationError("discovery", context.server, `${what} at ${url.href} is not a JSON object`);
  return document;
}

// Server side of OAuth 2.0 Protected Resource Metadata (RFC 9728): the document that tells a
// client which authorization servers issue tokens for this MCP server, its path-aware well-known
// URL, and a handler serving it (node:http-shaped and Web-standard). The document is public, so
// any origin may read it (CORS), and the Host/Origin checks of the MCP endpoint do not apply.
// Spec: https://datatracker.ietf.org/doc/html/rfc9728 and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/authorization-server-discovery
import { fetchHandler, type HttpRequestLike, type HttpResponseLike } from "../../http-handler.js";

export const PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** Fields of the document besides `resource` and `authorization_servers` (RFC 9728 §2). */
export interface ProtectedResourceMetadataFields {
  readonly scopes_supported?: readonly string[] | undefined;
  readonly resource_name?: string | undefined;
  readonly resource_documentation?: string | undefined;
  readonly resource_policy_uri?: string | undefined;
  readonly resource_tos_uri?: string | undefined;
  readonly jwks_uri?: string | undefined;
  readonly bearer_methods_supported?: readonly string[] | undefined;
  readonly [field: string]: unknown;
}

export interface ProtectedResourceMetadata extends ProtectedResourceMetadataFields {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
}

/** An absolute http(s) URL without fragment or credentials, or undefined. */
function resourceUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  // URL drops an empty fragment ("…#"), so look at the text too.
  if (value.includes("#") || url.username !== "" || url.password !== "") return undefined;
  return url;
}

/** The path of a resource URL without its trailing slash ("" for the root). */
function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/+$/, "");
}

/**
 * A resource URL as audiences are compared (RFC 8707 §2, the MCP canonical server URI): scheme
 * and host in lower case, default port and trailing slash dropped; undefined when it is no
 * resource URL at all.
 */
export function canonicalResource(value: string): string | undefined {
  const url = resourceUrl(value);
  return url && `${url.protocol}//${url.host}${trimmedPath(url)}${url.search}`;
}

/** Throws unless `value` can identify a protected resource (or an authorization server). */
export function checkResourceUrl(value: string, what: string): void {
  if (!resourceUrl(value)) throw new TypeError(`${what} must be an absolute http(s) URL without fragment: ${value}`);
}

/**
 * Where a resource's metadata lives (RFC 9728 §3.1): the well-known path inserted between the
 * host and the resource's path, e.g. https://example.com/mcp → https://example.com/.well-known/oauth-protected-resource/mcp.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = resourceUrl(resource);
  if (!url) throw new TypeError(`not a resource URL: ${resource}`);
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${trimmedPath(url)}${url.search}`;
}

/** The document served at the well-known URL, and the handlers serving it. */
export interface ProtectedResourceEndpoint {
  /** The document's URL, as 401 challenges name it (`resource_metadata`). */
  readonly url: string;
  /** The path of `url`, to route GET requests to `handle` or `fetch`. */
  readonly path: string;
  readonly document: ProtectedResourceMetadata;
  /** Serves the document from node:http (GET, HEAD; OPTIONS for CORS preflight). */
  handle(req: HttpRequestLike, res: HttpResponseLike): void;
  /** Serves the document, Web-standard. */
  fetch(request: Request): Promise<Response>;
}

const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS" };

export function protectedResourceEndpoint(document: ProtectedResourceMetadata): ProtectedResourceEndpoint {
  const url = protectedResourceMetadataUrl(document.resource);
  const body = JSON.stringify(document);
  const handle = (req: HttpRequestLike, res: HttpResponseLike): void => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...CORS, "Access-Control-Allow-Headers": "*", "Access-Control-Max-Age": "86400" });
      return void res.end();
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...CORS, Allow: "GET, HEAD, OPTIONS" });
      return void res.end();
    }
    res.writeHead(200, { ...CORS, "Content-Type": "application/json" });
    res.end(req.method === "HEAD" ? undefined : body);
  };
  return {
    url,
    path: new URL(url).pathname,
    document,
    handle,
    fetch: fetchHandler(async (req, res) => handle(req, res)),
  };
}

// How authorization talks to authorization servers and metadata endpoints: every request bounded
// in time and in the size of what is read back, answers parsed as JSON objects or refused, and
// the rule for which endpoints may be used at all (HTTPS, or the loopback interface).
import { AuthorizationError, shown } from "./errors.js";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The most read of any answer (metadata documents and token responses are a few KiB). */
const MAX_BODY_BYTES = 1 << 20;

export interface HttpContext {
  readonly fetch: Fetch;
  /** The MCP server, for errors. */
  readonly server: string;
  /** Per request, in ms. */
  readonly timeoutMs: number;
}

export type Json = { [key: string]: unknown };

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True when `url` is on this machine (where plain HTTP is allowed, as for redirect URIs). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/** An endpoint of an authorization server as a URL, refused unless it is HTTPS or loopback HTTP. */
export function secureEndpoint(context: HttpContext, value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthorizationError("bad-response", context.server, `the ${what} is not a URL: ${shown(value)}`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url))) return url;
  throw new AuthorizationError(
    "insecure-endpoint",
    context.server,
    `the ${what} ${shown(url.href)} is not HTTPS: refused (only loopback addresses may use plain HTTP)`,
  );
}

/** Sends one request; network failures and timeouts become an "unavailable" AuthorizationError. */
export async function send(context: HttpContext, url: URL, init: RequestInit, what: string): Promise<Response> {
  try {
    return await context.fetch(url, { ...init, signal: AbortSignal.timeout(context.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const why = timedOut
      ? `no answer within ${context.timeoutMs / 1000} s`
      : error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    throw new AuthorizationError("unavailable", context.server, `${what} at ${url.href} failed: ${why}`, {
      cause: error,
    });
  }
}

/** The body as text, read up to the limit: a longer one is a hostile answer, refused. */
export async function readText(context: HttpContext, response: Response, what: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw new AuthorizationError("bad-response", context.server, `${what} is larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AuthorizationError) throw error;
    throw new AuthorizationError("unavailable", context.server, `${what} broke off while being read`, { cause: error });
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The body as a JSON object, or undefined when it is anything else (not JSON, an array, …). */
export async function readJsonObject(
  context: HttpContext,
  response: Response,
  what: string,
): Promise<Json | undefined> {
  const text = await readText(context, response, what);
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Drops a body that will not be read, so the connection is freed. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** Optional members of untrusted JSON, each of the expected kind or a problem to report. */
export const optional = {
  string(value: unknown): value is string | undefined {
    return value === undefined || typeof value === "string";
  },
  strings(value: unknown): value is string[] | undefined {
    return value === undefined || (Array.isArray(value) && value.every((item) => typeof item === "string"));
  },
  boolean(value: unknown): value is boolean | undefined {
    return value === undefined || typeof value === "boolean";
  },
};

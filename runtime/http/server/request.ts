// How the MCP endpoint reads a request and writes a response (a header, a refusal as a JSON-RPC
// error body, a stream write bounded by what the client has not read), on the node:http shapes of
// runtime/http-handler.ts; and the checks every request passes first: Host and Origin (DNS
// rebinding), Accept, Content-Type and the body's size.
import type { HttpRequestLike, HttpResponseLike } from "../../http-handler.js";

export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** A JSON-RPC error (with `data` when given) as the whole body of an HTTP error response. */
export function refuse(
  res: HttpResponseLike,
  status: number,
  code: number,
  message: string,
  headers: { [name: string]: string } = {},
  id: string | number | null = null,
  data?: unknown,
): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  const error = data === undefined ? { code, message } : { code, message, data };
  res.end(JSON.stringify({ jsonrpc: "2.0", id, error }));
}

export function header(req: HttpRequestLike, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function accepts(req: HttpRequestLike, type: string): boolean {
  const accept = header(req, "accept") ?? "";
  return accept.split(",").some((part) => {
    const media = part.split(";")[0]?.trim().toLowerCase();
    return media === type || media === "*/*";
  });
}

/**
 * The host name (lower case, IPv6 in brackets) and port of a Host header's value, parsed as a URL's
 * authority would be; undefined for anything that is not just a host and port (user-info, a path).
 */
function authorityOf(value: string, scheme = "http"): { hostname: string; host: string } | undefined {
  if (value === "" || /[@/\\?#\s]/.test(value)) return undefined;
  try {
    const url = new URL(`${scheme}://${value}`);
    return { hostname: url.hostname, host: url.host };
  } catch {
    return undefined;
  }
}

/**
 * An Origin header's host, when it is an origin as browsers send one (`http[s]://host[:port]`,
 * nothing more): user-info, a path, or "null" make it no origin at all.
 */
function originAuthority(origin: string): { hostname: string; host: string } | undefined {
  const scheme = /^(https?):\/\//i.exec(origin);
  return scheme ? authorityOf(origin.slice(scheme[0].length), scheme[1]) : undefined;
}

export interface OriginPolicy {
  /** Host names accepted in Host and Origin; "any" turns the Host check off (same-origin requests only). */
  readonly allowedHosts: readonly string[] | "any";
  /** Origins accepted besides those of the allowed hosts. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

/** DNS rebinding: a page on another host must not reach this server through the browser. */
export function trusted(req: HttpRequestLike, policy: OriginPolicy): boolean {
  const { allowedHosts, allowedOrigins } = policy;
  const hostHeader = header(req, "host");
  const host = hostHeader === undefined ? undefined : authorityOf(hostHeader);
  if (allowedHosts !== "any" && (host === undefined || !allowedHosts.includes(host.hostname))) return false;
  const origin = header(req, "origin");
  if (origin === undefined || allowedOrigins?.includes(origin)) return true;
  const from = originAuthority(origin);
  if (from === undefined) return false;
  return allowedHosts === "any" ? from.host === host?.host : allowedHosts.includes(from.hostname);
}

/**
 * Writes to a stream that the client should be reading. A client that has left more than
 * `maxBuffered` bytes unread loses its connection instead (false then), so that it cannot make
 * the server hold its stream in memory; one message larger than the bound still goes out whole.
 */
export function writeBounded(res: HttpResponseLike, text: string, maxBuffered: number): boolean {
  if (res.writableEnded || res.destroyed) return false;
  if ((res.writableLength ?? 0) > maxBuffered) {
    if (res.destroy) res.destroy();
    else res.end();
    return false;
  }
  res.write(text);
  return true;
}

/** Collects a body's chunks as text; false once past the limit. */
class BodyText {
  private readonly decoder = new TextDecoder();
  private size = 0;
  private text = "";
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: unknown): boolean {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    this.size += bytes.byteLength;
    if (this.size > this.limit) return false;
    this.text += this.decoder.decode(bytes, { stream: true });
    return true;
  }

  end(): string {
    return this.text + this.decoder.decode();
  }
}

/** Why a body was not read whole: too large (413), or too slow to arrive (408). */
export interface BodyRefusal {
  readonly status: 408 | 413;
  readonly message: string;
}

/**
 * The body as text, or a refusal once it grows past `limit` bytes or has not ended `timeoutMs`
 * after reading began (0: no time limit); the rest is not read.
 */
export function readBody(req: HttpRequestLike, limit: number, timeoutMs: number): Promise<string | BodyRefusal> {
  const body = new BodyText(limit);
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (outcome: string | BodyRefusal | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // A client that announces a body and sends it slowly, or not at all, must not hold its connection.
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () => settle({ status: 408, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms` }),
            timeoutMs,
          )
        : undefined;
    /** Takes a chunk; false once reading is over. */
    const add = (chunk: unknown): boolean => {
      if (!done && !body.add(chunk)) settle({ status: 413, message: `Payload Too Large: over ${limit} bytes` });
      return !done;
    };
    const failed = (error: unknown) => settle(error instanceof Error ? error : new Error(String(error)));
    const on = req.on?.bind(req);
    if (!on) {
      void (async () => {
        for await (const chunk of req) if (!add(chunk)) return;
        settle(body.end());
      })().catch(failed);
      return;
    }
    on("data", add);
    on("end", () => settle(body.end()));
    on("error", failed);
    // The client went away before the body ended.
    on("close", () => failed(new Error("the client closed the connection before sending the whole body")));
  });
}

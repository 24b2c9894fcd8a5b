// What the HTTP server reads of a request and writes to a response, typed here (the shapes of
// node:http's IncomingMessage and ServerResponse, which the fetch adapter also provides) so that
// vendored code compiles without @types/node; and the checks every request passes first: Host and
// Origin (DNS rebinding), Accept, Content-Type and the body's size.

/** What the server uses of node:http's IncomingMessage. */
export interface HttpRequestLike extends AsyncIterable<unknown> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { [name: string]: string | string[] | undefined };
  /** node:http's events; the body is read through them where they exist (cheaper than async iteration). */
  on?(event: "data" | "end" | "error" | "close", listener: (value?: unknown) => void): unknown;
  destroy?(): unknown;
}

/** What the server uses of node:http's ServerResponse. */
export interface HttpResponseLike {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  /** Bytes written but not yet taken by the client; a stream whose client stops reading grows it. */
  readonly writableLength?: number;
  writeHead(status: number, headers?: { [name: string]: string }): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  on(event: "close", listener: () => void): unknown;
  /** Ends the connection at once (a client that reads nothing). */
  destroy?(): unknown;
}

export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** A JSON-RPC error as the whole body of an HTTP error response. */
export function refuse(
  res: HttpResponseLike,
  status: number,
  code: number,
  message: string,
  headers: { [name: string]: string } = {},
  id: string | number | null = null,
): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
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

/** The host name of a Host header or an origin's authority, without the port. */
function hostName(authority: string): string {
  const name = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.split(":")[0];
  return (name ?? "").toLowerCase();
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
  const host = header(req, "host");
  if (allowedHosts !== "any" && (host === undefined || !allowedHosts.includes(hostName(host)))) return false;
  const origin = header(req, "origin");
  if (origin === undefined || allowedOrigins?.includes(origin)) return true;
  const authority = /^https?:\/\/([^/]+)$/i.exec(origin)?.[1];
  if (authority === undefined) return false;
  return allowedHosts === "any"
    ? authority.toLowerCase() === host?.toLowerCase()
    : allowedHosts.includes(hostName(authority));
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

/** The body as text; undefined once it grows past `limit` bytes (the rest is not read). */
export async function readBody(req: HttpRequestLike, limit: number): Promise<string | undefined> {
  const body = new BodyText(limit);
  const on = req.on?.bind(req);
  if (!on) {
    for await (const chunk of req) if (!body.add(chunk)) return undefined;
    return body.end();
  }
  return new Promise((resolve, reject) => {
    let done = false;
    on("data", (chunk) => {
      if (done || body.add(chunk)) return;
      done = true;
      resolve(undefined);
    });
    on("end", () => {
      if (!done) resolve(body.end());
      done = true;
    });
    on("error", (error) => {
      if (!done) reject(error instanceof Error ? error : new Error(String(error)));
      done = true;
    });
    // The client went away before the body ended.
    on("close", () => {
      if (!done) reject(new Error("the client closed the connection before sending the whole body"));
      done = true;
    });
  });
}

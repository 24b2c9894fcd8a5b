// Sealing the request state a server hands out with a multi round-trip result (2026-07-28 and
// later), so that what a client sends back is what the server gave, unaltered and not expired:
// an HMAC-SHA-256 over the state and its expiry, with WebCrypto. A server of a stateless revision
// keeps nothing between rounds, so the state is the only memory it has; a client must not be
// able to forge it. Generated servers take a seal in `options.requestState` and apply it to every
// result and retry themselves.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr
import { fromBase64Url, toBase64Url } from "./encoding.js";

export interface RequestStateSeal {
  /** The state as the client will carry it: tamper-evident, and expiring. */
  seal(state: string): Promise<string>;
  /** The state a sealed value carries; undefined when it was altered, forged or has expired. */
  open(sealed: string): Promise<string | undefined>;
}

export interface RequestStateSealOptions {
  /**
   * The HMAC key (at least 32 bytes). Servers behind a load balancer share one, so that any node
   * can open what another sealed; default: a random key, good for this process only.
   */
  key?: Uint8Array;
  /** How long a sealed state stays valid, in ms (default 1 hour). */
  ttlMs?: number;
}

export async function createRequestStateSeal(options: RequestStateSealOptions = {}): Promise<RequestStateSeal> {
  // A copy: WebCrypto takes only ArrayBuffer-backed bytes, and the caller's may be shared.
  const raw = options.key ? new Uint8Array(options.key) : crypto.getRandomValues(new Uint8Array(32));
  if (raw.byteLength < 32) throw new RangeError("a request state key needs at least 32 bytes");
  const ttlMs = options.ttlMs ?? 60 * 60_000;
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const encoder = new TextEncoder();
  return {
    async seal(state) {
      const payload = encoder.encode(JSON.stringify({ s: state, e: Date.now() + ttlMs }));
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, payload));
      return `${toBase64Url(payload)}.${toBase64Url(mac)}`;
    },
    async open(sealed) {
      const [body, signature, extra] = sealed.split(".");
      if (body === undefined || signature === undefined || extra !== undefined) return undefined;
      const payload = fromBase64Url(body);
      const mac = fromBase64Url(signature);
      if (!payload || !mac || !(await crypto.subtle.verify("HMAC", key, mac, payload))) return undefined;
      try {
        const { s, e } = JSON.parse(new TextDecoder().decode(payload)) as { s?: unknown; e?: unknown };
        return typeof s === "string" && typeof e === "number" && e > Date.now() ? s : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

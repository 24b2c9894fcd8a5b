// PKCE with S256 (RFC 7636 §4.1-4.2): a verifier of 32 random bytes (43 base64url characters)
// and its challenge, the base64url SHA-256 of it. Also the random `state` of each flow.
import { toBase64Url } from "../../encoding.js";

/** `bytes` random bytes from the platform's CSPRNG, base64url-encoded. */
export function randomString(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

export async function createPkce(): Promise<Pkce> {
  const verifier = randomString(32);
  return { verifier, challenge: toBase64Url(await sha256(verifier)) };
}

// Base64url (RFC 4648 §5, without padding) for the runtime's WebCrypto users: sealed request
// state, and the JWTs, PKCE challenges and key thumbprints of authorization. btoa/atob are
// globals in every runtime the code targets, so no Buffer.

export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of a base64url text; undefined when it is not one. Only the canonical text is taken:
 * the unused low bits of a last character must be zero, so no two texts decode to the same bytes
 * (a MAC check on the bytes then also holds for the text).
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  const unusedBits = (text.length * 6) % 8;
  if (unusedBits === 0) return bytes;
  const last = ALPHABET.indexOf(text[text.length - 1] ?? "A");
  return (last & ((1 << unusedBits) - 1)) === 0 ? bytes : undefined;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

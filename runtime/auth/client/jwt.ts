// Compact JWS signing with WebCrypto, for the two JWTs a client makes: private_key_jwt client
// assertions (RFC 7523 §2.2) and DPoP proofs (RFC 9449 §4). Keys come as PKCS#8 PEM or as JWK;
// ECDSA signatures from WebCrypto are already in the JWS form (r || s, RFC 7518 §3.4).
import { toBase64Url } from "../../encoding.js";

export type SigningAlgorithm = "ES256" | "ES384" | "ES512" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512";

/** A WebCrypto key, typed from the API itself so the runtime needs no DOM or Node typings. */
export type WebCryptoKey =
  Awaited<ReturnType<typeof crypto.subtle.generateKey>> extends infer K
    ? K extends { privateKey: infer P }
      ? P
      : K
    : never;

/** The members of a JSON Web Key (RFC 7517) this client reads and writes. */
export interface Jwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  d?: string;
}

export interface SigningKey {
  readonly algorithm: SigningAlgorithm;
  readonly key: WebCryptoKey;
}

const ALGORITHMS: { readonly [A in SigningAlgorithm]: { readonly params: object; readonly sign: object } } = {
  ES256: { params: { name: "ECDSA", namedCurve: "P-256" }, sign: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { params: { name: "ECDSA", namedCurve: "P-384" }, sign: { name: "ECDSA", hash: "SHA-384" } },
  ES512: { params: { name: "ECDSA", namedCurve: "P-521" }, sign: { name: "ECDSA", hash: "SHA-512" } },
  RS256: { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, sign: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, sign: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { params: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, sign: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { params: { name: "RSA-PSS", hash: "SHA-256" }, sign: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { params: { name: "RSA-PSS", hash: "SHA-384" }, sign: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { params: { name: "RSA-PSS", hash: "SHA-512" }, sign: { name: "RSA-PSS", saltLength: 64 } },
};

export function isSigningAlgorithm(value: string): value is SigningAlgorithm {
  return Object.hasOwn(ALGORITHMS, value);
}

type Subtle = typeof crypto.subtle;
type ImportParams = Parameters<Subtle["importKey"]>[2];
type SignParams = Parameters<Subtle["sign"]>[0];

/** A private key in PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), for signing with `algorithm`. */
export async function importPemKey(pem: string, algorithm: SigningAlgorithm): Promise<SigningKey> {
  const match = /-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----/.exec(pem);
  if (!match?.[1]) throw new Error("the private key is not a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)");
  const der = Uint8Array.from(atob(match[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("pkcs8", der, ALGORITHMS[algorithm].params as ImportParams, false, [
    "sign",
  ]);
  return { algorithm, key };
}

/** A private key as a JWK (what a stored DPoP key is kept as). */
export async function importJwkKey(jwk: Jwk, algorithm: SigningAlgorithm): Promise<SigningKey> {
  const key = await crypto.subtle.importKey("jwk", jwk, ALGORITHMS[algorithm].params as ImportParams, true, ["sign"]);
  return { algorithm, key };
}

/** A fresh key pair for `algorithm` whose private half can be saved as a JWK. */
export async function generateKeyPair(
  algorithm: SigningAlgorithm,
): Promise<{ privateKey: SigningKey; publicJwk: Jwk }> {
  const params = ALGORITHMS[algorithm].params;
  const rsa = algorithm.startsWith("RS") || algorithm.startsWith("PS");
  const generated = (await crypto.subtle.generateKey(
    (rsa ? { ...params, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) } : params) as Parameters<
      Subtle["generateKey"]
    >[0] & { name: "ECDSA" },
    true,
    ["sign", "verify"],
  )) as { privateKey: WebCryptoKey; publicKey: WebCryptoKey };
  return { privateKey: { algorithm, key: generated.privateKey }, publicJwk: await exportJwk(generated.publicKey) };
}

export async function exportJwk(key: WebCryptoKey): Promise<Jwk> {
  return (await crypto.subtle.exportKey("jwk", key)) as Jwk;
}

/**
 * The required public members of a key (RFC 7638 §3.2), in lexical order: what a DPoP proof's
 * header carries, and what its thumbprint is computed over.
 */
export function publicJwk(jwk: Jwk): Jwk {
  const members: { [name: string]: string | undefined } =
    jwk.kty === "RSA" ? { e: jwk.e, kty: jwk.kty, n: jwk.n } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined)) as unknown as Jwk;
}

/** The JWK SHA-256 thumbprint (RFC 7638): the required members in lexical order, no spaces. */
export async function thumbprint(jwk: Jwk): Promise<string> {
  const members = publicJwk(jwk);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(members)));
  return toBase64Url(new Uint8Array(digest));
}

/** `header.claims.signature`, the header's `alg` set from the key. */
export async function signJwt(header: object, claims: object, signer: SigningKey): Promise<string> {
  const encode = (value: object) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));
  const input = `${encode({ ...header, alg: signer.algorithm })}.${encode(claims)}`;
  const signature = await crypto.subtle.sign(
    ALGORITHMS[signer.algorithm].sign as SignParams,
    signer.key,
    new TextEncoder().encode(input),
  );
  return `${input}.${toBase64Url(new Uint8Array(signature))}`;
}

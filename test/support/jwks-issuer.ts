// A token issuer for the server-side authorization tests: an ES256 key pair made with jose, its
// JWKS served on a loopback port, and JWT access tokens (RFC 9068 claims) signed with it, or with
// a key nobody published. No authorization endpoints: the tests need tokens, not the flow.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

export interface TokenClaims {
  sub?: string;
  /** Default: the resource given to sign. */
  aud?: string | string[];
  /** Space-separated, as RFC 9068 has it. */
  scope?: string;
  client_id?: string;
  /** Seconds since the epoch; default an hour from now. */
  exp?: number;
  iss?: string;
}

export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** A token for `resource` with these claims. */
  sign(resource: string, claims?: TokenClaims): Promise<string>;
  /** The same, signed with a key the JWKS does not hold. */
  signWithUnknownKey(resource: string, claims?: TokenClaims): Promise<string>;
  close(): Promise<void>;
}

function signer(key: PrivateKey, kid: string, issuer: string) {
  return (resource: string, claims: TokenClaims = {}) => {
    const { sub = "alice", aud = resource, exp = Math.floor(Date.now() / 1000) + 3600, iss = issuer, ...rest } = claims;
    return new SignJWT({ client_id: "test-client", ...rest })
      .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
      .setIssuer(iss)
      .setSubject(sub)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key);
  };
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const published = await generateKeyPair("ES256");
  const unknown = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(published.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  const jwks = JSON.stringify({ keys: [jwk] });
  const http = createServer((req, res) => {
    if (req.url !== "/jwks.json") return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "application/json" }).end(jwks);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    issuer: origin,
    jwksUri: `${origin}/jwks.json`,
    sign: signer(published.privateKey, "k1", origin),
    signWithUnknownKey: signer(unknown.privateKey, "k1", origin),
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

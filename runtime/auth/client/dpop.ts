// DPoP (RFC 9449): sender-constrained tokens. One ES256 key pair per token lineage; a fresh proof
// JWT for every request that uses it (to the token endpoint, §5, and to the MCP server with the
// token's hash, §7), each with its own `jti`; and the nonce a server hands out in `DPoP-Nonce`
// (§8, §9), carried in the proofs that go to that origin afterwards.
import { toBase64Url } from "../../encoding.js";
import { exportJwk, generateKeyPair, importJwkKey, publicJwk, signJwt, type Jwk, type SigningKey } from "./jwt.js";
import { randomString, sha256 } from "./pkce.js";

/** The one proof algorithm this client uses; an authorization server must list it. */
export const DPOP_ALGORITHM = "ES256";

export class DpopProver {
  /** The last nonce each origin handed out. */
  private readonly nonces = new Map<string, string>();

  private readonly signer: SigningKey;
  private readonly publicKey: Jwk;
  /** The private key as a JWK, to be stored with the tokens it binds. */
  readonly privateJwk: Jwk;

  private constructor(signer: SigningKey, publicKey: Jwk, privateJwk: Jwk) {
    this.signer = signer;
    this.publicKey = publicKey;
    this.privateJwk = privateJwk;
  }

  static async create(): Promise<DpopProver> {
    const { privateKey } = await generateKeyPair(DPOP_ALGORITHM);
    return DpopProver.restore(await exportJwk(privateKey.key));
  }

  /** The prover of a stored key (tokens bound to it stay usable across runs). */
  static async restore(privateJwk: Jwk): Promise<DpopProver> {
    const signer = await importJwkKey(privateJwk, DPOP_ALGORITHM);
    return new DpopProver(signer, publicJwk(privateJwk), privateJwk);
  }

  /** A proof for one request; with `accessToken`, bound to it (`ath`). */
  async proof(method: string, url: URL, accessToken?: string): Promise<string> {
    const claims: { [claim: string]: string | number } = {
      jti: randomString(16),
      htm: method.toUpperCase(),
      // §4.2: the target URI without query and fragment.
      htu: `${url.origin}${url.pathname}`,
      iat: Math.floor(Date.now() / 1000),
    };
    const nonce = this.nonces.get(url.origin);
    if (nonce !== undefined) claims["nonce"] = nonce;
    if (accessToken !== undefined) claims["ath"] = toBase64Url(await sha256(accessToken));
    return signJwt({ typ: "dpop+jwt", jwk: this.publicKey }, claims, this.signer);
  }

  /** Keeps the nonce a response hands out; true when it is one the next proof did not carry yet. */
  remember(url: URL, response: Response): boolean {
    const nonce = response.headers.get("dpop-nonce");
    if (nonce === null || nonce === "" || nonce.length > 1024) return false;
    const changed = this.nonces.get(url.origin) !== nonce;
    this.nonces.set(url.origin, nonce);
    return changed;
  }
}

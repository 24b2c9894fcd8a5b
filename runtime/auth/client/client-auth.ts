// How a client authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2): not at all
// (a public client: its id in the body), with its secret in an HTTP Basic header or in the body,
// or with a JWT signed by its private key. The method is the one registered, else the first the
// authorization server supports that the client has what it takes for.
import { signJwt, type SigningKey } from "./jwt.js";
import { randomString } from "./pkce.js";

export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** Who the client is at one authorization server, and how it proves it. */
export interface ClientIdentity {
  readonly clientId: string;
  readonly method: TokenEndpointAuthMethod;
  readonly clientSecret?: string | undefined;
  readonly signingKey?: SigningKey | undefined;
}

const METHODS: readonly TokenEndpointAuthMethod[] = [
  "none",
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
];

export function isAuthMethod(value: string | undefined): value is TokenEndpointAuthMethod {
  return METHODS.includes(value as TokenEndpointAuthMethod);
}

/**
 * The method for a client holding a secret and/or a key, among those the authorization server
 * lists (RFC 8414: client_secret_basic when it lists none); undefined when none fits.
 */
export function chooseAuthMethod(
  supported: readonly string[] | undefined,
  has: { readonly secret: boolean; readonly key: boolean },
): TokenEndpointAuthMethod | undefined {
  const listed = supported ?? ["client_secret_basic"];
  const usable: TokenEndpointAuthMethod[] = [];
  if (has.key) usable.push("private_key_jwt");
  if (has.secret) usable.push("client_secret_basic", "client_secret_post");
  if (!has.key && !has.secret) usable.push("none");
  return usable.find((method) => listed.includes(method)) ?? (supported === undefined ? usable[0] : undefined);
}

/** Form encoding of a Basic credential's parts (RFC 6749 §2.3.1). */
const formEncode = (value: string) => new URLSearchParams([["", value]]).toString().slice(1);

/** Adds the client's authentication to a token request; `audience` is the issuer (RFC 7523bis). */
export async function authenticateClient(
  identity: ClientIdentity,
  body: URLSearchParams,
  headers: Record<string, string>,
  audience: string,
): Promise<void> {
  switch (identity.method) {
    case "none":
      body.set("client_id", identity.clientId);
      return;
    case "client_secret_basic": {
      const credentials = `${formEncode(identity.clientId)}:${formEncode(identity.clientSecret ?? "")}`;
      headers["Authorization"] = `Basic ${btoa(credentials)}`;
      return;
    }
    case "client_secret_post":
      body.set("client_id", identity.clientId);
      body.set("client_secret", identity.clientSecret ?? "");
      return;
    case "private_key_jwt": {
      if (!identity.signingKey) throw new Error("private_key_jwt without a key");
      const now = Math.floor(Date.now() / 1000);
      const assertion = await signJwt(
        { typ: "JWT" },
        {
          iss: identity.clientId,
          sub: identity.clientId,
          aud: audience,
          jti: randomString(16),
          iat: now,
          exp: now + 60,
        },
        identity.signingKey,
      );
      body.set("client_id", identity.clientId);
      body.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      body.set("client_assertion", assertion);
      return;
    }
  }
}

// The parts of runtime/auth that are plain functions: reading WWW-Authenticate, the well-known
// URLs in the spec's order, which metadata may speak for a server, scope arithmetic, choosing a
// token endpoint authentication method, and the JWK thumbprint (RFC 7638's own example).
import { describe, expect, it } from "vitest";
import { chooseAuthMethod } from "../runtime/auth/client/client-auth.js";
import { canonicalResource, resourceCovers, serverMetadataUrls } from "../runtime/auth/client/discovery.js";
import { thumbprint } from "../runtime/auth/client/jwt.js";
import { covers, initialScope, scopeSet, union, withOfflineAccess } from "../runtime/auth/client/scope-selection.js";
import { parseChallenges, readChallenge } from "../runtime/auth/client/www-authenticate.js";

describe("WWW-Authenticate", () => {
  it("reads several challenges, quoted and plain values, escapes and commas inside quotes", () => {
    expect(
      parseChallenges(
        'Basic realm="x", Bearer error="insufficient_scope", scope="a b", error_description="no, \\"never\\"", DPoP algs="ES256 PS256"',
      ),
    ).toEqual([
      { scheme: "basic", params: { realm: "x" } },
      { scheme: "bearer", params: { error: "insufficient_scope", scope: "a b", error_description: 'no, "never"' } },
      { scheme: "dpop", params: { algs: "ES256 PS256" } },
    ]);
  });

  it("survives a token68, stray commas and garbage without losing the challenges around them", () => {
    expect(parseChallenges('Basic abc==, , Bearer error=invalid_token junk, scope="s"')).toEqual([
      { scheme: "basic", params: { abc: "" } },
      { scheme: "bearer", params: { error: "invalid_token", scope: "s" } },
    ]);
    expect(parseChallenges('Bearer scope="unterminated')).toEqual([
      { scheme: "bearer", params: { scope: "unterminated" } },
    ]);
  });

  it("merges the Bearer and DPoP challenges of a response", () => {
    const response = new Response(null, {
      status: 401,
      headers: {
        "WWW-Authenticate": 'DPoP algs="ES256", Bearer resource_metadata="https://a/.well-known/x", scope="r w"',
      },
    });
    expect(readChallenge(response)).toEqual({
      schemes: ["dpop", "bearer"],
      resourceMetadata: "https://a/.well-known/x",
      scope: ["r", "w"],
      error: undefined,
      dpopAlgorithms: ["ES256"],
    });
  });
});

describe("discovery URLs", () => {
  it("lists an issuer's metadata URLs in the spec's order, with and without a path", () => {
    expect(serverMetadataUrls(new URL("https://auth.example/tenant1")).map(String)).toEqual([
      "https://auth.example/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example/.well-known/openid-configuration/tenant1",
      "https://auth.example/tenant1/.well-known/openid-configuration",
    ]);
    expect(serverMetadataUrls(new URL("https://auth.example")).map(String)).toEqual([
      "https://auth.example/.well-known/oauth-authorization-server",
      "https://auth.example/.well-known/openid-configuration",
    ]);
  });

  it("takes resource metadata for the server or a parent path on its origin only", () => {
    const server = new URL("https://mcp.example/api/mcp");
    expect(resourceCovers("https://mcp.example/api/mcp", server)).toBe(true);
    expect(resourceCovers("https://MCP.example", server)).toBe(true);
    expect(resourceCovers("https://mcp.example/api/", server)).toBe(true);
    expect(resourceCovers("https://mcp.example/ap", server)).toBe(false);
    expect(resourceCovers("https://mcp.example/other", server)).toBe(false);
    expect(resourceCovers("https://evil.example/api/mcp", server)).toBe(false);
    expect(resourceCovers("http://mcp.example/api/mcp", server)).toBe(false);
    expect(resourceCovers("not a url", server)).toBe(false);
  });

  it("makes the resource indicator without fragment, query or lone trailing slash", () => {
    expect(canonicalResource(new URL("HTTPS://MCP.example/?x=1#f"))).toBe("https://mcp.example");
    expect(canonicalResource(new URL("https://mcp.example:8443/mcp"))).toBe("https://mcp.example:8443/mcp");
  });
});

describe("scope", () => {
  it("asks for the challenge's scope, else scopes_supported, else nothing", () => {
    expect(initialScope(["a"], ["b", "c"])).toEqual(["a"]);
    expect(initialScope(undefined, ["b", "c"])).toEqual(["b", "c"]);
    expect(initialScope([], undefined)).toEqual([]);
  });

  it("adds offline_access only to a scope it asks for, where the authorization server lists it", () => {
    expect(withOfflineAccess(["a"], true, ["a", "offline_access"])).toEqual(["a", "offline_access"]);
    expect(withOfflineAccess(["a"], true, ["a"])).toEqual(["a"]);
    expect(withOfflineAccess(["a"], false, ["offline_access"])).toEqual(["a"]);
    expect(withOfflineAccess([], true, ["offline_access"])).toEqual([]);
  });

  it("does set arithmetic on space-separated words", () => {
    expect(scopeSet("  a b  a ")).toEqual(["a", "b"]);
    expect(union(["a", "b"], ["b", "c"])).toEqual(["a", "b", "c"]);
    expect(covers(["a", "b"], ["b"])).toBe(true);
    expect(covers(["a"], ["a", "b"])).toBe(false);
  });
});

describe("token endpoint authentication", () => {
  it("picks what the client can do among what the server lists (client_secret_basic when it lists none)", () => {
    expect(chooseAuthMethod(["none"], { secret: false, key: false })).toBe("none");
    expect(chooseAuthMethod(["client_secret_post"], { secret: true, key: false })).toBe("client_secret_post");
    expect(chooseAuthMethod(undefined, { secret: true, key: false })).toBe("client_secret_basic");
    expect(chooseAuthMethod(["private_key_jwt", "client_secret_basic"], { secret: true, key: true })).toBe(
      "private_key_jwt",
    );
    expect(chooseAuthMethod(["private_key_jwt"], { secret: true, key: false })).toBeUndefined();
  });
});

it("computes RFC 7638's example JWK thumbprint", async () => {
  const n =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
  expect(await thumbprint({ kty: "RSA", n, e: "AQAB" })).toBe("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
});

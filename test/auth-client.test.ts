// runtime/auth against a loopback authorization server and a generated MCP server behind it
// (test/support/oauth-server.ts): the flows a client goes through (discovery, registration,
// PKCE, refresh, step-up, a moved authorization server, client credentials, DPoP), and the
// hostile answers it must refuse with a clear error, never sending a token where it does not belong.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../generated/2025-11-25/index.js";
import {
  AuthorizationError,
  memoryStore,
  withAuthorization,
  type AuthorizationProvider,
  type CredentialStore,
  type OAuthClientProvider,
  type WithAuthorizationOptions,
} from "../runtime/auth/client/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import {
  json,
  listen,
  startAuthServer,
  startProtectedServer,
  type AuthServerOptions,
  type ProtectedServerOptions,
  type TestAuthServer,
} from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const REDIRECT = "http://127.0.0.1:7777/callback";

/** A user who approves at once: the authorization endpoint's redirect is the answer (no browser). */
function headlessUser(overrides: Partial<OAuthClientProvider> = {}): OAuthClientProvider & { asked: URL[] } {
  const asked: URL[] = [];
  return {
    asked,
    clientMetadata: { client_name: "auth-test" },
    redirectUri: () => REDIRECT,
    async authorize({ url }) {
      asked.push(url);
      const response = await fetch(url, { redirect: "manual" });
      return response.headers.get("location") ?? "";
    },
    ...overrides,
  };
}

async function setUp(
  asOptions: AuthServerOptions = {},
  rsOptions: Partial<ProtectedServerOptions> = {},
): Promise<{ as: TestAuthServer; rs: Awaited<ReturnType<typeof startProtectedServer>> }> {
  const as = await startAuthServer(asOptions);
  cleanups.push(() => as.close());
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], grant: as.grant, ...rsOptions });
  cleanups.push(() => rs.close());
  return { as, rs };
}

/** A generated 2025-11-25 client over Streamable HTTP with an authorizing fetch. */
async function connect(url: string, provider: AuthorizationProvider, options: Partial<WithAuthorizationOptions> = {}) {
  const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), {
    server: url,
    provider,
    ...options,
  });
  const client = createClient({
    transport: new StreamableHttpClientTransport(url, { fetch, openStream: false }),
    clientInfo: { name: "auth-test", version: "1.0.0" },
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, fetch };
}

/** The error a promise rejects with, as an AuthorizationError. */
async function refusal(promise: Promise<unknown>): Promise<AuthorizationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthorizationError);
  return error as AuthorizationError;
}

/** Every request any of `servers` received with a credential in Authorization or DPoP. */
const credentialed = (
  ...servers: { seen: { authorization: string | undefined; dpop: string | undefined; path: string }[] }[]
) => servers.flatMap((server) => server.seen.filter((r) => r.authorization !== undefined || r.dpop !== undefined));

describe("the authorization code flow", () => {
  it("discovers, registers, authorizes with PKCE and the resource, and calls the server with the token", async () => {
    const { as, rs } = await setUp({}, { scopeFor: () => ["mcp:read"] });
    const user = headlessUser();
    const { client } = await connect(rs.url, user);
    expect(await client.callTool({ name: "read", arguments: {} })).toMatchObject({ content: [{ text: "read done" }] });

    expect(as.registrations).toEqual([
      expect.objectContaining({ redirect_uris: [REDIRECT], application_type: "native", client_name: "auth-test" }),
    ]);
    const [authorization] = as.authorizations;
    expect(authorization?.get("code_challenge_method")).toBe("S256");
    expect(authorization?.get("resource")).toBe(rs.url);
    // The challenge's scope, plus offline_access: the authorization server lists it.
    expect(authorization?.get("scope")).toBe("mcp:read offline_access");
    expect(as.tokenRequests[0]?.get("resource")).toBe(rs.url);
    expect(as.tokenRequests[0]?.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user.asked).toHaveLength(1);
    // The token went to the MCP server only; nothing was sent to the authorization server with one.
    expect(credentialed(as).filter((r) => !r.authorization?.startsWith("Basic "))).toEqual([]);
    expect(
      rs.seen
        .filter((r) => r.path === "/mcp")
        .slice(1)
        .every((r) => r.authorization?.startsWith("Bearer at-")),
    ).toBe(true);
  });

  it("finds resource metadata at the well-known URL when the challenge does not name it, and an issuer with a path", async () => {
    const { as, rs } = await setUp({ issuerPath: "/tenant1" }, { challengeWithMetadata: false });
    const { client } = await connect(rs.url, headlessUser());
    await client.listTools();
    expect(as.issuer).toMatch(/\/tenant1$/);
    expect(as.seen.map((r) => r.path)).toContain("/.well-known/oauth-authorization-server/tenant1");
  });

  it("refreshes an expired token without asking the user again", async () => {
    const { as, rs } = await setUp();
    const user = headlessUser();
    const { client } = await connect(rs.url, user);
    as.expire();
    await client.listTools();
    expect(user.asked).toHaveLength(1);
    expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect(as.tokenRequests[1]?.get("resource")).toBe(rs.url);
  });

  it("uses a short-lived token until the last tenth of its life, and refreshes it before sending after that", async () => {
    // The clock stands still unless the test moves it; the network is real.
    vi.useFakeTimers({ toFake: ["Date"] });
    const issued = Date.now();
    const { as, rs } = await setUp({ expiresIn: 5 });
    const { client } = await connect(rs.url, headlessUser());
    const grants = () => as.tokenRequests.map((r) => r.get("grant_type"));
    await client.listTools();
    await client.listTools();
    expect(grants()).toEqual(["authorization_code"]);
    vi.setSystemTime(issued + 4_400);
    await client.listTools();
    expect(grants()).toEqual(["authorization_code"]);
    // Within 0.5 s of its expiry (a tenth of 5 s): refreshed before it is sent (the server would still take it).
    vi.setSystemTime(issued + 4_600);
    await client.listTools();
    expect(grants()).toEqual(["authorization_code", "refresh_token"]);
  });

  it("steps up to the wider scope a tool asks for, keeping the scope it had", async () => {
    const { as, rs } = await setUp(
      {},
      { scopeFor: (method, tool) => (tool === "write" ? ["mcp:write"] : method === "tools/call" ? ["mcp:read"] : []) },
    );
    const user = headlessUser();
    const { client } = await connect(rs.url, user);
    await client.callTool({ name: "read", arguments: {} });
    expect(await client.callTool({ name: "write", arguments: {} })).toMatchObject({
      content: [{ text: "write done" }],
    });
    // Nothing asked at first (no scope anywhere), then what each tool needs, added to what was had.
    expect(as.authorizations.map((p) => p.get("scope"))).toEqual([
      null,
      "mcp:read offline_access",
      "mcp:read offline_access mcp:write",
    ]);
    expect(user.asked).toHaveLength(3);
  });

  it("stops stepping up when the token already has the scope the server asks for", async () => {
    const { as, rs } = await setUp({}, { scopeFor: () => ["mcp:read"] });
    const user = headlessUser();
    await connect(rs.url, user);
    // From now on the server wants mcp:read and refuses whatever token comes: a misconfigured server.
    const stuck = await startProtectedServer({
      authorizationServers: () => [as.issuer],
      grant: (token) => {
        const grant = as.grant(token);
        return grant && { ...grant, scopes: [] };
      },
      scopeFor: () => ["mcp:read"],
    });
    cleanups.push(() => stuck.close());
    const error = await refusal(connect(stuck.url, headlessUser()));
    expect(error.reason).toBe("insufficient-scope");
    expect(error.message).toContain(stuck.url);
    expect(as.authorizations.length).toBe(2);
  });

  it("re-registers with the new authorization server when the server moves, never showing it the old client", async () => {
    const first = await startAuthServer();
    const second = await startAuthServer();
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    let current = first;
    const rs = await startProtectedServer({
      authorizationServers: () => [current.issuer],
      grant: (token) => current.grant(token),
    });
    cleanups.push(() => rs.close());
    const store = memoryStore();
    const user = headlessUser({ store });
    const { client } = await connect(rs.url, user);
    current = second;
    await client.listTools();
    expect(first.registrations).toHaveLength(1);
    expect(second.registrations).toHaveLength(1);
    expect(second.authorizations.map((p) => p.get("client_id"))).toEqual(["client-1"]);
    expect(second.seen.some((r) => r.body.includes("client-1") && r.path === "/token")).toBe(true);
    // Registrations are kept per issuer; the tokens are the new server's.
    expect(await store.client(first.issuer)).toMatchObject({ client_id: "client-1" });
    expect(await store.client(second.issuer)).toMatchObject({ client_id: "client-1" });
    expect(await store.tokens(rs.url)).toMatchObject({ issuer: second.issuer });
  });

  it("uses a Client ID Metadata Document URL where the authorization server supports them, and pre-registered credentials first", async () => {
    const { as, rs } = await setUp({
      metadata: (m) => ({ ...m, client_id_metadata_document_supported: true }),
      clientSecrets: new Map([["pre", "s3cret"]]),
    });
    await connect(rs.url, headlessUser({ clientMetadataUrl: "https://app.example/client.json" }));
    expect(as.registrations).toEqual([]);
    expect(as.authorizations[0]?.get("client_id")).toBe("https://app.example/client.json");

    const pre = await startProtectedServer({ authorizationServers: () => [as.issuer], grant: as.grant });
    cleanups.push(() => pre.close());
    await connect(
      pre.url,
      headlessUser({
        clientMetadataUrl: "https://app.example/client.json",
        preRegistered: { client_id: "pre", client_secret: "s3cret" },
      }),
    );
    expect(as.authorizations[1]?.get("client_id")).toBe("pre");
    expect(as.seen.at(-1)?.authorization).toBe(`Basic ${btoa("pre:s3cret")}`);
  });

  it("refuses pre-registered credentials bound to another issuer", async () => {
    const { as, rs } = await setUp();
    const error = await refusal(
      connect(rs.url, headlessUser({ preRegistered: { client_id: "pre", issuer: "https://elsewhere.example" } })),
    );
    expect(error.reason).toBe("registration");
    expect(as.tokenRequests).toEqual([]);
  });

  it("keeps tokens in the store and uses them in the next session without asking", async () => {
    const { rs } = await setUp();
    const store: CredentialStore = memoryStore();
    const user = headlessUser({ store });
    await connect(rs.url, user);
    const again = headlessUser({ store });
    const { client } = await connect(rs.url, again);
    await client.listTools();
    expect(again.asked).toEqual([]);
  });

  it("authorizes once for requests refused together", async () => {
    const { as, rs } = await setUp();
    const user = headlessUser();
    const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), { server: rs.url, provider: user });
    const post = () =>
      fetch(rs.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      });
    const answers = await Promise.all([post(), post(), post()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(user.asked).toHaveLength(1);
    expect(as.tokenRequests).toHaveLength(1);
  });

  it("talks to a 2025-03-26 server without metadata through the default endpoints of its origin", async () => {
    // One origin for both, as 2025-03-26 has it: a front that sends /mcp to the MCP server and
    // everything else to an authorization server without metadata.
    let url = "";
    const as = await startAuthServer({ noMetadata: true, redirect: (redirect) => redirect.searchParams.delete("iss") });
    cleanups.push(() => as.close());
    const mcp = await startProtectedServer({
      authorizationServers: () => [],
      grant: as.grant,
      challengeWithMetadata: false,
      resource: () => url,
    });
    cleanups.push(() => mcp.close());
    const front = await listen(async (req, res, body, at) => {
      if (at.pathname.startsWith("/.well-known/oauth-protected-resource")) return json(res, 404, {});
      const target = at.pathname === "/mcp" ? mcp.origin : as.origin;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host") headers[name] = value;
      const answer = await fetch(`${target}${at.pathname}${at.search}`, {
        method: req.method ?? "GET",
        headers,
        body: body || null,
        redirect: "manual",
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    cleanups.push(() => front.close());
    url = `${front.origin}/mcp`;
    const { client } = await connect(url, headlessUser());
    await client.listTools();
    expect(as.seen.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/.well-known/oauth-authorization-server", "/register", "/authorize", "/token"]),
    );
    expect(as.authorizations[0]?.get("resource")).toBe(url);
    expect(as.authorizations[0]?.get("code_challenge_method")).toBe("S256");
  });
});

describe("hostile and broken answers", () => {
  it("refuses resource metadata naming another origin's resource, before any authorization", async () => {
    const { as, rs } = await setUp({}, { resource: () => "https://evil.example/mcp" });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("resource-mismatch");
    expect(error.message).toContain(rs.url);
    expect(error.message).toContain("https://evil.example/mcp");
    expect(as.seen).toEqual([]);
  });

  it("does not read resource metadata a challenge names over plain HTTP elsewhere, but the server's own", async () => {
    const { as, rs } = await setUp(
      {},
      { challengeMetadataUrl: "http://metadata.invalid/.well-known/oauth-protected-resource" },
    );
    const { client } = await connect(rs.url, headlessUser());
    await client.listTools();
    expect(as.tokenRequests).toHaveLength(1);
    expect(rs.seen.map((r) => r.path)).toContain("/.well-known/oauth-protected-resource/mcp");
  });

  it("refuses an authorization response whose iss is not the issuer, and never sends its code", async () => {
    const { as, rs } = await setUp({ redirect: (url) => url.searchParams.set("iss", "https://evil.example") });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("issuer-mismatch");
    expect(as.tokenRequests).toEqual([]);
  });

  it("refuses an iss that differs only by a trailing slash (simple string comparison), and a missing advertised iss", async () => {
    const slash = await setUp({ redirect: (url) => url.searchParams.set("iss", `${url.searchParams.get("iss")}/`) });
    expect((await refusal(connect(slash.rs.url, headlessUser()))).reason).toBe("issuer-mismatch");
    const missing = await setUp({ redirect: (url) => url.searchParams.delete("iss") });
    expect((await refusal(connect(missing.rs.url, headlessUser()))).reason).toBe("issuer-mismatch");
    expect([...slash.as.tokenRequests, ...missing.as.tokenRequests]).toEqual([]);
  });

  it("does not believe the error of a response from the wrong issuer", async () => {
    const { rs } = await setUp({
      user: () => "deny",
      redirect: (url) => url.searchParams.set("iss", "https://evil.example"),
    });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("issuer-mismatch");
    expect(error.message).not.toContain("the user said no");
  });

  it("discards a redirect with another state", async () => {
    const { as, rs } = await setUp({ redirect: (url) => url.searchParams.set("state", "forged") });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("state-mismatch");
    expect(as.tokenRequests).toEqual([]);
  });

  it("refuses an authorization server that does not advertise PKCE with S256", async () => {
    for (const methods of [undefined, ["plain"]]) {
      const { as, rs } = await setUp({ metadata: (m) => ({ ...m, code_challenge_methods_supported: methods }) });
      const error = await refusal(connect(rs.url, headlessUser()));
      expect(error.reason).toBe("pkce-unsupported");
      expect(as.authorizations).toEqual([]);
    }
  });

  it("refuses authorization server metadata whose issuer is not the one it was looked up for", async () => {
    const { as, rs } = await setUp({ metadata: (m) => ({ ...m, issuer: "https://honest.example" }) });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("issuer-mismatch");
    expect(as.seen.map((r) => r.path)).toEqual(["/.well-known/oauth-authorization-server"]);
  });

  it("refuses endpoints that are neither HTTPS nor loopback", async () => {
    const { rs } = await setUp({ metadata: (m) => ({ ...m, token_endpoint: "http://tokens.example/token" }) });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("insecure-endpoint");
  });

  it.each([
    ["not JSON", { status: 200, body: "<html>oops</html>" }],
    ["a JSON array", { status: 200, body: "[1, 2]" }],
    ["no access_token", { status: 200, body: JSON.stringify({ token_type: "Bearer" }) }],
    [
      "a token that cannot go into a header",
      { status: 200, body: JSON.stringify({ access_token: "a\r\nX-Evil: 1", token_type: "Bearer" }) },
    ],
    ["an unknown token_type", { status: 200, body: JSON.stringify({ access_token: "t", token_type: "MAC" }) }],
    ["a DPoP token without a proof", { status: 200, body: JSON.stringify({ access_token: "t", token_type: "DPoP" }) }],
    [
      "a negative expires_in",
      { status: 200, body: JSON.stringify({ access_token: "t", token_type: "Bearer", expires_in: -5 }) },
    ],
    ["an error without an OAuth error", { status: 500, body: "{}" }],
    ["a body of 2 MiB", { status: 200, body: `{"access_token":"${"a".repeat(2 << 20)}"}` }],
  ])("refuses a token endpoint answering with %s, and sends no token anywhere", async (_what, answer) => {
    const { as, rs } = await setUp({ tokenAnswer: () => answer });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error.reason).toBe("bad-response");
    expect(error.message).toContain("token endpoint");
    expect(credentialed(rs)).toEqual([]);
    expect(as.tokenRequests).toHaveLength(1);
  });

  it("reports an OAuth error of the token endpoint with its code, quoted on one line", async () => {
    const { rs } = await setUp({
      tokenAnswer: () => ({
        status: 400,
        body: JSON.stringify({ error: "invalid_grant", error_description: "no\nway" }),
      }),
    });
    const error = await refusal(connect(rs.url, headlessUser()));
    expect(error).toMatchObject({ reason: "token", oauthError: "invalid_grant" });
    expect(error.message).toContain('"no way"');
  });

  it("gives up on an authorization server that does not answer", async () => {
    const silent = await listen(() => new Promise(() => {}));
    cleanups.push(() => silent.close());
    const rs = await startProtectedServer({ authorizationServers: () => [silent.origin], grant: () => undefined });
    cleanups.push(() => rs.close());
    const error = await refusal(connect(rs.url, headlessUser(), { timeoutMs: 200 }));
    expect(error.reason).toBe("unavailable");
    expect(error.message).toContain("no answer within");
  });

  it("never follows an authorized request to another origin, nor sends its token there", async () => {
    const { rs } = await setUp();
    const { fetch } = await connect(rs.url, headlessUser());
    const elsewhere = await listen((_req, res) => json(res, 200, {}));
    cleanups.push(() => elsewhere.close());
    // The wrapper authorizes only the server's origin: another origin gets the request as given.
    await fetch(`${elsewhere.origin}/mcp`, { method: "POST", body: "{}" });
    const redirecting = await listen((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere.origin}/stolen` });
      res.end();
    });
    cleanups.push(() => redirecting.close());
    const sneaky = withAuthorization((input, init) => globalThis.fetch(input, init), {
      server: `${redirecting.origin}/mcp`,
      provider: headlessUser(),
    });
    const error = await refusal(sneaky(`${redirecting.origin}/mcp`, { method: "POST", body: "{}" }));
    expect(error.reason).toBe("redirect");
    expect(elsewhere.seen.map((r) => r.path)).toEqual(["/mcp"]);
    expect(credentialed(elsewhere)).toEqual([]);
  });

  it("says clearly when a revoked grant cannot be renewed and the user declines", async () => {
    let decline = false;
    const { as, rs } = await setUp({ user: () => (decline ? "deny" : "approve") });
    const { client } = await connect(rs.url, headlessUser());
    as.revoke();
    decline = true;
    const error = await refusal(client.listTools());
    expect(error.reason).toBe("denied");
    expect(error.message).toMatch(
      new RegExp(`^authorization for ${rs.url}: .* did not authorize: "access_denied" \\("the user said no"\\)$`),
    );
    expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
  });

  it("leaves a challenge OAuth cannot answer (Basic) to the caller", async () => {
    const basic = await listen((_req, res) => json(res, 401, {}, { "WWW-Authenticate": 'Basic realm="x"' }));
    cleanups.push(() => basic.close());
    const user = headlessUser();
    const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), {
      server: basic.origin,
      provider: user,
    });
    expect((await fetch(`${basic.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(401);
    expect(user.asked).toEqual([]);
    expect(basic.seen.map((r) => r.path)).toEqual(["/mcp"]);
  });

  it("says the server refused a token it was just given, instead of asking again", async () => {
    const { as, rs } = await setUp({}, { grant: () => undefined });
    const user = headlessUser();
    const error = await refusal(connect(rs.url, user));
    expect(error.reason).toBe("refused");
    expect(user.asked).toHaveLength(1);
    expect(as.tokenRequests).toHaveLength(1);
  });
});

describe("machines and sender-constrained tokens", () => {
  it("gets a token with client credentials and a private_key_jwt assertion signed with WebCrypto", async () => {
    const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
    const pem = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(pkcs8).toString("base64")}\n-----END PRIVATE KEY-----\n`;
    const { as, rs } = await setUp(
      { clientKeys: new Map([["robot", keys.publicKey]]) },
      { scopesSupported: ["mcp:read"] },
    );
    const { client } = await connect(rs.url, { grant: "client_credentials", clientId: "robot", privateKey: pem });
    await client.listTools();
    const [request] = as.tokenRequests;
    expect(request?.get("grant_type")).toBe("client_credentials");
    expect(request?.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    expect(request?.get("scope")).toBe("mcp:read");
    expect(request?.get("resource")).toBe(rs.url);
    expect(as.authorizations).toEqual([]);
  });

  it("gets a token with client credentials and a secret (client_secret_basic)", async () => {
    const { as, rs } = await setUp({ clientSecrets: new Map([["robot", "s3cret"]]) });
    const { client } = await connect(rs.url, {
      grant: "client_credentials",
      clientId: "robot",
      clientSecret: "s3cret",
    });
    await client.listTools();
    expect(as.seen.find((r) => r.path === "/token")?.authorization).toBe(`Basic ${btoa("robot:s3cret")}`);
  });

  it("binds tokens to a DPoP key when both servers support it, with a fresh proof on every request", async () => {
    const { as, rs } = await setUp({ dpop: true }, { dpop: true });
    const { client } = await connect(rs.url, headlessUser());
    await client.listTools();
    await client.callTool({ name: "read", arguments: {} });
    const authorized = rs.seen.filter((r) => r.authorization !== undefined);
    expect(authorized.length).toBeGreaterThanOrEqual(3);
    expect(authorized.every((r) => r.authorization?.startsWith("DPoP at-") && r.dpop !== undefined)).toBe(true);
    const jtis = authorized.map(
      (r) => JSON.parse(atob((r.dpop ?? "").split(".")[1]?.replace(/-/g, "+").replace(/_/g, "/") ?? "")).jti,
    );
    expect(new Set(jtis).size).toBe(jtis.length);
    expect(as.seen.find((r) => r.path === "/token")?.dpop).toBeDefined();
  });

  it("asks for bearer tokens when the MCP server does not speak DPoP", async () => {
    const { rs } = await setUp({ dpop: true });
    const { client } = await connect(rs.url, headlessUser());
    await client.listTools();
    expect(rs.seen.filter((r) => r.dpop !== undefined)).toEqual([]);
  });
});

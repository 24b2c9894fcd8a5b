// One refused authorization, one trip to the authorization server: no client path sends a request
// again after an AuthorizationError. The 2026-07-28 client over Streamable HTTP (whose stateless
// transport re-issues lost requests, not refused ones) with a declined authorization, a wrong
// `iss` and a declined step-up; a 2025-era GET stream refused authorization (not reconnected); the
// HTTP+SSE and fallback transports, which pass the refusal on as it is (not as a broken stream); and
// the host, which does not take a refused authorization for a refused revision.
import { afterEach, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createHost } from "../host/index.js";
import { AuthorizationError, withAuthorization, type OAuthClientProvider } from "../runtime/auth/client/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { FallbackHttpClientTransport } from "../runtime/http/client/fallback.js";
import { LegacySseClientTransport } from "../runtime/http/client/legacy-sse-client.js";
import { serveStreamableHttp, type ScopeRules } from "../runtime/http/server/server.js";
import type { Transport } from "../runtime/transport.js";
import { json, listen, startAuthServer, type AuthServerOptions, type TestAuthServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A user who answers at once: the authorization endpoint's redirect is the answer (no browser). */
function headlessUser(): OAuthClientProvider & { asked: URL[] } {
  const asked: URL[] = [];
  return {
    asked,
    redirectUri: () => "http://127.0.0.1:7777/callback",
    async authorize({ url }) {
      asked.push(url);
      return (await fetch(url, { redirect: "manual" })).headers.get("location") ?? "";
    },
  };
}

const asksFor = (params: URLSearchParams, scope: string) => (params.get("scope") ?? "").split(" ").includes(scope);

/** A test authorization server, and a server of both eras behind the endpoint's `auth` option. */
async function setUp(asOptions: AuthServerOptions, scopes: ScopeRules = { toolScopes: { write: ["mcp:write"] } }) {
  const as = await startAuthServer(asOptions);
  cleanups.push(() => as.close());
  const tools = [
    { name: "read", inputSchema: { type: "object" as const } },
    { name: "write", inputSchema: { type: "object" as const } },
  ];
  const server = v2026.createServer({
    serverInfo: { name: "refusals", version: "1.0.0" },
    handlers: {
      listTools: () => ({ ttlMs: 0, cacheScope: "private", tools }),
      callTool: (params) => ({ content: [{ type: "text", text: `${params.name} done` }] }),
    },
  });
  cleanups.push(() => server.close());
  const http = await serveStreamableHttp({
    server,
    onSession: (session) =>
      v2025
        .createServer({
          serverInfo: { name: "refusals-2025", version: "1.0.0" },
          handlers: { listTools: () => ({ tools }) },
        })
        .connect(session),
    auth: { authorizationServers: [as.issuer], ...scopes, verify: (token) => verified(as, token) },
  });
  cleanups.push(() => http.close());
  return { as, url: http.url };
}

/** The test AS's tokens are opaque: it says what each grants (an introspection stand-in). */
function verified(as: TestAuthServer, token: string) {
  const grant = as.grant(token);
  if (!grant || grant.expired || grant.revoked) return undefined;
  return { clientId: grant.clientId, scopes: grant.scopes, audience: grant.resource };
}

function client2026(url: string, user: OAuthClientProvider) {
  const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), { server: url, provider: user });
  const client = v2026.createClient({
    transport: new StreamableHttpClientTransport(url, { fetch }),
    clientInfo: { name: "refusals-test", version: "1.0.0" },
  });
  cleanups.push(() => client.close());
  return client;
}

it.each([
  ["the user declines", { user: () => "deny" }, "denied"],
  [
    "the redirect names another issuer",
    { redirect: (url: URL) => url.searchParams.set("iss", "https://evil.example") },
    "issuer-mismatch",
  ],
] satisfies [string, AuthServerOptions, string][])(
  "the 2026-07-28 client asks once when %s, and the request fails with the refusal",
  async (_what, asOptions, reason) => {
    const { as, url } = await setUp(asOptions);
    const user = headlessUser();
    const error = await client2026(url, user)
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason });
    expect(as.authorizations).toHaveLength(1);
    expect(user.asked).toHaveLength(1);
  },
);

it("the 2026-07-28 client asks once for a step-up the user declines, and its other calls go on", async () => {
  const { as, url } = await setUp({ user: (params) => (asksFor(params, "mcp:write") ? "deny" : "approve") });
  const user = headlessUser();
  const client = client2026(url, user);
  await client.connect();
  expect(as.authorizations).toHaveLength(1);

  const error = await client.callTool({ name: "write", arguments: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect(error).toMatchObject({ reason: "denied" });
  expect(as.authorizations).toHaveLength(2);
  expect(await client.callTool({ name: "read", arguments: {} })).toMatchObject({ content: [{ text: "read done" }] });
  expect(as.authorizations).toHaveLength(2);
  expect(user.asked).toHaveLength(2);
});

/**
 * A server whose GET needs a token the user declines (the authorization server says so), and whose
 * POSTs need none: answered with `postStatus`.
 */
async function getNeedsToken(postStatus: number) {
  const as = await startAuthServer({ user: () => "deny" });
  cleanups.push(() => as.close());
  const server = await listen((req, res, _body, at) => {
    const metadata = `${at.origin}/.well-known/oauth-protected-resource/mcp`;
    if (at.pathname === "/.well-known/oauth-protected-resource/mcp")
      return json(res, 200, { resource: `${at.origin}/mcp`, authorization_servers: [as.issuer] });
    if (req.method === "POST") return void res.writeHead(postStatus).end();
    json(res, 401, {}, { "WWW-Authenticate": `Bearer resource_metadata="${metadata}"` });
  });
  cleanups.push(() => server.close());
  const url = `${server.origin}/mcp`;
  const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), {
    server: url,
    provider: headlessUser(),
  });
  return { as, server, url, fetch };
}

it("does not reconnect a 2025-era GET stream whose authorization was declined: one ask, the refusal reported", async () => {
  const { as, server, url, fetch } = await getNeedsToken(202);
  // No delay between reconnections: had the GET been sent again, the first error reported would be
  // the giving up, after more asks.
  const transport = new StreamableHttpClientTransport(url, { fetch, reconnect: { initialDelayMs: 0 } });
  cleanups.push(() => transport.close());
  const reported = new Promise<Error>((resolve) => (transport.onerror = resolve));
  await transport.start();
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const error = await reported;
  expect(error).toBeInstanceOf(AuthorizationError);
  expect(error).toMatchObject({ reason: "denied" });
  expect(as.authorizations).toHaveLength(1);
  expect(server.seen.filter((r) => r.method === "GET" && r.path === "/mcp")).toHaveLength(1);
});

it.each([
  [
    "the HTTP+SSE transport",
    (url: string, fetch: typeof globalThis.fetch) => new LegacySseClientTransport(url, { fetch }),
  ],
  [
    "the fallback transport, falling back to it",
    (url: string, fetch: typeof globalThis.fetch) => new FallbackHttpClientTransport(url, { fetch }),
  ],
] satisfies [string, (url: string, fetch: typeof globalThis.fetch) => Transport][])(
  "%s passes a declined authorization of its stream on as it is, after one ask",
  async (_what, make) => {
    // The POST of Streamable HTTP gets 404: the fallback opens the old transport's GET stream.
    const { as, url, fetch } = await getNeedsToken(404);
    const transport = make(url, fetch);
    cleanups.push(() => transport.close());
    const initialize = {
      jsonrpc: "2.0" as const,
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const error = await transport
      .start()
      .then(() => transport.send(initialize))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: "denied" });
    expect(as.authorizations).toHaveLength(1);
  },
);

it("the host ends negotiation on a declined authorization instead of offering the next revision", async () => {
  // Discovery needs a scope the user will not grant; the 2025-era sessions would need none.
  const { as, url } = await setUp(
    { user: (params) => (asksFor(params, "mcp:write") ? "deny" : "approve") },
    { methodScopes: { "server/discover": ["mcp:write"] } },
  );
  const user = headlessUser();
  const host = createHost({ servers: { mcpServers: { s: { url, auth: true } } }, authorization: () => user });
  cleanups.push(() => host.close());
  await host.connect();
  expect(host.servers[0]).toMatchObject({ state: "unauthorized", revision: undefined });
  expect(host.servers[0]?.authorization).toMatchObject({ reason: "denied" });
  // The start's authorization, then the step-up discovery asked for: declined once, not again.
  expect(as.authorizations).toHaveLength(2);
  expect(user.asked).toHaveLength(2);
});

// The authorizing fetch in every HTTP client transport, not only Streamable HTTP: the HTTP+SSE
// transport of 2024-11-05 (its GET stream and the POSTs to the endpoint it names, same origin, all
// authorized) and the fallback transport that ends up on it. The server is the official SDK's
// SSEServerTransport with a generated 2024-11-05 server, behind a bearer check on loopback.
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { createClient, createServer } from "../generated/2024-11-05/index.js";
import { withAuthorization, type OAuthClientProvider } from "../runtime/auth/client/index.js";
import { FallbackHttpClientTransport } from "../runtime/http/client/fallback.js";
import { LegacySseClientTransport } from "../runtime/http/client/legacy-sse-client.js";
import type { Transport } from "../runtime/transport.js";
import { json, startAuthServer, type TestAuthServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const user: OAuthClientProvider = {
  redirectUri: () => "http://127.0.0.1:7777/callback",
  async authorize({ url }) {
    return (await fetch(url, { redirect: "manual" })).headers.get("location") ?? "";
  },
};

/** A 2024-11-05 server over HTTP+SSE at /sse, every request of which needs a token from `as`. */
async function protectedSseServer(as: TestAuthServer): Promise<{ url: string; authorized: string[] }> {
  const transports = new Map<string, SSEServerTransport>();
  const authorized: string[] = [];
  let origin = "";
  const http = createHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname === "/.well-known/oauth-protected-resource/sse")
      return json(res, 200, { resource: `${origin}/sse`, authorization_servers: [as.issuer] });
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    const grant = as.grant(token);
    if (!grant || grant.resource !== `${origin}/sse`)
      return json(
        res,
        401,
        {},
        { "WWW-Authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/sse"` },
      );
    authorized.push(`${req.method} ${url.pathname}`);
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      const server = createServer({
        serverInfo: { name: "legacy", version: "1.0.0" },
        handlers: { listTools: () => ({ tools: [{ name: "old", inputSchema: { type: "object" } }] }) },
      });
      await server.connect(transport as unknown as Transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport)
      return void transport.handlePostMessage(req, res);
    json(res, 405, {});
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return { url: `${origin}/sse`, authorized };
}

it.each([
  [
    "the HTTP+SSE transport of 2024-11-05",
    (url: string, fetch: typeof globalThis.fetch) => new LegacySseClientTransport(url, { fetch }),
  ],
  [
    "the fallback transport, ending on HTTP+SSE",
    (url: string, fetch: typeof globalThis.fetch) => new FallbackHttpClientTransport(url, { fetch }),
  ],
])("authorizes %s: the stream and the posts to its endpoint", async (_name, transport) => {
  const as = await startAuthServer();
  cleanups.push(() => as.close());
  const server = await protectedSseServer(as);
  const fetch = withAuthorization((input, init) => globalThis.fetch(input, init), {
    server: server.url,
    provider: user,
  });
  const client = createClient({
    transport: transport(server.url, fetch),
    clientInfo: { name: "legacy-auth", version: "1.0.0" },
  });
  cleanups.push(() => client.close());
  await client.connect();
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["old"]);
  expect(server.authorized).toEqual(expect.arrayContaining(["GET /sse", "POST /messages"]));
  expect(as.tokenRequests).toHaveLength(1);
});

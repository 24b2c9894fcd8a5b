// Authorization end to end with both halves built here: generated servers protected by the HTTP
// endpoint's own `auth` option (a 2026-07-28 server and 2025-11-25 sessions on one URL), the test
// authorization server of test/support/oauth-server.ts issuing the tokens, and the host with the
// Node provider (a stand-in browser) reaching the server at each revision. First call → the user
// authorizes → it succeeds; expiry → refresh without the user; a tool needing more scope → step-up;
// a revoked grant the user will not renew → a clear error naming the server. Handlers see who
// called them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { createHost } from "../host/index.js";
import { AuthorizationError } from "../runtime/auth/client/index.js";
import { nodeProvider } from "../runtime/auth/client/node.js";
import type { AuthInfo } from "../runtime/index.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";
import { startAuthServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tools = [
  { name: "read", inputSchema: { type: "object" as const } },
  { name: "write", inputSchema: { type: "object" as const } },
];
const said = (name: string, authInfo: AuthInfo | undefined) => `${name} for ${authInfo?.clientId ?? "nobody"}`;

it.each(["2026-07-28", "2025-11-25"] as const)(
  "the host reaches a generated server behind the endpoint's auth option, at %s",
  async (revision) => {
    let decline = false;
    const as = await startAuthServer({ user: () => (decline ? "deny" : "approve") });
    cleanups.push(() => as.close());
    const server = v2026.createServer({
      serverInfo: { name: "protected-2026", version: "1.0.0" },
      handlers: {
        listTools: () => ({ ttlMs: 0, cacheScope: "private", tools }),
        callTool: (params, context) => ({ content: [{ type: "text", text: said(params.name, context.authInfo) }] }),
      },
    });
    cleanups.push(() => server.close());
    const http = await serveStreamableHttp({
      // The 2025-11-25 leg reaches only the sessions: the host tries 2026-07-28 first otherwise.
      ...(revision === "2026-07-28" ? { server } : {}),
      onSession: (session) =>
        v2025
          .createServer({
            serverInfo: { name: "protected-2025", version: "1.0.0" },
            handlers: {
              listTools: () => ({ tools }),
              callTool: (params, context) => ({
                content: [{ type: "text", text: said(params.name, context.authInfo) }],
              }),
            },
          })
          .connect(session),
      // The resource defaults to the endpoint's own URL.
      auth: {
        authorizationServers: [as.issuer],
        toolScopes: { read: ["mcp:read"], write: ["mcp:write"] },
        // The test AS's tokens are opaque: it says what each grants (an introspection stand-in).
        verify: (token) => {
          const grant = as.grant(token);
          if (!grant || grant.expired || grant.revoked) return undefined;
          return { clientId: grant.clientId, scopes: grant.scopes, audience: grant.resource };
        },
      },
    });
    cleanups.push(() => http.close());

    const credentialsFile = join(mkdtempSync(join(tmpdir(), "auth-e2e-")), "credentials.json");
    const opened: string[] = [];
    const host = createHost({
      servers: { mcpServers: { notes: { url: http.url, auth: { credentialsFile } } } },
      authorization: () =>
        nodeProvider({
          credentialsFile,
          log: () => {},
          open: async (url) => {
            opened.push(url.href);
            await (await fetch(url)).text();
          },
        }),
      restart: false,
    });
    cleanups.push(() => host.close());
    await host.connect();
    expect(host.servers.map((s) => [s.state, s.revision])).toEqual([["up", revision]]);

    const read = await host.callTool("notes__read", {});
    expect(read).toMatchObject({ content: [{ text: expect.stringMatching(/^read for \S+/) }] });
    const authorized = opened.length;
    expect(authorized).toBeGreaterThanOrEqual(1);

    as.expire();
    expect(await host.callTool("notes__read", {})).toMatchObject({
      content: [{ text: expect.stringMatching(/^read for/) }],
    });
    expect(opened).toHaveLength(authorized);
    expect(as.tokenRequests.map((r) => r.get("grant_type"))).toContain("refresh_token");

    expect(await host.callTool("notes__write", {})).toMatchObject({
      content: [{ text: expect.stringMatching(/^write for/) }],
    });
    expect(opened.length).toBeGreaterThan(authorized);
    expect(as.authorizations.at(-1)?.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["mcp:read", "mcp:write"]),
    );

    as.revoke();
    decline = true;
    const error = await host.callTool("notes__read", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).message).toContain(http.url);
  },
  60_000,
);

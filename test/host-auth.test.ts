// The host with an authorized `url` server, end to end on loopback: the Node provider with a
// stand-in browser, a test authorization server and a generated MCP server behind it. The first
// start authorizes (before the MCP connection, outside any request's timeout), an expired token is
// refreshed without the browser, a tool needing more scope steps up, and a revoked grant the user
// will not renew is a clear error naming the server. The entries' `auth` settings are checked.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AuthorizationError } from "../runtime/auth/index.js";
import { nodeProvider } from "../runtime/auth/node.js";
import { createHost, HostConfigError, parseHostConfig, type Host } from "../host/index.js";
import { startAuthServer, startProtectedServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("authorizes a url server, refreshes, steps up, and says clearly when a revoked grant is not renewed", async () => {
  let decline = false;
  const as = await startAuthServer({ user: () => (decline ? "deny" : "approve") });
  cleanups.push(() => as.close());
  const rs = await startProtectedServer({
    authorizationServers: () => [as.issuer],
    grant: as.grant,
    scopeFor: (method, tool) => (method !== "tools/call" ? [] : tool === "write" ? ["mcp:write"] : ["mcp:read"]),
  });
  cleanups.push(() => rs.close());
  const credentialsFile = join(mkdtempSync(join(tmpdir(), "host-auth-")), "credentials.json");
  const opened: string[] = [];
  const host: Host = createHost({
    servers: { mcpServers: { files: { url: rs.url, auth: { credentialsFile } } } },
    // The Node provider as the config makes it, with a browser that follows the redirect itself.
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
  expect(host.servers.map(({ name, state, revision }) => ({ name, state, revision }))).toEqual([
    { name: "files", state: "up", revision: "2025-11-25" },
  ]);
  expect(opened).toHaveLength(1);

  // The connection needed no scope; the first call needs mcp:read: a step-up, the browser again.
  expect(await host.callTool("files__read", {})).toMatchObject({ content: [{ text: "read done" }] });
  expect(opened).toHaveLength(2);
  as.expire();
  expect(await host.callTool("files__read", {})).toMatchObject({ content: [{ text: "read done" }] });
  expect(opened).toHaveLength(2);
  expect(as.tokenRequests.map((r) => r.get("grant_type"))).toContain("refresh_token");

  expect(await host.callTool("files__write", {})).toMatchObject({ content: [{ text: "write done" }] });
  expect(opened).toHaveLength(3);
  expect(as.authorizations.at(-1)?.get("scope")).toBe("mcp:read offline_access mcp:write");

  as.revoke();
  decline = true;
  const error = await host.callTool("files__read", {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect((error as AuthorizationError).message).toMatch(
    new RegExp(`^authorization for ${rs.url}: .* did not authorize: "access_denied"`),
  );
});

describe("the auth settings of a url entry", () => {
  it("takes true, an object of known settings, and reports every bad one with where it is", () => {
    expect(() =>
      parseHostConfig({
        mcpServers: {
          a: { url: "https://a.example/mcp", auth: true },
          b: { url: "https://b.example/mcp", auth: { clientId: "id", clientSecret: "s", redirectPort: 8123 } },
          c: {
            url: "https://c.example/mcp",
            auth: { grant: "client_credentials", clientId: "m", privateKeyFile: "k.pem" },
          },
        },
      }),
    ).not.toThrow();
    let problems: readonly string[] = [];
    try {
      parseHostConfig({
        mcpServers: {
          d: {
            url: "https://d.example/mcp",
            auth: { clientSecret: "s", redirectPort: 70000, dpop: "sometimes", colour: "red" },
          },
          e: { url: "https://e.example/mcp", auth: { grant: "client_credentials" } },
          f: { url: "https://f.example/mcp", auth: "yes" },
        },
      });
    } catch (error) {
      problems = (error as HostConfigError).problems;
    }
    expect(problems).toEqual([
      "mcpServers.d: auth: redirectPort must be a port number",
      "mcpServers.d: auth: dpop must be one of auto, always, never",
      'mcpServers.d: auth: unknown setting "colour"',
      "mcpServers.d: auth: clientSecret needs a clientId",
      "mcpServers.e: auth: client_credentials needs a clientId",
      "mcpServers.e: auth: client_credentials needs a clientSecret or a privateKeyFile",
      "mcpServers.f: auth: must be true or an object",
    ]);
  });
});

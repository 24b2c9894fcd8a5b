// The host with an authorized `url` server, end to end on loopback: the Node provider with a
// stand-in browser, a test authorization server and a generated MCP server behind it. The first
// start authorizes (before the MCP connection, outside any request's timeout), an expired token is
// refreshed without the browser, a tool needing more scope steps up, and a revoked grant the user
// will not renew is a clear error naming the server. A declined authorization fails only what
// needed it, shows in the server's status, and is asked for anew by a later call, whether it was a
// step-up while the server was up or the one at its start. The entries' `auth` settings are checked.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AuthorizationError } from "../runtime/auth/client/index.js";
import { nodeProvider } from "../runtime/auth/client/node.js";
import { createHost, HostConfigError, parseHostConfig, type Host, type ServerStatus } from "../host/index.js";
import { startAuthServer, startProtectedServer, type AuthServerOptions } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("authorizes a url server, refreshes, steps up, and says clearly when a revoked grant is not renewed", async () => {
  let decline = false;
  const { host, opened, as, rs } = await hostWithFiles(() => (decline ? "deny" : "approve"), {
    scopeFor: (method, tool) => (method !== "tools/call" ? [] : tool === "write" ? ["mcp:write"] : ["mcp:read"]),
    restart: false,
  });
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

type ScopeFor = Parameters<typeof startProtectedServer>[0]["scopeFor"];

/**
 * A host with one url server "files" behind a test authorization server whose user answers as
 * `user` says; by default "write" needs mcp:write, everything else no scope. `opened` counts
 * browser trips (the Node provider as the config makes it, with a browser that follows the
 * redirect itself).
 */
async function hostWithFiles(
  user: AuthServerOptions["user"],
  {
    scopeFor = (method, tool) => (method === "tools/call" && tool === "write" ? ["mcp:write"] : []),
    restart,
  }: { scopeFor?: ScopeFor; restart?: false } = {},
) {
  const as = await startAuthServer({ ...(user ? { user } : {}) });
  cleanups.push(() => as.close());
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], grant: as.grant, scopeFor });
  cleanups.push(() => rs.close());
  const credentialsFile = join(mkdtempSync(join(tmpdir(), "host-auth-")), "credentials.json");
  const opened: string[] = [];
  const host: Host = createHost({
    servers: { mcpServers: { files: { url: rs.url, auth: { credentialsFile } } } },
    authorization: () =>
      nodeProvider({
        credentialsFile,
        log: () => {},
        open: async (url) => {
          opened.push(url.href);
          await (await fetch(url)).text();
        },
      }),
    ...(restart === false ? { restart } : {}),
  });
  cleanups.push(() => host.close());
  const statuses: ServerStatus[] = [];
  host.on("server", (status) => statuses.push(status));
  return { host, opened, statuses, as, rs };
}

const asksFor = (params: URLSearchParams, scope: string) => (params.get("scope") ?? "").split(" ").includes(scope);

describe("a declined authorization", () => {
  it("fails only the call whose step-up was declined; the others go on, the status says so, a later call asks again", async () => {
    let declineWrite = true;
    const { host, opened, statuses } = await hostWithFiles((params) =>
      declineWrite && asksFor(params, "mcp:write") ? "deny" : "approve",
    );
    await host.connect();
    expect(opened).toHaveLength(1);

    const declined = await host.callTool("files__write", {}).catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(AuthorizationError);
    expect(declined).toMatchObject({ reason: "denied" });
    expect(opened).toHaveLength(2);
    // The same server, the same token: a call that needs no more scope still answers, no browser.
    expect(await host.callTool("files__read", {})).toMatchObject({ content: [{ text: "read done" }] });
    expect(opened).toHaveLength(2);
    expect(host.servers[0]).toMatchObject({ state: "up", authorization: declined });
    expect(statuses.at(-1)).toMatchObject({ state: "up", authorization: declined });

    // Not the old refusal replayed: a new authorization, which the user accepts this time.
    declineWrite = false;
    expect(await host.callTool("files__write", {})).toMatchObject({ content: [{ text: "write done" }] });
    expect(opened).toHaveLength(3);
    expect(host.servers[0]).toMatchObject({ state: "up", authorization: undefined });
    expect(statuses.at(-1)?.authorization).toBeUndefined();
  });

  it("at the start leaves the server unauthorized, not restarted on its own; the next call starts it, asking again", async () => {
    let decline = true;
    const { host, opened } = await hostWithFiles(() => (decline ? "deny" : "approve"));
    await host.connect();
    // Not "down": no restart is pending (it would send the user to the browser again).
    const [status] = host.servers;
    expect(status).toMatchObject({ state: "unauthorized", authorization: { reason: "denied" } });
    expect(status?.error).toBe(status?.authorization);
    expect(opened).toHaveLength(1);

    // Each call asks anew; one still declined fails with the refusal, not with "server down".
    const again = await host.callTool("files__read", {}).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AuthorizationError);
    expect(again).not.toBe(status?.authorization);
    expect(opened).toHaveLength(2);
    expect(host.servers[0]).toMatchObject({ state: "unauthorized", authorization: again });

    decline = false;
    expect(await host.callTool("files__read", {})).toMatchObject({ content: [{ text: "read done" }] });
    expect(opened).toHaveLength(3);
    expect(host.servers[0]).toMatchObject({ state: "up", revision: "2025-11-25", authorization: undefined });
  });
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

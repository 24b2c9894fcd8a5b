// runtime/auth/client/node.ts: the loopback redirect listener (the one callback with the flow's state,
// nothing else), the credentials file (0600, whole-file writes, bad entries dropped), and the
// provider end to end with a stand-in browser that follows the authorization server's redirect.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../generated/2025-11-25/index.js";
import { withAuthorization, type StoredTokens } from "../runtime/auth/client/index.js";
import { fileStore, nodeProvider } from "../runtime/auth/client/node.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { startAuthServer, startProtectedServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const temp = () => mkdtempSync(join(tmpdir(), "mcp-gen-auth-"));
const request = (url: URL, redirectUri: string) => ({
  url,
  server: "http://mcp.test/mcp",
  issuer: "https://as.test",
  redirectUri,
});

describe("the loopback redirect listener", () => {
  it("takes the callback with the flow's state and ignores anything else", async () => {
    const opened: URL[] = [];
    const provider = nodeProvider({ open: (url) => void opened.push(url), log: () => {} });
    cleanups.push(() => provider.close());
    const redirectUri = await provider.redirectUri();
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const url = new URL(`https://as.test/authorize?state=right-state`);
    const answer = provider.authorize(request(url, redirectUri));
    expect(opened).toEqual([url]);
    expect((await fetch(`${redirectUri}?code=forged&state=wrong`)).status).toBe(400);
    expect((await fetch(redirectUri.replace("/callback", "/other"))).status).toBe(404);
    const page = await fetch(`${redirectUri}?code=c0de&state=right-state&iss=https%3A%2F%2Fas.test`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Authorization complete");
    const returned = new URL(await answer);
    expect(returned.searchParams.get("code")).toBe("c0de");
  });

  it("gives up when the user does not come back in time", async () => {
    const provider = nodeProvider({ open: () => {}, timeoutMs: 50, log: () => {} });
    cleanups.push(() => provider.close());
    const redirectUri = await provider.redirectUri();
    await expect(provider.authorize(request(new URL("https://as.test/a?state=s"), redirectUri))).rejects.toThrow(
      /no answer from the browser within/,
    );
  });
});

describe("the credentials file", () => {
  const tokens: StoredTokens = {
    access_token: "at",
    token_type: "Bearer",
    issuer: "https://as.test",
    client_id: "c",
    resource: "https://mcp.test/mcp",
  };

  it("is readable by the user only, in a folder of the user's, and keeps what is saved", async () => {
    const path = join(temp(), "nested", "credentials.json");
    const store = fileStore(path);
    await store.saveClient("https://as.test", { client_id: "c" });
    await store.saveTokens("https://mcp.test/mcp", tokens);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    const reopened = fileStore(path);
    expect(await reopened.client("https://as.test")).toEqual({ client_id: "c" });
    expect(await reopened.tokens("https://mcp.test/mcp")).toEqual(tokens);
    await reopened.saveTokens("https://mcp.test/mcp", undefined);
    expect(await store.tokens("https://mcp.test/mcp")).toBeUndefined();
  });

  it("reads a damaged file as empty and drops entries of the wrong shape", async () => {
    const path = join(temp(), "credentials.json");
    writeFileSync(path, "{ not json");
    expect(await fileStore(path).tokens("x")).toBeUndefined();
    writeFileSync(
      path,
      JSON.stringify({ clients: { a: { client_id: 5 } }, tokens: { x: { ...tokens, token_type: "MAC" }, y: tokens } }),
    );
    const store = fileStore(path);
    expect(await store.client("a")).toBeUndefined();
    expect(await store.tokens("x")).toBeUndefined();
    expect(await store.tokens("y")).toEqual(tokens);
  });

  it("keeps concurrent saves", async () => {
    const store = fileStore(join(temp(), "credentials.json"));
    await Promise.all(["a", "b", "c"].map((issuer) => store.saveClient(issuer, { client_id: issuer })));
    expect(await Promise.all(["a", "b", "c"].map((issuer) => store.client(issuer)))).toEqual([
      { client_id: "a" },
      { client_id: "b" },
      { client_id: "c" },
    ]);
  });
});

it("authorizes through a browser that comes back to the listener, and a later run needs no browser", async () => {
  const as = await startAuthServer();
  cleanups.push(() => as.close());
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], grant: as.grant });
  cleanups.push(() => rs.close());
  const credentialsFile = join(temp(), "credentials.json");
  const opened: string[] = [];
  // The stand-in browser follows the authorization server's redirect to the loopback listener.
  const browser = async (url: URL) => {
    opened.push(url.href);
    await (await fetch(url)).text();
  };
  const run = async () => {
    const provider = nodeProvider({ credentialsFile, open: browser, log: () => {} });
    const client = createClient({
      transport: new StreamableHttpClientTransport(rs.url, {
        fetch: withAuthorization((input, init) => fetch(input, init), { server: rs.url, provider }),
        openStream: false,
      }),
      clientInfo: { name: "node-provider-test", version: "1.0.0" },
    });
    try {
      await client.connect();
      return await client.listTools();
    } finally {
      await client.close();
      await provider.close();
    }
  };
  expect((await run()).tools.map((tool) => tool.name)).toEqual(["read", "write"]);
  expect(await run()).toBeDefined();
  expect(opened).toHaveLength(1);
  expect(as.registrations).toEqual([expect.objectContaining({ application_type: "native", client_name: "mcp-gen" })]);
  const saved = JSON.parse(readFileSync(credentialsFile, "utf8")) as { tokens: Record<string, StoredTokens> };
  expect(Object.keys(saved.tokens)).toEqual([rs.url]);
  expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
});

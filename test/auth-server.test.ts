// The MCP endpoint as an OAuth resource server (runtime/auth/, the `auth` option), over loopback:
// a generated 2026-07-28 server and 2025-11-25 sessions on one URL, JWT access tokens from a test
// issuer checked by the example's jose verifier. Challenges and their statuses, the protected
// resource metadata, scopes per request, method and tool, authInfo in the handlers of both eras,
// the fetch face, sessions bound to their subject, and tokens that never reach onError.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import {
  createStreamableHttpHandler,
  serveStreamableHttp,
  type AuthInfo,
  type ServeOptions,
  type StreamableHttpServer,
} from "../runtime/http/server/server.js";
import { jwtVerifier } from "../examples/protected-server/verify-jwt.js";
import { serveNotes } from "../examples/protected-server/server.js";
import { startTestIssuer, type TestIssuer, type TokenClaims } from "./support/jwks-issuer.js";

const REV = "2026-07-28";
const meta = {
  "io.modelcontextprotocol/protocolVersion": REV,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let issuer: TestIssuer;
let http: StreamableHttpServer;
/** Every token signed in this file, and everything onError got: none may appear in the other. */
const tokens: string[] = [];
const reported: string[] = [];
const report = (error: Error) => void reported.push(`${error.name}: ${error.message}\n${error.stack ?? ""}`);

/** What a handler saw: the context's authInfo, as JSON. */
const seen = (authInfo: AuthInfo | undefined) => ({
  content: [{ type: "text" as const, text: JSON.stringify(authInfo ?? null) }],
});
const notified: (AuthInfo | undefined)[] = [];

function protectedServer(options: Partial<ServeOptions> = {}) {
  const server = v2026.createServer({
    serverInfo: { name: "auth-2026", version: "1.0.0" },
    handlers: {
      listTools: () => ({ ttlMs: 0, cacheScope: "private", tools: [] }),
      callTool: (_params, context) => seen(context.authInfo),
      readResource: (params) => ({ ttlMs: 0, cacheScope: "private", contents: [{ uri: params.uri, text: "x" }] }),
    },
  });
  return serveStreamableHttp({
    server,
    onSession: (session) =>
      v2025
        .createServer({
          serverInfo: { name: "auth-2025", version: "1.0.0" },
          handlers: {
            callTool: (_params, context) => seen(context.authInfo),
            onInitialized: (_params, context) => void notified.push(context.authInfo),
          },
        })
        .connect(session),
    auth: {
      authorizationServers: [issuer.issuer],
      verify: jwtVerifier({ issuer: issuer.issuer, jwksUri: issuer.jwksUri }),
      requiredScopes: ["mcp"],
      methodScopes: { "resources/read": ["files:read"] },
      toolScopes: { admin: ["mcp:admin"] },
      impliedScopes: { "mcp:admin": ["mcp"] },
      metadata: { resource_name: "auth tests" },
    },
    onError: report,
    ...options,
  });
}

async function token(claims: TokenClaims = {}): Promise<string> {
  const signed = await issuer.sign(http.url, { scope: "mcp", ...claims });
  tokens.push(signed);
  return signed;
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  http = await protectedServer();
});

afterAll(async () => {
  await http.close();
  await issuer.close();
  for (const text of reported) for (const t of tokens) expect(text).not.toContain(t);
});

interface Answer {
  status: number;
  challenge: string | null;
  body: { id?: unknown; result?: { content?: { text: string }[] }; error?: { code: number; message: string } };
  text: string;
}

function headersFor(method: string, name: string | undefined, bearer: string | undefined): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": REV,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...(bearer === undefined ? {} : { authorization: bearer }),
  };
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  const body = data ? JSON.parse(data.slice(6)) : text ? JSON.parse(text) : {};
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body, text };
}

/** A 2026-07-28 request; `authorization` is the whole header value. */
async function post(
  method: string,
  params: Record<string, unknown>,
  authorization?: string,
  url = http.url,
): Promise<Answer> {
  const name = typeof params["name"] === "string" ? params["name"] : (params["uri"] as string | undefined);
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor(method, name, authorization),
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta, ...params } }),
  });
  return answerOf(response);
}

const callTool = (name: string, authorization?: string, url = http.url, args: Record<string, unknown> = {}) =>
  post("tools/call", { name, arguments: args }, authorization, url);
/** The text a tool answered with. */
const textOf = (answer: Answer) => answer.body.result?.content?.[0]?.text;
const metadataUrl = () => `${new URL(http.url).origin}/.well-known/oauth-protected-resource/mcp`;

/** The challenge's parameters. */
function challengeOf(answer: Answer): Record<string, string> {
  expect(answer.challenge).toMatch(/^Bearer /);
  return Object.fromEntries([...(answer.challenge ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe("challenges", () => {
  it("answers a request without a token with 401, the metadata URL and the scope every request needs", async () => {
    const answer = await post("tools/list", {});
    expect(answer.status).toBe(401);
    expect(challengeOf(answer)).toEqual({ resource_metadata: metadataUrl(), scope: "mcp" });
    expect(answer.body.error?.message).toMatch(/^Unauthorized/);
    // The 2025-era face too: the handshake, the GET stream and DELETE.
    const handshake = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(handshake.status).toBe(401);
    const get = await fetch(http.url, { headers: { accept: "text/event-stream", "mcp-session-id": "x" } });
    expect([get.status, get.headers.get("www-authenticate")]).toEqual([401, answer.challenge]);
    expect((await fetch(http.url, { method: "DELETE" })).status).toBe(401);
  });

  it("serves the metadata at the path-aware well-known URL the challenge names, and at the root one", async () => {
    const response = await fetch(metadataUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const document = await response.json();
    expect(document).toEqual({
      resource: http.url,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp"],
      resource_name: "auth tests",
    });
    expect(http.handler.protectedResource?.url).toBe(metadataUrl());
    const root = await fetch(`${new URL(http.url).origin}/.well-known/oauth-protected-resource`);
    expect(await root.json()).toEqual(document);
    expect((await fetch(metadataUrl(), { method: "OPTIONS" })).status).toBe(204);
    expect((await fetch(metadataUrl(), { method: "POST" })).status).toBe(405);
    expect((await fetch(`${metadataUrl()}/more`)).status).toBe(404);
  });

  it("refuses a token for another resource, an expired one, one signed by an unknown key and garbage with 401 invalid_token", async () => {
    const refused = [
      await token({ aud: "https://elsewhere.example.com/mcp" }),
      await token({ exp: Math.floor(Date.now() / 1000) - 60 }),
      await issuer.signWithUnknownKey(http.url, { scope: "mcp" }),
      await token({ iss: "https://impostor.example.com" }),
      "not-a-jwt",
      "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.",
    ];
    tokens.push(...refused);
    for (const bad of refused) {
      const answer = await callTool("echo", `Bearer ${bad}`);
      expect(answer.status, bad).toBe(401);
      expect(challengeOf(answer)).toMatchObject({ error: "invalid_token", resource_metadata: metadataUrl() });
      expect(answer.text + answer.challenge).not.toContain(bad);
    }
  });

  it("answers a malformed Authorization header with 400 invalid_request, and another scheme as no token", async () => {
    for (const header of ["Bearer", "Bearer two tokens", "Bearer a,b", "Bearer {json}"]) {
      const answer = await callTool("echo", header);
      expect(answer.status, header).toBe(400);
      expect(challengeOf(answer)).toMatchObject({ error: "invalid_request" });
    }
    const basic = await callTool("echo", "Basic YWxpY2U6c2VjcmV0");
    expect(basic.status).toBe(401);
    expect(challengeOf(basic)).not.toHaveProperty("error");
  });

  it("answers a token without the scope every request needs with 403 insufficient_scope", async () => {
    const answer = await callTool("echo", `Bearer ${await token({ scope: "other" })}`);
    expect(answer.status).toBe(403);
    expect(challengeOf(answer)).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp",
      resource_metadata: metadataUrl(),
    });
    expect(answer.body.id).toBe(1);
  });
});

describe("scopes per tool and per method", () => {
  it("needs the tool's scope for tools/call, naming every scope the call needs, at 2026-07-28", async () => {
    const narrow = `Bearer ${await token()}`;
    expect((await callTool("echo", narrow)).status).toBe(200);
    const refused = await callTool("admin", narrow);
    expect(refused.status).toBe(403);
    expect(challengeOf(refused)).toMatchObject({ error: "insufficient_scope", scope: "mcp mcp:admin" });
    // mcp:admin implies mcp.
    expect((await callTool("admin", `Bearer ${await token({ scope: "mcp:admin" })}`)).status).toBe(200);
  });

  it("needs a method's scope for that method", async () => {
    const read = (scope: string) =>
      token({ scope }).then((t) => post("resources/read", { uri: "file:///a" }, `Bearer ${t}`));
    const refused = await read("mcp");
    expect([refused.status, challengeOf(refused)["scope"]]).toEqual([403, "mcp files:read"]);
    expect((await read("mcp files:read")).status).toBe(200);
  });

  it("applies in 2025-era sessions too, which carry on after a refusal", async () => {
    const bearer = `Bearer ${await token()}`;
    const client = v2025.createClient({
      transport: new StreamableHttpClientTransport(http.url, { headers: { Authorization: bearer }, openStream: false }),
      clientInfo: { name: "legacy", version: "1.0.0" },
    });
    await client.connect();
    try {
      await expect(client.callTool({ name: "admin" })).rejects.toMatchObject({ status: 403 });
      const answer = await client.callTool({ name: "echo" });
      expect(answer.content[0]).toMatchObject({ type: "text" });
    } finally {
      await client.close();
    }
  });
});

describe("authInfo in handlers", () => {
  const expected = (scopes: string[]) => ({
    subject: "alice",
    clientId: "test-client",
    scopes,
    audience: http.url,
    issuer: issuer.issuer,
    expiresAt: expect.any(Number),
  });

  it("reaches a 2026-07-28 handler's context", async () => {
    const answer = await callTool("echo", `Bearer ${await token({ scope: "mcp extra" })}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(textOf(answer) ?? "")).toEqual(expected(["mcp", "extra"]));
  });

  it("reaches 2025-11-25 request and notification handlers' contexts", async () => {
    notified.length = 0;
    const client = v2025.createClient({
      transport: new StreamableHttpClientTransport(http.url, {
        headers: { Authorization: `Bearer ${await token()}` },
        openStream: false,
      }),
      clientInfo: { name: "legacy", version: "1.0.0" },
    });
    await client.connect();
    try {
      const result = await client.callTool({ name: "echo" });
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      expect(JSON.parse(text)).toEqual(expected(["mcp"]));
      await expect.poll(() => notified.length).toBe(1);
      expect(notified[0]).toEqual(expected(["mcp"]));
    } finally {
      await client.close();
    }
  });

  it("binds a session to the subject that opened it: another subject finds no such session", async () => {
    const client = v2025.createClient({
      transport: new StreamableHttpClientTransport(http.url, {
        headers: { Authorization: `Bearer ${await token()}` },
        openStream: false,
      }),
      clientInfo: { name: "legacy", version: "1.0.0" },
    });
    await client.connect();
    try {
      const sessionId = [...http.handler.sessions.keys()].at(-1) ?? "";
      const mallory = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          authorization: `Bearer ${await token({ sub: "mallory" })}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo" } }),
      });
      expect(mallory.status).toBe(404);
      expect((await client.callTool({ name: "echo" })).content).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe("the fetch face", () => {
  it("challenges, serves the metadata and passes authInfo as node:http does", async () => {
    const server = v2026.createServer({
      serverInfo: { name: "fetch", version: "1.0.0" },
      handlers: { callTool: (_params, context) => seen(context.authInfo) },
    });
    const resource = "https://mcp.example.com/mcp";
    const handler = createStreamableHttpHandler({
      server,
      allowedHosts: ["mcp.example.com"],
      auth: {
        resource,
        authorizationServers: ["https://auth.example.com"],
        verify: (t) => (t === "good" ? { subject: "bob", scopes: ["mcp"], audience: `${resource}/` } : undefined),
        requiredScopes: ["mcp"],
      },
    });
    const request = (authorization?: string) =>
      new Request(resource, {
        method: "POST",
        headers: headersFor("tools/call", "echo", authorization),
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta, name: "echo" } }),
      });
    const refused = await answerOf(await handler.fetch(request()));
    expect(refused.status).toBe(401);
    const documentUrl = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
    expect(challengeOf(refused)["resource_metadata"]).toBe(documentUrl);
    const document = await handler.protectedResource?.fetch(new Request(documentUrl));
    expect(await document?.json()).toMatchObject({ resource, authorization_servers: ["https://auth.example.com"] });
    // An audience with a trailing slash is the same resource.
    const answer = await answerOf(await handler.fetch(request("Bearer good")));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.result?.content?.[0]?.text ?? "")).toMatchObject({ subject: "bob" });
    // No header limit in front of a fetch handler: an oversized token is refused unread.
    const huge = await answerOf(await handler.fetch(request(`Bearer ${"a".repeat(100_000)}`)));
    expect([huge.status, challengeOf(huge)["error"]]).toEqual([400, "invalid_request"]);
    await server.close();
  });
});

describe("the verify hook", () => {
  it("answers 500 when verification fails, and onError never sees the token", async () => {
    const secret = "s3cr3t-t0ken-value";
    const errors: Error[] = [];
    const server = v2026.createServer({ serverInfo: { name: "x", version: "1" }, handlers: {} });
    const endpoint = await serveStreamableHttp({
      server,
      auth: {
        authorizationServers: ["https://auth.example.com"],
        verify: (t) => {
          throw new Error(`introspection of ${t} failed: connection refused`);
        },
      },
      onError: (error) => void errors.push(error),
    });
    try {
      const response = await fetch(endpoint.url, {
        method: "POST",
        headers: headersFor("tools/list", undefined, `Bearer ${secret}`),
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
      });
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain(secret);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain("connection refused");
      expect(`${errors[0]?.message}${errors[0]?.stack}`).not.toContain(secret);
    } finally {
      await endpoint.close();
      await server.close();
    }
  });

  it("refuses what it accepts when it has expired or names no audience", async () => {
    const server = v2026.createServer({ serverInfo: { name: "x", version: "1" }, handlers: {} });
    const endpoint = await serveStreamableHttp({
      server,
      auth: {
        authorizationServers: ["https://auth.example.com"],
        verify: (t) => ({
          scopes: [],
          audience: t === "no-audience" ? undefined : endpoint.url,
          expiresAt: t === "expired" ? Date.now() / 1000 - 1 : t === "nan" ? Number.NaN : undefined,
        }),
      },
    });
    try {
      for (const t of ["expired", "nan", "no-audience"]) {
        const response = await fetch(endpoint.url, {
          method: "POST",
          headers: headersFor("tools/list", undefined, `Bearer ${t}`),
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
        });
        expect(response.status, t).toBe(401);
        expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      }
    } finally {
      await endpoint.close();
      await server.close();
    }
  });
});

describe("examples/protected-server", () => {
  it("keeps each subject's notes apart and needs notes:write to add one, in both eras", async () => {
    const notes = await serveNotes({ issuer: issuer.issuer, jwksUri: issuer.jwksUri });
    const bearer = async (claims: TokenClaims) => {
      const signed = await issuer.sign(notes.url, claims);
      tokens.push(signed);
      return `Bearer ${signed}`;
    };
    try {
      const alice = await bearer({ sub: "alice", scope: "notes:write" });
      const added = await callTool("add-note", alice, notes.url, { text: "alice's" });
      expect(textOf(added)).toBe("1 note(s)");
      const bob = await bearer({ sub: "bob", scope: "notes:read" });
      expect(textOf(await callTool("list-notes", bob, notes.url))).toBe("");
      const refused = await callTool("add-note", bob, notes.url, { text: "x" });
      expect([refused.status, challengeOf(refused)["scope"]]).toEqual([403, "notes:read notes:write"]);
      // Alice again, in a 2025-11-25 session.
      const client = v2025.createClient({
        transport: new StreamableHttpClientTransport(notes.url, {
          headers: { Authorization: alice },
          openStream: false,
        }),
        clientInfo: { name: "notes", version: "1.0.0" },
      });
      await client.connect();
      const listed = await client.callTool({ name: "list-notes" });
      expect(listed.content[0]).toEqual({ type: "text", text: "alice's" });
      await client.close();
    } finally {
      await notes.close();
    }
  });
});

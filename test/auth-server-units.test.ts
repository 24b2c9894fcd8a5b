// The pieces of the server side of authorization (runtime/auth/) on their own: reading Bearer
// tokens from hostile headers, writing challenges, the protected resource metadata URL and the
// canonical resource, the scopes a POST needs and a token lacks, the options refused at start,
// the one protocol fact the scope rules rely on (tools/call names its tool in `name`), and
// authInfo from any transport reaching a handler.
import { describe, expect, it, vi } from "vitest";
import * as r2024 from "../generated/2024-11-05/index.js";
import * as r2025a from "../generated/2025-03-26/index.js";
import * as r2025b from "../generated/2025-06-18/index.js";
import * as r2025c from "../generated/2025-11-25/index.js";
import * as r2026 from "../generated/2026-07-28/index.js";
import * as draft from "../generated/draft/index.js";
import { formatChallenge, MAX_TOKEN_LENGTH, readBearerToken } from "../runtime/auth/server/bearer.js";
import { canonicalResource, protectedResourceMetadataUrl } from "../runtime/auth/server/protected-resource.js";
import { createResourceServer, type AuthOptions } from "../runtime/auth/server/resource-server.js";
import { missingScopes, requiredScopes, TOOL_CALL, type ScopeRules } from "../runtime/auth/server/required-scopes.js";
import type { JsonRpcMessage, Transport } from "../runtime/index.js";

describe("Bearer tokens in the Authorization header", () => {
  it("reads a token, case-insensitively by scheme, with extra spaces", () => {
    expect(readBearerToken("Bearer abc.DEF-_~+/==")).toEqual({ kind: "token", token: "abc.DEF-_~+/==" });
    expect(readBearerToken("bearer   abc  ")).toEqual({ kind: "token", token: "abc" });
  });

  it("takes no header, an empty one and another scheme for no token at all", () => {
    for (const header of [undefined, "", "Basic YWxpY2U6cw==", "Token abc", "DPoP abc"])
      expect(readBearerToken(header), String(header)).toEqual({ kind: "missing" });
  });

  it("calls everything else after Bearer malformed, hostile input included, without throwing", () => {
    const hostile = [
      "Bearer",
      "Bearer ",
      "Bearer a b",
      "Bearer a, Bearer b",
      'Bearer "quoted"',
      "Bearer a=b",
      "Bearer é",
      "Bearer a\nb",
      `Bearer ${"a".repeat(MAX_TOKEN_LENGTH + 1)}`,
      `Bearer a${" ".repeat(100_000)}b`,
      `Bearer ${"=".repeat(50_000)}x`,
    ];
    for (const header of hostile) expect(readBearerToken(header).kind, header.slice(0, 40)).toBe("malformed");
  });
});

describe("challenges", () => {
  it("lists resource_metadata, scope, error and its description as quoted strings", () => {
    expect(formatChallenge({})).toBe("Bearer");
    expect(
      formatChallenge({
        resourceMetadata: "https://a.example/.well-known/oauth-protected-resource/mcp",
        scope: ["files:read", "files:write"],
        error: "insufficient_scope",
        errorDescription: 'needs "files:write" \\ now\n',
      }),
    ).toBe(
      'Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", ' +
        'scope="files:read files:write", error="insufficient_scope", error_description="needs \\"files:write\\" \\\\ now "',
    );
    expect(formatChallenge({ scope: [] })).toBe("Bearer");
  });
});

describe("the protected resource's URLs", () => {
  it("inserts the well-known path between the host and the resource's path (RFC 9728 §3.1)", () => {
    const at = protectedResourceMetadataUrl;
    expect(at("https://mcp.example.com/mcp")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    expect(at("https://mcp.example.com/a/b/")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/a/b");
    expect(at("https://mcp.example.com")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource");
    expect(at("http://127.0.0.1:8080/mcp?tenant=a")).toBe(
      "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp?tenant=a",
    );
    expect(() => at("mcp.example.com/mcp")).toThrow(TypeError);
  });

  it("compares resources in canonical form: case of scheme and host, default port, trailing slash", () => {
    const canonical = "https://mcp.example.com/mcp";
    for (const same of [
      "HTTPS://MCP.Example.com/mcp",
      "https://mcp.example.com:443/mcp",
      "https://mcp.example.com/mcp/",
    ])
      expect(canonicalResource(same)).toBe(canonical);
    expect(canonicalResource("https://mcp.example.com/MCP")).not.toBe(canonical);
    expect(canonicalResource("https://mcp.example.com/")).toBe("https://mcp.example.com");
    for (const invalid of [
      "mcp.example.com",
      "https://mcp.example.com/mcp#x",
      "https://u:p@mcp.example.com",
      "ftp://a/b",
    ])
      expect(canonicalResource(invalid), invalid).toBeUndefined();
  });
});

describe("scopes", () => {
  const rules: ScopeRules = {
    requiredScopes: ["mcp"],
    methodScopes: { "resources/read": ["files:read"] },
    toolScopes: { deploy: ["deploy", "files:read"] },
    impliedScopes: { admin: ["deploy"], deploy: ["mcp", "admin"], "files:write": ["files:read"] },
  };
  const call = (name: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } });

  it("needs every request's, the method's and the tool's scopes, each once, for every message of a batch", () => {
    expect(requiredScopes(rules, [])).toEqual(["mcp"]);
    expect(requiredScopes(rules, [call("deploy")])).toEqual(["mcp", "deploy", "files:read"]);
    expect(requiredScopes(rules, [call("other"), { method: "resources/read" }, call("deploy")])).toEqual([
      "mcp",
      "files:read",
      "deploy",
    ]);
  });

  it("ignores what is not a method or a tool name, inherited property names included", () => {
    for (const odd of [null, 7, "x", [], { method: 3 }, call(42), call("__proto__"), call("constructor")])
      expect(requiredScopes(rules, [odd])).toEqual(["mcp"]);
    expect(requiredScopes(rules, [{ method: "toString" }, { method: "__proto__" }])).toEqual(["mcp"]);
  });

  it("counts what granted scopes imply, transitively and through cycles", () => {
    expect(missingScopes(rules, ["admin"], ["mcp", "deploy"])).toEqual([]);
    expect(missingScopes(rules, ["files:write"], ["mcp", "files:read"])).toEqual(["mcp"]);
    expect(missingScopes(rules, [], ["mcp"])).toEqual(["mcp"]);
  });

  it("relies on a fact of every revision: tools/call names its tool in params.name", () => {
    type NamesTool<M extends { "tools/call": { params: { name: string } } }> = M["tools/call"]["params"]["name"];
    const names: [
      NamesTool<r2024.ClientRequestMap>,
      NamesTool<r2025a.ClientRequestMap>,
      NamesTool<r2025b.ClientRequestMap>,
      NamesTool<r2025c.ClientRequestMap>,
      NamesTool<r2026.ClientRequestMap>,
      NamesTool<draft.ClientRequestMap>,
    ] = ["a", "b", "c", "d", "e", "f"];
    expect(names).toHaveLength(6);
    expect(TOOL_CALL).toEqual({ method: "tools/call", nameField: "name" });
    for (const methods of [r2024, r2025a, r2025b, r2025c, r2026, draft].map((r) => r.CLIENT_REQUEST_METHODS))
      expect(methods).toContain(TOOL_CALL.method);
  });
});

describe("options refused at start", () => {
  const base: AuthOptions = {
    resource: "https://mcp.example.com/mcp",
    authorizationServers: ["https://auth.example.com"],
    verify: () => undefined,
  };

  it("refuses a resource, issuer or audience that is no URL, no issuer, and a scope with a space", () => {
    const bad: Partial<AuthOptions>[] = [
      { resource: "mcp.example.com" },
      { resource: "https://mcp.example.com/mcp#top" },
      { authorizationServers: [] },
      { authorizationServers: ["auth.example.com"] },
      { audiences: ["not a url"] },
      { requiredScopes: ["files read"] },
      { toolScopes: { t: ['a"b'] } },
      { impliedScopes: { "a b": [] } },
    ];
    for (const options of bad)
      expect(() => createResourceServer({ ...base, ...options }), JSON.stringify(options)).toThrow(TypeError);
  });

  it("keeps resource and authorization_servers its own whatever the extra metadata says", () => {
    const server = createResourceServer({
      ...base,
      metadata: { resource: "https://evil.example", authorization_servers: [], resource_name: "n" },
    });
    expect(server.metadata.document).toMatchObject({
      resource: base.resource,
      authorization_servers: base.authorizationServers,
      resource_name: "n",
    });
  });
});

describe("authInfo from a transport", () => {
  it("reaches the handler from onmessage's extra, the official SDK's shape of it too", async () => {
    const seen: unknown[] = [];
    const server = r2026.createServer({
      serverInfo: { name: "units", version: "1.0.0" },
      handlers: {
        callTool: (_params, context) => {
          seen.push(context.authInfo);
          return { content: [] };
        },
      },
    });
    const sent: unknown[] = [];
    const transport: Transport = {
      start: async () => {},
      send: async (message) => void sent.push(message),
      close: async () => {},
    };
    await server.connect(transport);
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const call = (id: number): JsonRpcMessage => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { _meta, name: "t" },
    });
    const sdk = { token: "t", clientId: "c", scopes: ["s"], expiresAt: 1, resource: new URL("https://a.example") };
    transport.onmessage?.(call(1), { authInfo: sdk });
    transport.onmessage?.(call(2));
    transport.onmessage?.(call(3), { authInfo: "not an object" });
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(seen).toEqual([sdk, undefined, undefined]);
    await server.close();
  });
});

// A server's own faults, as its client and its onError see them: a registered handler that
// returns nothing or the wrong shape, or throws, at 2025-11-25 (in memory, the registry and the
// low-level server) and 2026-07-28 (over HTTP). The client gets -32603 naming the request and
// what was wrong (never a thrown error's message); onError gets each fault; a tool's thrown
// error stays a tool result and an RpcError travels as it is, neither reported.
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";
import { createInMemoryTransportPair, RpcError } from "../runtime/index.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const serverInfo = { name: "faults", version: "1" };
const clientInfo = { name: "ours", version: "1" };

/** The error a call rejects with, as the client sees it. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  const { code, message } = error as RpcError;
  return { code, message };
}

/** The tools and prompt every registry server here has; `secret` is what the prompt throws. */
function register(mcp: v2025.McpServer, secret: Error) {
  // The handlers break their declared types on purpose, as untyped or careless code does.
  mcp.registerTool("nothing", {}, (() => undefined) as never);
  mcp.registerTool("wrong", {}, (() => ({ content: [], _meta: "not an object" })) as never);
  mcp.registerTool("throws", {}, () => {
    throw new Error("the tool failed");
  });
  mcp.registerPrompt("greet", {}, () => {
    throw secret;
  });
  mcp.registerResource("gone", "file:///gone", {}, () => {
    throw new RpcError(-32002, "Resource gone", { uri: "file:///gone" });
  });
}

const wrong = 'tools/call "wrong" returned an invalid result: /_meta: expected object, got string';

/** What every client of such a server gets, and what the server's onError hears. */
async function expectFaultsShown(client: v2025.Client, errors: Error[], secret: Error) {
  expect(await refusal(client.callTool({ name: "nothing" }))).toEqual({
    code: -32603,
    message: 'tools/call "nothing" returned undefined: (root): expected object, got undefined',
  });
  expect(await refusal(client.callTool({ name: "wrong" }))).toEqual({ code: -32603, message: wrong });
  // A prompt's thrown message stays on the server: the client reads which request failed.
  expect(await refusal(client.getPrompt({ name: "greet" }))).toEqual({
    code: -32603,
    message: 'prompts/get "greet" failed: Internal error',
  });
  // Conventions kept: a tool's thrown error is a tool result the model reads; an RpcError is as thrown.
  const thrown = await client.callTool({ name: "throws" });
  expect(thrown).toMatchObject({ isError: true, content: [{ type: "text", text: "the tool failed" }] });
  expect(await refusal(client.readResource({ uri: "file:///gone" }))).toEqual({
    code: -32002,
    message: "Resource gone",
  });

  expect(errors.map((e) => e.name)).toEqual(["HandlerError", "HandlerError", "HandlerError"]);
  expect(errors[0]?.message).toBe('tools/call "nothing" returned undefined: (root): expected object, got undefined');
  expect(errors[1]?.message).toBe(wrong);
  expect(errors[2]?.message).toBe('prompts/get "greet" failed: the secret is 42');
  expect(errors[2]?.cause).toBe(secret);
}

describe("a handler's fault at 2025-11-25, in memory", () => {
  it("reaches the registry's client as -32603 naming the tool or prompt and what was wrong, and onError", async () => {
    const errors: Error[] = [];
    const secret = new Error("the secret is 42");
    const mcp = v2025.createMcpServer({ serverInfo, onError: (error) => errors.push(error) });
    register(mcp, secret);
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await mcp.connect(serverSide);
    const client = v2025.createClient({ transport: clientSide, clientInfo });
    await client.connect();
    cleanups.push(() => client.close());
    await expectFaultsShown(client, errors, secret);
  });

  it("checks a low-level handler's result against the revision's result type before sending it", async () => {
    const errors: Error[] = [];
    const server = v2025.createServer({
      serverInfo,
      handlers: { callTool: (() => undefined) as never, listTools: () => ({ tools: [{ name: "x" }] }) as never },
      onError: (error) => errors.push(error),
    });
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await server.connect(serverSide);
    const client = v2025.createClient({ transport: clientSide, clientInfo });
    await client.connect();
    cleanups.push(() => client.close());
    const message = 'tools/call "echo" returned undefined: /content: missing required property "content"';
    expect(await refusal(client.callTool({ name: "echo" }))).toEqual({ code: -32603, message });
    const listed = await refusal(client.listTools());
    expect(listed.code).toBe(-32603);
    expect(listed.message).toMatch(/^tools\/list returned an invalid result: \/tools\/0\/inputSchema: /);
    expect(errors.map((e) => e.message)).toEqual([message, listed.message]);
  });
});

describe("a handler's fault at 2026-07-28, over HTTP", () => {
  it("reaches the registry's client as -32603 naming the tool or prompt and what was wrong, and onError", async () => {
    const errors: Error[] = [];
    const secret = new Error("the secret is 42");
    const mcp = v2026.createMcpServer({ serverInfo, onError: (error) => errors.push(error) });
    register(mcp as unknown as v2025.McpServer, secret);
    const http = await serveStreamableHttp({ server: mcp });
    cleanups.push(
      () => http.close(),
      () => mcp.close(),
    );
    const client = v2026.createClient({
      transport: new StreamableHttpClientTransport(http.url),
      clientInfo,
      cache: false,
    });
    await client.connect();
    cleanups.push(() => client.close());
    // The two revisions' clients take the same calls here; the 2025 one's types stand for both.
    await expectFaultsShown(client as unknown as v2025.Client, errors, secret);
  });
});

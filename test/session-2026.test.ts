// 2026-07-28: no handshake. The generated client and server complete a session through
// server/discover, with the per-request `_meta` envelope on every request and a multi
// round-trip (InputRequiredResult) answered by the client's handlers.
import { describe, expect, it } from "vitest";
import { createInMemoryTransportPair, type JsonRpcMessage, type Transport } from "../runtime/index.js";
import * as rev from "../generated/2026-07-28/index.js";

/** Records what crosses a transport. */
function recording(transport: Transport, sent: JsonRpcMessage[]): Transport {
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    sent.push(...[message].flat());
    await send(message, options);
  };
  return transport;
}

const complete = { resultType: "complete" } as const;

async function session() {
  const fromClient: JsonRpcMessage[] = [];
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const server = rev.createServer({
    serverInfo: { name: "server-2026", version: "1.0.0" },
    instructions: "be brief",
    handlers: {
      listTools: () => ({
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        tools: [{ name: "book", inputSchema: { type: "object" } }],
      }),
      callTool: (params, context) => {
        const name = context.client.clientInfo?.name;
        // First round: ask the client for input. Second round: answer with it.
        const responses = params.inputResponses;
        if (!responses) {
          return {
            resultType: "input_required",
            inputRequests: {
              confirm: {
                method: "elicitation/create",
                params: {
                  message: "Book it?",
                  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
                },
              },
              draft: {
                method: "sampling/createMessage",
                params: { messages: [{ role: "user", content: { type: "text", text: "draft" } }], maxTokens: 5 },
              },
            },
            requestState: "state-1",
          };
        }
        const elicited = responses.confirm as { action?: string };
        return {
          ...complete,
          content: [{ type: "text", text: `${params.requestState} ${elicited.action} for ${name}` }],
        };
      },
      listResources: () => ({
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        resources: [{ uri: "file:///a.txt", name: "a" }],
      }),
      readResource: (params) => ({
        ...complete,
        ttlMs: 0,
        cacheScope: "private",
        contents: [{ uri: params.uri, text: "A" }],
      }),
      listPrompts: () => ({ ...complete, ttlMs: 0, cacheScope: "private", prompts: [{ name: "hello" }] }),
      getPrompt: () => ({ ...complete, messages: [{ role: "user", content: { type: "text", text: "hi" } }] }),
    },
  });
  await server.connect(serverSide);
  const client = rev.createClient({
    transport: recording(clientSide, fromClient),
    clientInfo: { name: "client-2026", version: "1.0.0" },
    logLevel: "warning",
    handlers: {
      elicit: () => ({ action: "accept", content: { ok: true } }),
      createMessage: () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "m" }),
    },
  });
  await client.connect();
  return { client, server, fromClient };
}

describe("a 2026-07-28 session between the generated client and server", () => {
  it("starts with server/discover, not a handshake", async () => {
    const { client, fromClient } = await session();
    expect(fromClient.map((m) => ("method" in m ? m.method : "response"))).toEqual(["server/discover"]);
    expect(client.server.serverCapabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.server.instructions).toBe("be brief");
    expect(client.server.serverInfo).toEqual({ name: "server-2026", version: "1.0.0" });
    await client.close();
  });

  it("sends the _meta envelope on every request", async () => {
    const { client, fromClient } = await session();
    await client.listTools();
    await client.listResources();
    await client.readResource({ uri: "file:///a.txt" });
    await client.listPrompts();
    await client.getPrompt({ name: "hello" });
    const requests = fromClient.filter((m) => "method" in m && "id" in m) as { params?: { _meta?: object } }[];
    expect(requests).toHaveLength(6);
    for (const request of requests) {
      expect(request.params?._meta).toEqual({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {} },
        "io.modelcontextprotocol/clientInfo": { name: "client-2026", version: "1.0.0" },
        "io.modelcontextprotocol/logLevel": "warning",
      });
    }
    await client.close();
  });

  it("answers an InputRequiredResult with its handlers and retries with the responses and state", async () => {
    const { client, fromClient } = await session();
    const result = await client.callTool({ name: "book" });
    expect(result.content).toEqual([{ type: "text", text: "state-1 accept for client-2026" }]);
    const calls = fromClient.filter((m) => "method" in m && m.method === "tools/call") as {
      params: Record<string, unknown>;
    }[];
    expect(calls).toHaveLength(2);
    expect(calls[0]?.params.inputResponses).toBeUndefined();
    expect(calls[1]?.params).toMatchObject({
      requestState: "state-1",
      inputResponses: {
        confirm: { action: "accept", content: { ok: true } },
        draft: { role: "assistant", content: { type: "text", text: "ok" }, model: "m" },
      },
    });
    await client.close();
  });

  it("rejects a request without the _meta envelope, and one for another protocol version", async () => {
    const { server } = await session();
    const [probe, serverSide] = createInMemoryTransportPair();
    const other = rev.createServer({
      serverInfo: { name: "s", version: "1" },
      handlers: { listTools: () => ({ ...complete, ttlMs: 0, cacheScope: "private", tools: [] }) },
    });
    await other.connect(serverSide);
    const answers: JsonRpcMessage[] = [];
    probe.onmessage = (m) => answers.push(m);
    await probe.start();
    await probe.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2025-11-25",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    await probe.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const byId = new Map(answers.map((a) => [(a as { id?: unknown }).id, a]));
    expect(byId.get(1)).toMatchObject({ error: { code: -32602, data: { issues: [{ path: "/params/_meta" }] } } });
    expect(byId.get(2)).toMatchObject({
      error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2025-11-25" } },
    });
    await other.close();
    expect(server.capabilities).toMatchObject({ tools: {} });
  });
});

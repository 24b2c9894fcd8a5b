// The official SDK v2 client (@modelcontextprotocol/client 2.4.0) against servers built on the
// generated code, over real loopback HTTP: a 2026-07-28 server (discovery, tools, progress,
// multi round-trip input, subscriptions/listen) and, on the same URL, a 2025-11-25 session for
// the SDK's legacy mode.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve() {
  const server = v2026.createServer({
    serverInfo: { name: "ours-2026", version: "1.0.0" },
    capabilities: { tools: { listChanged: true } },
    handlers: {
      listTools: () => ({
        ttlMs: 0,
        cacheScope: "private",
        tools: [
          { name: "echo", inputSchema: { type: "object" } },
          { name: "ask", inputSchema: { type: "object" } },
        ],
      }),
      callTool: async (params, context) => {
        if (params.name === "ask") {
          const answer = params.inputResponses?.["name"] as { content?: { name?: string } } | undefined;
          if (!answer)
            return {
              resultType: "input_required",
              inputRequests: {
                name: {
                  method: "elicitation/create",
                  params: {
                    message: "Name?",
                    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
                  },
                },
              },
            };
          return { content: [{ type: "text", text: `hello ${answer.content?.name}` }] };
        }
        await context.progress({ progress: 1, total: 2 });
        return { content: [{ type: "text", text: JSON.stringify(params.arguments) }] };
      },
    },
  });
  const http = await serveStreamableHttp({
    server,
    onSession: (session) =>
      v2025
        .createServer({
          serverInfo: { name: "ours-2025", version: "1.0.0" },
          handlers: { listTools: () => ({ tools: [{ name: "legacy", inputSchema: { type: "object" } }] }) },
        })
        .connect(session),
  });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

function sdkClient(url: string, negotiation: "auto" | "legacy") {
  const client = new Client(
    { name: "sdk-v2", version: "2.4.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: negotiation } },
  );
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
  cleanups.push(() => client.close());
  return { client, connect: () => client.connect(new StreamableHTTPClientTransport(new URL(url))) };
}

describe("the SDK v2 client against a generated 2026-07-28 server", () => {
  it("negotiates 2026-07-28, lists and calls tools, gets progress and answers input requests", async () => {
    const { http } = await serve();
    const { client, connect } = sdkClient(http.url, "auto");
    await connect();
    expect(client.getServerVersion()).toEqual({ name: "ours-2026", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "ask"]);
    const progress: unknown[] = [];
    const echoed = await client.callTool(
      { name: "echo", arguments: { a: 1 } },
      { onprogress: (p) => void progress.push(p) },
    );
    expect(echoed.content).toEqual([{ type: "text", text: '{"a":1}' }]);
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    const asked = await client.callTool({ name: "ask", arguments: {} });
    expect(asked.content).toEqual([{ type: "text", text: "hello Ada" }]);
  });

  it("opens a subscriptions/listen stream and receives the server's list changes", async () => {
    const { server, http } = await serve();
    const { client, connect } = sdkClient(http.url, "auto");
    await connect();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await server.notify("notifications/tools/list_changed");
    await changed;
    await subscription.close();
  });

  it("in its legacy mode, gets a 2025-11-25 session on the same URL", async () => {
    const { http } = await serve();
    const { client, connect } = sdkClient(http.url, "legacy");
    await connect();
    expect(client.getServerVersion()).toEqual({ name: "ours-2025", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["legacy"]);
    expect(http.handler.sessions.size).toBe(1);
  });
});

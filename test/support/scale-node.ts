// One node of a service run on several processes against one Redis (test/scale.test.ts): a
// 2026-07-28 server and 2025-11-25 sessions on one endpoint, sharing change events, session
// ownership and stream events through Redis. Tools: `whoami` (this node's name), `announce`
// (publishes tools/list_changed, or resources/updated for a URI, from this node; an error result
// when the event was lost) and `hold` (answers only when cancelled, to be in flight when the node
// is killed). Prints {"url": …} on stdout once listening; Redis problems go to stderr as lines.
import { randomUUID } from "node:crypto";
import * as v2025 from "../../generated/2025-11-25/index.js";
import * as v2026 from "../../generated/2026-07-28/index.js";
import { connectRedis } from "../../integrations/redis/index.js";
import { serveStreamableHttp } from "../../runtime/http/server/server.js";

const name = process.env["NODE_NAME"] ?? "node";
const port = Number(process.env["NODE_PORT"]);
const redisUrl = process.env["REDIS_URL"];
const redis = await connectRedis({
  ...(redisUrl ? { url: redisUrl } : {}),
  onError: (error) => process.stderr.write(`${JSON.stringify({ node: name, error: error.message })}\n`),
});

type Announce = { what: "tools" | "resource"; uri?: string };
const announceSchema = {
  type: "object",
  properties: { what: { type: "string", enum: ["tools", "resource"] }, uri: { type: "string" } },
  required: ["what"],
} as const;

function tools(mcp: v2026.McpServer | v2025.McpServer): void {
  const register = mcp.registerTool.bind(mcp) as unknown as (
    name: string,
    config: object,
    handler: (args: never, context: { signal: AbortSignal }) => unknown,
  ) => void;
  register("whoami", { inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: name }] }));
  register("announce", { inputSchema: announceSchema }, async (args: Announce) => {
    try {
      if (args.what === "tools")
        await (mcp.notify as (method: string) => Promise<void>)("notifications/tools/list_changed");
      else await mcp.resourceUpdated(args.uri ?? "file:///a.txt");
      return { content: [{ type: "text", text: `published by ${name}` }] };
    } catch (error) {
      return { content: [{ type: "text", text: (error as Error).message }], isError: true };
    }
  });
  register(
    "hold",
    { inputSchema: { type: "object" } },
    (_args: never, context) =>
      new Promise((done) =>
        context.signal.addEventListener("abort", () => done({ content: [{ type: "text", text: "cancelled" }] })),
      ),
  );
  (mcp.registerResource as (...args: unknown[]) => unknown)("a", "file:///a.txt", { mimeType: "text/plain" }, () => ({
    contents: [{ uri: "file:///a.txt", text: `a, from ${name}` }],
  }));
}

const serverInfo = { name: `scale-${name}`, version: "1.0.0" };
const stateless = v2026.createMcpServer({ serverInfo, events: redis.events });
tools(stateless);
const sessions = v2025.createMcpServer({ serverInfo, events: redis.events });
tools(sessions);

const http = await serveStreamableHttp({
  port,
  server: stateless,
  onSession: (session) => sessions.connect(session),
  cluster: {
    self: { node: `${name}-${randomUUID()}`, url: `http://127.0.0.1:${port}/mcp` },
    directory: redis.directory,
    eventStore: redis.eventStore,
    ownershipTtlMs: 5_000,
  },
  onError: (error) => process.stderr.write(`${JSON.stringify({ node: name, error: error.message })}\n`),
});
process.stdout.write(`${JSON.stringify({ url: http.url })}\n`);
process.on("SIGTERM", () => {
  void http
    .close()
    .then(() => redis.close())
    .then(() => process.exit(0));
});

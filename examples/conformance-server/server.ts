// The conformance suite's server at 2025-11-25, on the generated registry (createMcpServer): one
// registry per Streamable HTTP session, since the reconnection tool needs its session's streams.
// The registry lists, pages and calls the tools, reads the resources and the template, answers
// subscriptions, completion and log levels; the fixtures are only data and handlers.
import type { StreamableHttpSession } from "../../runtime/http/server/server.js";
import { createMcpServer, type McpServer } from "../../generated/2025-11-25/registry.js";
import * as fixtures from "./fixtures.js";
import { sessionTools } from "./session-tools.js";

export function createConformanceServer(session: StreamableHttpSession): McpServer {
  const mcp = createMcpServer({ serverInfo: { name: "mcp-gen-conformance-server", version: "1.0.0" } });
  return registerConformance(mcp, () => session);
}

/** The fixtures on `mcp`; `sessionOf` is the session a call runs in (none for a stateless client). */
export function registerConformance(mcp: McpServer, sessionOf: () => StreamableHttpSession | undefined): McpServer {
  for (const { tool, run } of fixtures.sharedTools)
    mcp.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, run);
  for (const { tool, run } of sessionTools)
    mcp.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, (args, context) =>
      run(args, context, sessionOf()),
    );
  for (const { name, uri, config, read } of fixtures.resources)
    mcp.registerResource(name, uri, config, (at, variables) => ({ contents: read(at, variables) }));
  for (const { name, config, messages } of fixtures.prompts)
    mcp.registerPrompt(name, config, (args) => ({ messages: messages(args) }));
  return mcp;
}

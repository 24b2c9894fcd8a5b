// The conformance suite's server at 2026-07-28, on the generated registry (createMcpServer): one
// stateless registry for every request. The tools, resources and prompts every revision offers
// come from the 2025-11-25 example's fixtures; the ones particular to this revision (input
// through multi round-trip results, the stateless diagnostics, list changes for subscriptions)
// are here and in input-tools.ts.
import { createMcpServer, type McpServer } from "../../generated/2026-07-28/registry.js";
import type * as T from "../../generated/2026-07-28/types.js";
import * as fixtures from "../conformance-server/fixtures.js";
import { inputPrompt, inputTools } from "./input-tools.js";

const text = (value: string): T.TextContent => ({ type: "text", text: value });

export function createConformanceServer(): McpServer {
  const mcp = createMcpServer({
    serverInfo: { name: "mcp-gen-conformance-server", version: "1.0.0" },
    // Nothing here changes while the server runs, but it may on a restart.
    cache: { ttlMs: 60_000, cacheScope: "public" },
  });
  for (const { tool, run } of fixtures.sharedTools)
    mcp.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, run);
  for (const { name, uri, config, read } of fixtures.resources)
    mcp.registerResource(name, uri, config, (at, variables) => ({ contents: read(at, variables) }));
  for (const { name, config, messages } of fixtures.prompts)
    mcp.registerPrompt(name, config, (args) => ({ messages: messages(args) }));
  return registerStatelessConformance(mcp);
}

/** What only this revision's scenarios ask for: input by multi round-trip results, diagnostics, list changes. */
export function registerStatelessConformance(mcp: McpServer): McpServer {
  for (const { name, description, run } of inputTools) mcp.registerTool(name, { description }, run);

  // The stateless server's own diagnostics, named by the server-stateless scenario.
  mcp.registerTool(
    "test_streaming_elicitation",
    { description: "Answers on its own stream with nothing but notifications and the result" },
    () => ({ content: [text("stream observed: result frames only")] }),
  );
  // The generated server drops the log message: the request asked for no log level.
  mcp.registerTool(
    "test_logging_tool",
    { description: "Logs, which reaches only requests that set a log level" },
    async (_args, context) => {
      await context.log("info", "test_logging_tool ran");
      return { content: [text("logged")] };
    },
  );
  mcp.registerTool("test_trigger_tool_change", { description: "Tells subscribers the tool list changed" }, async () => {
    await mcp.notify("notifications/tools/list_changed");
    return { content: [text("tools/list_changed published")] };
  });
  mcp.registerTool(
    "test_trigger_prompt_change",
    { description: "Tells subscribers the prompt list changed" },
    async () => {
      await mcp.notify("notifications/prompts/list_changed");
      return { content: [text("prompts/list_changed published")] };
    },
  );
  mcp.registerTool(
    "test_x_mcp_header",
    {
      description: "An argument mirrored into the Mcp-Param-Region header",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, level: { type: "integer" } },
      },
    },
    () => ({ content: [text("region received")] }),
  );

  mcp.registerPrompt(
    "test_input_required_result_prompt",
    { description: "Asks for context before it renders" },
    (_args, context) => inputPrompt(context),
  );
  return mcp;
}

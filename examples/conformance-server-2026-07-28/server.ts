// The conformance suite's server at 2026-07-28, on the generated 2026-07-28 server API: one
// stateless server for every request. The tools, resources and prompts every revision offers
// come from the 2025-11-25 example's fixtures; the ones particular to this revision (input
// through multi round-trip results, the stateless diagnostics, list changes for subscriptions)
// are here and in input-tools.ts.
import { createRequestStateSeal, RpcError } from "../../runtime/index.js";
import { createServer, type Answer, type RequestContext, type Server } from "../../generated/2026-07-28/server.js";
import type * as T from "../../generated/2026-07-28/types.js";
import * as fixtures from "../conformance-server/fixtures.js";
import { inputPrompt, inputTools } from "./input-tools.js";

/** Results the client may cache: nothing here changes while the server runs, but it may on a restart. */
const cached = { ttlMs: 60_000, cacheScope: "public" } as const;

const text = (value: string): T.TextContent => ({ type: "text", text: value });
const noArguments: T.Tool["inputSchema"] = { type: "object", properties: {} };

/** The stateless server's own diagnostics, named by the server-stateless scenario. */
function diagnostics(server: () => Server): {
  tool: T.Tool;
  run(request: RequestContext): Promise<Answer<T.CallToolResult>> | Answer<T.CallToolResult>;
}[] {
  const tool = (name: string, description: string): T.Tool => ({ name, description, inputSchema: noArguments });
  return [
    {
      tool: tool(
        "test_streaming_elicitation",
        "Answers on its own stream with nothing but notifications and the result",
      ),
      run: () => ({ content: [text("stream observed: result frames only")] }),
    },
    {
      // The generated server drops the log message: the request asked for no log level.
      tool: tool("test_logging_tool", "Logs, which reaches only requests that set a log level"),
      run: async (request) => {
        await request.notify("notifications/message", { level: "info", data: "test_logging_tool ran" });
        return { content: [text("logged")] };
      },
    },
    {
      tool: tool("test_trigger_tool_change", "Tells subscribers the tool list changed"),
      run: async () => {
        await server().notify("notifications/tools/list_changed");
        return { content: [text("tools/list_changed published")] };
      },
    },
    {
      tool: tool("test_trigger_prompt_change", "Tells subscribers the prompt list changed"),
      run: async () => {
        await server().notify("notifications/prompts/list_changed");
        return { content: [text("prompts/list_changed published")] };
      },
    },
    {
      tool: {
        name: "test_x_mcp_header",
        description: "An argument mirrored into the Mcp-Param-Region header",
        inputSchema: {
          type: "object",
          properties: { region: { type: "string", "x-mcp-header": "Region" }, level: { type: "integer" } },
        },
      },
      run: () => ({ content: [text("region received")] }),
    },
  ];
}

export async function createConformanceServer(): Promise<Server> {
  const requestState = await createRequestStateSeal();
  const own = diagnostics(() => server);
  const tools = [
    ...fixtures.sharedTools.map((f) => f.tool),
    ...inputTools.map((t) => t.tool),
    ...own.map((d) => d.tool),
  ];
  const prompts: T.Prompt[] = [
    ...fixtures.prompts,
    { name: "test_input_required_result_prompt", description: "Asks for context before it renders" },
  ];
  const server: Server = createServer({
    serverInfo: { name: "mcp-gen-conformance-server", version: "1.0.0" },
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
      logging: {},
    },
    requestState,
    handlers: {
      listTools: () => ({ ...cached, tools }),
      callTool: async (params, request) => {
        const input = inputTools.find((candidate) => candidate.tool.name === params.name);
        if (input) return input.run(params, request.client);
        const diagnostic = own.find((candidate) => candidate.tool.name === params.name);
        if (diagnostic) return diagnostic.run(request);
        const fixture = fixtures.sharedTools.find((candidate) => candidate.tool.name === params.name);
        if (!fixture) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
        return fixture.run(params.arguments ?? {}, {
          // Sent only at or above the level the request asked for (the generated server sees to it).
          log: (level, data) => request.notify("notifications/message", { level, logger: params.name, data }),
          progress: (update) => request.progress(update),
        });
      },
      listResources: () => ({ ...cached, resources: fixtures.resources }),
      listResourceTemplates: () => ({ ...cached, resourceTemplates: fixtures.resourceTemplates }),
      readResource: ({ uri }) => {
        const contents = fixtures.readResource(uri);
        // 2026-07-28 answers an unknown resource with invalid params, naming it.
        if (!contents) throw new RpcError(-32602, `Resource not found: ${uri}`, { uri });
        return { ...cached, contents };
      },
      listPrompts: () => ({ ...cached, prompts }),
      getPrompt: (params) => {
        if (params.name === "test_input_required_result_prompt") return inputPrompt(params);
        const messages = fixtures.getPrompt(params.name, params.arguments ?? {});
        if (!messages) throw new RpcError(-32602, `Unknown prompt: ${params.name}`);
        return { messages };
      },
      complete: ({ argument }) => ({ completion: fixtures.complete(argument.value) }),
    },
  });
  return server;
}

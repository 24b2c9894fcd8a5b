// The conformance suite's server, on the generated 2025-11-25 server API: one generated server
// per Streamable HTTP session, with the fixtures the suite's scenarios call by name.
import { RpcError } from "../../runtime/index.js";
import type { StreamableHttpSession } from "../../runtime/http/server.js";
import { createServer, type Server } from "../../generated/2025-11-25/server.js";
import type * as T from "../../generated/2025-11-25/types.js";
import * as fixtures from "./fixtures.js";
import { sessionTools, type SessionToolContext } from "./session-tools.js";

const tools: readonly fixtures.ToolFixture<SessionToolContext>[] = [...fixtures.sharedTools, ...sessionTools];

/** Log levels from least to most severe, as `logging/setLevel` orders them. */
const LEVELS: readonly T.LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export function createConformanceServer(session: StreamableHttpSession): Server {
  let minimumLevel: T.LoggingLevel = "debug";

  return createServer({
    serverInfo: { name: "mcp-gen-conformance-server", version: "1.0.0" },
    handlers: {
      listTools: () => ({ tools: tools.map((fixture) => fixture.tool) }),
      callTool: async (params, request) => {
        const fixture = tools.find((candidate) => candidate.tool.name === params.name);
        if (!fixture) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
        return fixture.run(params.arguments ?? {}, {
          request,
          log: async (level, data) => {
            if (LEVELS.indexOf(level) >= LEVELS.indexOf(minimumLevel))
              await request.notify("notifications/message", { level, logger: params.name, data });
          },
          progress: (update) => request.progress(update),
          closeStream: () => session.closeSSEStream(request.requestId),
        });
      },
      listResources: () => ({ resources: fixtures.resources }),
      listResourceTemplates: () => ({ resourceTemplates: fixtures.resourceTemplates }),
      readResource: ({ uri }) => {
        const contents = fixtures.readResource(uri);
        if (!contents) throw new RpcError(-32002, `Resource not found: ${uri}`, { uri });
        return { contents };
      },
      // Nothing here ever changes, so a subscription never leads to an update to send.
      subscribe: () => ({}),
      unsubscribe: () => ({}),
      listPrompts: () => ({ prompts: fixtures.prompts }),
      getPrompt: ({ name, arguments: args }) => {
        const messages = fixtures.getPrompt(name, args ?? {});
        if (!messages) throw new RpcError(-32602, `Unknown prompt: ${name}`);
        return { messages };
      },
      complete: ({ argument }) => ({ completion: fixtures.complete(argument.value) }),
      setLevel: ({ level }) => {
        minimumLevel = level;
        return {};
      },
    },
  });
}

// docs/servers.md: a small server on mcp-gen's registry (2025-11-25, stdio).
import { z } from "zod";
import { createMcpServer } from "../../generated/2025-11-25/index.js";
import { StdioServerTransport } from "../../runtime/stdio.js";

const mcp = createMcpServer({ serverInfo: { name: "notes", version: "1.0.0" } });

mcp.registerTool(
  "add",
  { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);

mcp.registerTool(
  "forecast",
  {
    description: "Tomorrow's weather in a city",
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  },
  ({ city }) => ({ structuredContent: { city, celsius: 21 } }),
);

mcp.registerResource(
  "note",
  "notes:///{name}",
  { mimeType: "text/plain", complete: { name: (typed) => ["todo", "ideas"].filter((n) => n.startsWith(typed)) } },
  (uri, { name }) => ({ contents: [{ uri, text: `Notes on ${name}` }] }),
);

mcp.registerPrompt(
  "review",
  { description: "Reviews code", argsSchema: z.object({ code: z.string() }) },
  ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please review:\n${code}` } }] }),
);

await mcp.connect(new StdioServerTransport());

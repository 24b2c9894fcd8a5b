// docs/servers.md: the same server on the official SDK v2 (@modelcontextprotocol/server 2.4.0, stdio).
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "add",
  { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) },
  async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);

server.registerTool(
  "forecast",
  {
    description: "Tomorrow's weather in a city",
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  },
  async ({ city }) => {
    const structuredContent = { city, celsius: 21 };
    return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
  },
);

server.registerResource(
  "note",
  new ResourceTemplate("notes:///{name}", {
    list: undefined,
    complete: { name: (typed) => ["todo", "ideas"].filter((n) => n.startsWith(typed)) },
  }),
  { mimeType: "text/plain" },
  async (uri, { name }) => ({ contents: [{ uri: uri.href, text: `Notes on ${name}` }] }),
);

server.registerPrompt(
  "review",
  { description: "Reviews code", argsSchema: z.object({ code: z.string() }) },
  ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please review:\n${code}` } }] }),
);

await server.connect(new StdioServerTransport());

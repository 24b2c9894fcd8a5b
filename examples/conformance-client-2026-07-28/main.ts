// The conformance suite's client for revision 2026-07-28, on the generated 2026-07-28 client API
// over Streamable HTTP (stateless: discovery, the `_meta` envelope and mirrored headers on every
// POST, multi round-trip input). The suite runs it as `--command`: the server's URL is the last
// argument, the scenario's name is in MCP_CONFORMANCE_SCENARIO and its inputs, where it has any,
// in MCP_CONFORMANCE_CONTEXT. Authorization scenarios (auth/*) go through runtime/auth
// (examples/shared/conformance-auth.ts). Exits non-zero when the scenario could not be played.
import { createClient, type ClientHandlers } from "../../generated/2026-07-28/client.js";
import type * as T from "../../generated/2026-07-28/types.js";
import { StreamableHttpClientTransport } from "../../runtime/http/client/client.js";
import { scenarioFetch } from "../shared/conformance-auth.js";

type Client = ReturnType<typeof createClient>;

/** The tool calls a scenario asks for in its context. */
function contextToolCalls(): { name: string; arguments: { [key: string]: unknown } }[] {
  const context: unknown = JSON.parse(process.env["MCP_CONFORMANCE_CONTEXT"] ?? "{}");
  const calls = (context as { toolCalls?: unknown }).toolCalls;
  return Array.isArray(calls) ? (calls as { name: string; arguments: { [key: string]: unknown } }[]) : [];
}

/** What each scenario does once connected (discovery done). */
const scenarios: { [name: string]: (client: Client) => Promise<unknown> } = {
  tools_call: async (client) => {
    await client.listTools();
    return client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
  },
  // Every request carries the `_meta` envelope and the version header; discovery was refused once.
  "request-metadata": (client) => client.listTools(),
  // Multi round-trip: input answered, requestState echoed exactly, a fresh id per retry.
  "sep-2322-client-request-state": async (client) => {
    await client.listTools();
    const results = [];
    for (const name of [
      "test_mrtr_echo_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_state",
      "test_mrtr_no_result_type",
    ])
      results.push(await client.callTool({ name, arguments: {} }));
    return results;
  },
  // Mcp-Method on every request, Mcp-Name on the three that name something.
  "http-standard-headers": async (client) => {
    const [tool] = (await client.listTools()).tools;
    if (tool) await client.callTool({ name: tool.name, arguments: {} });
    const [resource] = (await client.listResources()).resources;
    if (resource) await client.readResource({ uri: resource.uri });
    const [prompt] = (await client.listPrompts()).prompts;
    if (prompt) await client.getPrompt({ name: prompt.name, arguments: {} });
  },
  // Annotated arguments in Mcp-Param-* headers: the transport learns them from the listing.
  "http-custom-headers": async (client) => {
    await client.listTools();
    for (const call of contextToolCalls()) await client.callTool(call);
  },
  // Tools whose annotations break the rules are not listed; every tool listed is called.
  "http-invalid-tool-headers": async (client) => {
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: { region: "us-west1" } });
    return tools.map((tool) => tool.name);
  },
  // A network $ref in a schema is data: nothing fetches it.
  "json-schema-ref-no-deref": (client) => client.listTools(),
  // The focal tool's inputSchema must come back exactly as the server wrote it (no keyword dropped).
  "json-schema-2020-12-preservation": async (client) => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === "json_schema_2020_12_tool")?.inputSchema;
    return client.callTool({ name: "json_schema_echo", arguments: { schema } });
  },
};

/** Every authorization scenario: an authorized session that lists the tools and calls one. */
async function authorized(client: Client): Promise<unknown> {
  await client.listTools();
  return client.callTool({ name: "test-tool", arguments: {} });
}

/** A user who accepts every form as it is offered: each field at its default value. */
const handlers: ClientHandlers = {
  elicit: (params) => {
    if (params.mode === "url") return { action: "decline" };
    const content: NonNullable<T.ElicitResult["content"]> = {};
    for (const [name, field] of Object.entries(params.requestedSchema.properties))
      if (field.default !== undefined) content[name] = field.default;
    return { action: "accept", content };
  },
};

const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
const url = process.argv.at(-1);
const play = scenario.startsWith("auth/") ? authorized : scenarios[scenario];
if (!play || !url?.startsWith("http")) {
  console.error(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(scenarios).join("|")}|auth/…> main.ts <server URL>`);
  process.exit(2);
}

const client = createClient({
  transport: new StreamableHttpClientTransport(url, { fetch: scenarioFetch(scenario, url) }),
  clientInfo: { name: "mcp-gen-conformance-client", version: "1.0.0" },
  handlers,
  onError: (error) => console.error(`client: ${error.message}`),
});
try {
  await client.connect();
  const result = await play(client);
  if (result !== undefined) console.log(JSON.stringify(result));
} catch (error) {
  // Refusals are what some scenarios test (a mismatched issuer, …): one line, and a failing exit.
  console.error(`client: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await client.close();
}

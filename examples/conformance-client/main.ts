// The conformance suite's client, on the generated 2025-11-25 client API over Streamable HTTP.
// The suite runs it as `--command`: the server's URL is the last argument and the scenario's
// name is in MCP_CONFORMANCE_SCENARIO. Exits non-zero when the scenario could not be played.
// Authorization scenarios (auth/*) go through runtime/auth (examples/shared/conformance-auth.ts).
import { createClient, type ClientHandlers } from "../../generated/2025-11-25/client.js";
import type * as T from "../../generated/2025-11-25/types.js";
import { StreamableHttpClientTransport } from "../../runtime/http/client/client.js";
import { scenarioFetch } from "../shared/conformance-auth.js";

type Client = ReturnType<typeof createClient>;

/** What each scenario does once connected. */
const scenarios: { [name: string]: (client: Client) => Promise<unknown> } = {
  initialize: async () => {},
  tools_call: async (client) => {
    await client.listTools();
    return client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
  },
  "elicitation-sep1034-client-defaults": async (client) => {
    await client.listTools();
    return client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
  },
  // The focal tool's inputSchema must come back exactly as the server wrote it (no keyword dropped).
  "json-schema-2020-12-preservation": async (client) => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === "json_schema_2020_12_tool")?.inputSchema;
    return client.callTool({ name: "json_schema_echo", arguments: { schema } });
  },
  "sse-retry": async (client) => {
    await client.listTools();
    return client.callTool({ name: "test_reconnection", arguments: {} });
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
  // The sse-retry scenario's server answers the handshake with 2025-03-26; its messages are the same.
  acceptProtocolVersions: ["2025-06-18", "2025-03-26"],
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

// A terminal host: starts the servers of a config file (the `mcpServers` shape desktop hosts
// read), lists their tools under one namespace and calls them, asking you before every tool call
// and sampling request, with a progress line while a long call runs. There is no model here:
// when a server asks for a completion, you type it.
//
//   npx tsx examples/host-chat/main.ts examples/host-chat/servers.json
//
// Commands: tools | servers | call <id> [json arguments] | quit
import { createInterface } from "node:readline";
import { createHost, loadHostConfig, type ConsentRequest, type Progress } from "../../host/index.js";

const path = process.argv[2];
if (!path) {
  console.error("usage: host-chat <config.json>");
  process.exit(2);
}

const terminal = createInterface({ input: process.stdin });
const lines = terminal[Symbol.asyncIterator]();
async function ask(prompt: string): Promise<string | undefined> {
  process.stdout.write(prompt);
  const next = await lines.next();
  return next.done ? undefined : String(next.value).trim();
}

const what = (request: ConsentRequest) =>
  request.kind === "toolCall"
    ? `${request.id} ${JSON.stringify(request.params.arguments ?? {})}`
    : `${request.kind} for ${request.server}`;

const host = createHost({
  servers: await loadHostConfig(path),
  consent: async (request) =>
    (await ask(`allow ${what(request)}? [y/N] `)) === "y" ? { action: "approve" } : { action: "deny" },
  sampling: async ({ server, params }) => {
    const text = await ask(`${server} asks the model (${params.messages.length} message(s)); you answer: `);
    return { role: "assistant", model: "you", content: { type: "text", text: text ?? "" } };
  },
});
host.on("server", ({ name, state, error }) => {
  if (state === "down" || state === "failed" || state === "unauthorized")
    console.log(`! ${name} is ${state}: ${error?.message}`);
});
await host.connect();
host.on("change", ({ server, kind, added, removed }) =>
  console.log(`~ ${server}: ${kind} +${added.length} -${removed.length}`),
);
host.on("log", ({ server, level, data }) =>
  console.log(`[${server}] ${level}: ${typeof data === "string" ? data : JSON.stringify(data)}`),
);

const showProgress = ({ progress, total, message }: Progress) =>
  process.stdout.write(`\r\x1b[K… ${progress}${total ? `/${total}` : ""} ${message ?? ""}`);

for (let line = await ask("> "); line !== undefined && line !== "quit"; line = await ask("> ")) {
  const [command = "", id, ...rest] = line.split(" ");
  // First line only: some servers put pages of instructions into a tool's description.
  if (command === "tools")
    for (const tool of host.tools) console.log(`${tool.id}  ${tool.description?.split("\n")[0] ?? ""}`);
  else if (command === "servers")
    for (const s of host.servers)
      console.log(`${s.name}  ${s.state}  ${s.revision ?? "-"}  ${s.serverInfo?.name ?? ""}`);
  else if (command === "call" && id) {
    try {
      const args = rest.length > 0 ? (JSON.parse(rest.join(" ")) as { [key: string]: unknown }) : {};
      const result = await host.callTool(id, args, { onProgress: showProgress });
      process.stdout.write("\r\x1b[K");
      for (const part of result.content) console.log(part.type === "text" ? part.text : `[${part.type}]`);
    } catch (error) {
      process.stdout.write("\r\x1b[K");
      console.log(`error: ${(error as Error).message}`);
    }
  } else if (command !== "") console.log("commands: tools | servers | call <id> [json arguments] | quit");
}
await host.close();
terminal.close();

// The one server program for every revision over stdio (examples/multi-revision-server/stdio.ts):
// a real child process per connection, and clients of different revisions in turn, each served
// at its own: a 2024-11-05 client (handshake, results converted down) and a 2026-07-28 client (no
// handshake: its first request names its version, and input comes by multi round-trip results).
// Everything the server wrote on stdout is checked as a message of the client's revision.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as r1105 from "../generated/2024-11-05/index.js";
import * as r2607 from "../generated/2026-07-28/index.js";
import type { Transport } from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { problemsOf, recording, type MessageLog } from "./support/revision-oracle.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const program = "examples/multi-revision-server/stdio.ts";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A new server process, and the log of what it wrote (`sent`) and read (`received`). */
function spawnServer(): { transport: Transport; log: MessageLog } {
  const child = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", program],
    cwd: root,
    stderr: "inherit",
    shutdownGraceMs: 300,
  });
  const seen: MessageLog = { sent: [], received: [] };
  // Recorded on the client's side: what it received is what the server sent.
  return { transport: recording(child, seen), log: { sent: seen.received, received: seen.sent } };
}

describe(`${program}: clients of two revisions in turn`, () => {
  it("a 2024-11-05 client: the handshake at its revision, audio converted to content it has", async () => {
    const { transport, log } = spawnServer();
    const client = r1105.createClient({ transport, clientInfo: { name: "generated", version: "1.0.0" } });
    closing.push(() => client.close());
    await client.connect();
    expect(log.sent[0]).toMatchObject({ result: { protocolVersion: "2024-11-05" } });
    const names = (await client.listTools({})).tools.map((t) => t.name);
    expect(names).toContain("test_simple_text");
    expect(names).not.toContain("test_input_required_result_elicitation");
    expect((await client.callTool({ name: "test_simple_text", arguments: {} })).content).toEqual([
      { type: "text", text: "This is a simple text response for testing." },
    ]);
    const audio = await client.callTool({ name: "test_audio_content", arguments: {} });
    expect(audio.content[0]).toMatchObject({ type: "resource", resource: { mimeType: "audio/wav" } });
    expect((await client.readResource({ uri: "test://static-text" })).contents).toHaveLength(1);
    expect(log.sent.length).toBeGreaterThanOrEqual(5);
    expect(problemsOf("2024-11-05", log)).toEqual([]);
  });

  it("then a 2026-07-28 client: no handshake, the shared tools and its own, input by multi round-trip", async () => {
    const { transport, log } = spawnServer();
    const client = r2607.createClient({
      transport,
      clientInfo: { name: "generated", version: "1.0.0" },
      handlers: { elicit: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    closing.push(() => client.close());
    await client.connect();
    expect(client.server.serverInfo).toMatchObject({ name: "mcp-gen-conformance-server" });
    const names = (await client.listTools({})).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["test_simple_text", "test_input_required_result_elicitation"]));
    expect((await client.callTool({ name: "test_audio_content", arguments: {} })).content[0]).toMatchObject({
      type: "audio",
      mimeType: "audio/wav",
    });
    expect((await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} })).content).toEqual([
      { type: "text", text: "Hello, Ada!" },
    ]);
    expect(log.received.some((m) => (m as { method?: string }).method === "initialize")).toBe(false);
    expect(problemsOf("2026-07-28", log)).toEqual([]);
  });
});

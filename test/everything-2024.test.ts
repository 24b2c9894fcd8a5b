// A real server from the 2024-11-05 era over stdio: server-everything 0.6.2 (official SDK 1.0.1,
// which speaks only 2024-11-05; see test/support/everything-2024.ts). The generated 2024-11-05
// client, with every message checked by the generated validators, runs the whole session with it;
// the host and `mcp-gen tools` negotiate down to 2024-11-05 with it. The same session over the
// HTTP+SSE transport of that revision is in test/legacy-sse.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVISION } from "../generated/2024-11-05/index.js";
import { createHost } from "../host/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { cli, nodeCommandLine, workDir } from "./fixtures/tools/harness.js";
import {
  everything2024Client,
  everything2024File,
  everything2024SessionTests,
  type Everything2024Session,
} from "./support/everything-2024.js";

const server = {
  command: process.execPath,
  args: [everything2024File("index.js")],
  env: { PATH: process.env.PATH ?? "" },
};

describe("the generated 2024-11-05 client against server-everything 0.6.2 over stdio", () => {
  let session: Everything2024Session;

  beforeAll(async () => {
    session = everything2024Client(new StdioClientTransport({ ...server, stderr: "pipe", shutdownGraceMs: 300 }));
    await session.client.connect();
  });

  afterAll(() => session?.client.close());

  it("completes the handshake at 2024-11-05", () => {
    // The client throws ProtocolVersionError when the server answers with another revision.
    expect(REVISION).toBe("2024-11-05");
    expect(session.client.server.serverCapabilities).toMatchObject({ resources: { subscribe: true }, logging: {} });
  });

  everything2024SessionTests(() => session);

  it("saw nothing from the server that its 2024-11-05 validators reject", () => {
    expect(session.errors).toEqual([]);
  });
});

describe("negotiating down to 2024-11-05 with server-everything 0.6.2", () => {
  const work = workDir("everything-2024");
  afterAll(() => work.remove());

  it("the host connects it at 2024-11-05 and routes a call to it", async () => {
    const host = createHost({ servers: { mcpServers: { old: server } }, shutdownGraceMs: 300 });
    try {
      await host.connect();
      expect(host.servers.map((s) => [s.name, s.state, s.revision])).toEqual([["old", "up", "2024-11-05"]]);
      const result = await host.callTool("old__echo", { message: "routed" });
      expect(result.content).toEqual([{ type: "text", text: "Echo: routed" }]);
    } finally {
      await host.close();
    }
  });

  it("mcp-gen tools generates its wrappers at 2024-11-05", async () => {
    const out = join(work.dir, "everything-2024.ts");
    const listing = join(work.dir, "everything-2024.json");
    const commandLine = nodeCommandLine(everything2024File("index.js"));
    const result = await cli(["tools", "--stdio", commandLine, "--out", out, "--save", listing]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/: 5 tools, 2 prompts \(protocol 2024-11-05\)/);
    expect(JSON.parse(readFileSync(listing, "utf8"))).toMatchObject({ protocolVersion: "2024-11-05" });
    expect(readFileSync(out, "utf8")).toContain("longRunningOperation(");
  });
});

// The server list in the desktop hosts' shape: loadHostConfig reads a file and reports every bad
// entry with where it is; createHost rejects a bad list before anything is spawned; a url entry
// is reached over Streamable HTTP, or the old HTTP+SSE transport when the server has only that.
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createServer } from "../generated/2025-06-18/index.js";
import { createHost, HostConfigError, loadHostConfig } from "../host/index.js";
import { serveStreamableHttp } from "../runtime/http/server/server.js";

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "mcp-gen-host-")), name);
  writeFileSync(path, text);
  return path;
}

const problemsOf = async (text: string) =>
  ((await loadHostConfig(file("servers.json", text)).catch((e: unknown) => e)) as HostConfigError).problems;

describe("loadHostConfig", () => {
  it("reads stdio, url and disabled entries, taking a relative cwd from the file's directory", async () => {
    const path = file(
      "servers.json",
      JSON.stringify({
        mcpServers: {
          files: { command: "npx", args: ["-y", "some-server"], env: { TOKEN: "t" }, cwd: "work" },
          remote: { type: "http", url: "https://example.invalid/mcp", headers: { Authorization: "Bearer x" } },
          off: { command: "nothing", disabled: true },
        },
      }),
    );
    const config = await loadHostConfig(path);
    expect(config.mcpServers["files"]).toEqual({
      command: "npx",
      args: ["-y", "some-server"],
      env: { TOKEN: "t" },
      cwd: join(path, "..", "work"),
    });
    expect(config.mcpServers["remote"]).toMatchObject({ url: "https://example.invalid/mcp" });
    expect(config.mcpServers["off"]).toMatchObject({ disabled: true });
  });

  it("says why a file cannot be used", async () => {
    await expect(loadHostConfig(join(tmpdir(), "no-such-dir", "servers.json"))).rejects.toThrow(/cannot read the file/);
    expect(await problemsOf("{ not json")).toEqual([expect.stringMatching(/^not valid JSON/)]);
    expect(await problemsOf("[]")).toEqual(['expected an object with an "mcpServers" object']);
  });

  it("reports every bad entry at once, each with where it is", async () => {
    const problems = await problemsOf(
      JSON.stringify({
        mcpServers: {
          a__b: { command: "x" },
          both: { command: "x", url: "https://example.invalid" },
          none: {},
          args: { command: "x", args: "-v" },
          env: { command: "x", env: { A: 1 } },
          url: { url: "not a url" },
          type: { command: "x", type: "sse" },
          timeout: { command: "x", timeoutMs: -1 },
          scalar: "x",
        },
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^mcpServers\.a__b: server name "a__b" must/),
      "mcpServers.both: has both a command and a url; give one",
      "mcpServers.none: needs a command (stdio) or a url (HTTP)",
      "mcpServers.args: args must be an array of strings",
      "mcpServers.env: env must be an object of strings",
      "mcpServers.url: url must be an absolute URL",
      'mcpServers.type: type "sse" does not go with a command',
      "mcpServers.timeout: timeoutMs must be a positive number",
      "mcpServers.scalar: expected an object with a command or a url",
    ]);
  });
});

describe("createHost and its server list", () => {
  it("throws HostConfigError for a bad list, before starting anything", () => {
    expect(() => createHost({ servers: { mcpServers: { bad_: { command: "x" } } } })).toThrow(HostConfigError);
  });

  it("reaches a url server over Streamable HTTP, at the revision it speaks", async () => {
    const http = await serveStreamableHttp({
      onSession: (session) =>
        createServer({
          serverInfo: { name: "over-http", version: "1.0.0" },
          handlers: { callTool: () => ({ content: [{ type: "text", text: "over http" }] }) },
        }).connect(session),
    });
    const host = createHost({ servers: { mcpServers: { remote: { type: "http", url: http.url } } } });
    await host.connect();
    expect(host.servers[0]).toMatchObject({
      name: "remote",
      state: "up",
      revision: "2025-06-18",
      transport: "streamable-http",
    });
    expect((await host.callTool("remote__anything")).content).toEqual([{ type: "text", text: "over http" }]);
    await host.close();
    await http.close();
  });

  it("tries Streamable HTTP, then the old HTTP+SSE, and says so when a url server speaks neither", async () => {
    const http = createHttpServer((_req, res) => res.writeHead(404).end("no such path"));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const host = createHost({ servers: { mcpServers: { remote: { url } } }, restart: false });
    try {
      await host.connect();
      expect(host.servers[0]).toMatchObject({ name: "remote", state: "down", transport: undefined });
      expect(host.servers[0]?.error?.message).toContain(
        `${url} speaks neither Streamable HTTP (the POST got HTTP 404: no such path) ` +
          "nor the HTTP+SSE transport (HTTP 404: no such path)",
      );
    } finally {
      await host.close();
      http.close();
    }
  });
});

// Negotiation, over in-memory transports (the host's `transport` option): a generated server of
// every revision the host speaks is reached at that revision, and the wire shows how: a discovery
// probe, then one handshake offering the newest handshake revision, answered once; no request id
// used twice. A server at a revision the host does not speak is reported, not guessed; a trial
// that times out cancels its request by the id it travelled with; entry timeouts name the server.
import { describe, expect, it } from "vitest";
import * as r2024_11_05 from "../generated/2024-11-05/index.js";
import * as r2025_03_26 from "../generated/2025-03-26/index.js";
import * as r2025_06_18 from "../generated/2025-06-18/index.js";
import * as r2025_11_25 from "../generated/2025-11-25/index.js";
import * as r2026_07_28 from "../generated/2026-07-28/index.js";
import * as draft from "../generated/draft/index.js";
import { createHost, NegotiationError, ServerTimeoutError, type HostOptions } from "../host/index.js";
import { createInMemoryTransportPair, type JsonRpcMessage, type Transport } from "../runtime/index.js";

type ServerModule = { REVISION: string; createServer: unknown };
type AnyServer = { connect(transport: Transport): Promise<void> };

/** A generated server with one tool; results carry what the revision requires of them. */
function serverOf(module: ServerModule, handlers: object = {}): AnyServer {
  const discovery = module.REVISION >= "2026";
  const fields = discovery ? { resultType: "complete", ttlMs: 0, cacheScope: "private" } : {};
  const create = module.createServer as (options: object) => AnyServer;
  return create({
    serverInfo: { name: `server-${module.REVISION}`, version: "1.0.0" },
    handlers: {
      listTools: () => ({ ...fields, tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      ...handlers,
    },
  });
}

/** A host whose only server runs in this process; `sent` records what the host sent it. */
function hostWith(server: () => AnyServer, options: Partial<HostOptions> = {}, wrap = (t: Transport) => t) {
  const sent: JsonRpcMessage[] = [];
  const host = createHost({
    servers: { mcpServers: { srv: { url: "memory://srv" } } },
    restart: false,
    transport: () => {
      const [hostSide, serverSide] = createInMemoryTransportPair();
      void server().connect(wrap(serverSide));
      const send = hostSide.send.bind(hostSide);
      hostSide.send = async (message, sendOptions) => {
        sent.push(...[message].flat());
        await send(message, sendOptions);
      };
      return hostSide;
    },
    ...options,
  });
  return { host, sent };
}

const methods = (messages: JsonRpcMessage[]) => messages.map((m) => ("method" in m ? m.method : "(response)"));
const ids = (messages: JsonRpcMessage[]) => messages.flatMap((m) => ("method" in m && "id" in m ? [m.id] : []));

describe("negotiation", () => {
  const handshakes = [r2025_11_25, r2025_06_18, r2025_03_26, r2024_11_05];

  for (const module of handshakes) {
    it(`reaches a ${module.REVISION} server with one handshake offering 2025-11-25`, async () => {
      const { host, sent } = hostWith(() => serverOf(module));
      await host.connect();
      expect(host.servers[0]).toMatchObject({ state: "up", revision: module.REVISION });
      expect(host.servers[0]?.serverInfo).toEqual({ name: `server-${module.REVISION}`, version: "1.0.0" });
      expect(host.tools.map((tool) => tool.id)).toEqual(["srv__t"]);
      expect(methods(sent)).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list"]);
      expect(sent[1]).toMatchObject({ params: { protocolVersion: "2025-11-25" } });
      expect(new Set(ids(sent)).size).toBe(ids(sent).length);
      await host.close();
    });
  }

  it("reaches a 2026-07-28 server with discovery alone", async () => {
    const { host, sent } = hostWith(() => serverOf(r2026_07_28));
    await host.connect();
    expect(host.servers[0]).toMatchObject({ state: "up", revision: "2026-07-28" });
    expect(host.tools.map((tool) => tool.id)).toEqual(["srv__t"]);
    expect(methods(sent)).toEqual(["server/discover", "tools/list"]);
    await host.close();
  });

  it("reports a server that answers with a version the host does not know", async () => {
    const initialize = () => ({
      protocolVersion: "1999-01-01",
      capabilities: {},
      serverInfo: { name: "x", version: "1" },
    });
    const { host } = hostWith(() => serverOf(r2024_11_05, { initialize }));
    await host.connect();
    const [status] = host.servers;
    expect(status).toMatchObject({ state: "down", revision: undefined });
    expect(status?.error).toBeInstanceOf(NegotiationError);
    expect(status?.error?.message).toContain('the server speaks "1999-01-01"');
  });

  it("reports a server that speaks only a revision the host does not (draft), with what it said", async () => {
    const { host, sent } = hostWith(() => serverOf(draft));
    await host.connect();
    const error = host.servers[0]?.error as NegotiationError;
    expect(error).toBeInstanceOf(NegotiationError);
    // Discovery named the versions it speaks: a server of that era is not offered a handshake.
    expect(error.attempts).toEqual([expect.stringMatching(/^2026-07-28: .*\["draft"\]/)]);
    expect(methods(sent)).toEqual(["server/discover"]);
  });

  it("moves on from a server that ignores discovery, cancelling the probe by the id it travelled with", async () => {
    const ignoringDiscovery = (transport: Transport): Transport => ({
      start: () => transport.start(),
      send: (message, options) => transport.send(message, options),
      close: () => transport.close(),
      set onclose(listener: Transport["onclose"]) {
        transport.onclose = listener;
      },
      set onmessage(listener: Transport["onmessage"]) {
        transport.onmessage = (message, extra) => {
          if (!("method" in message && message.method === "server/discover")) listener?.(message, extra);
        };
      },
    });
    const { host, sent } = hostWith(() => serverOf(r2025_06_18), { timeoutMs: 100 }, ignoringDiscovery);
    await host.connect();
    expect(host.servers[0]).toMatchObject({ state: "up", revision: "2025-06-18" });
    const probe = sent[0] as { id: unknown };
    expect(probe.id).toMatch(/^mcp-gen-host-trial-/);
    expect(sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: probe.id } });
    await host.close();
  });

  it("times requests out after the entry's timeoutMs, naming the server", async () => {
    const callTool = () => new Promise(() => {});
    const host = createHost({
      servers: { mcpServers: { srv: { url: "memory://srv", timeoutMs: 100 } } },
      transport: () => {
        const [hostSide, serverSide] = createInMemoryTransportPair();
        void serverOf(r2024_11_05, { callTool }).connect(serverSide);
        return hostSide;
      },
    });
    await host.connect();
    const error = await host.callTool("srv__t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerTimeoutError);
    expect(error).toMatchObject({ server: "srv", method: "tools/call", timeoutMs: 100 });
    await host.close();
  });
});

// A host with four servers at four revisions, over stdio: servers built on our generated
// 2024-11-05, 2025-06-18 and 2026-07-28 servers, and the reference everything server (official
// SDK). Each negotiates the newest revision it speaks; their lists are aggregated under
// collision-free ids; calls route to the owning server; sampling asked by a request (2024-11-05)
// and through an InputRequiredResult (2026-07-28) passes the same consent hook and handler.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost, type ConsentRequest, type Host, type HostChange, type HostLogMessage } from "../host/index.js";
import { everythingServer, fixtureServer, waitFor } from "./fixtures/servers/index.js";

const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? part.type).join("\n");

describe("a host with four servers at four revisions", () => {
  let host: Host;
  const consented: ConsentRequest[] = [];
  const sampled: { server: string; revision: string; includeContext: unknown }[] = [];
  const changes: HostChange[] = [];
  const rootsAsked: string[] = [];

  beforeAll(async () => {
    host = createHost({
      servers: {
        mcpServers: {
          old: fixtureServer("2024-11-05"),
          mid: fixtureServer("2025-06-18"),
          new: fixtureServer("2026-07-28"),
          everything: everythingServer(),
        },
      },
      consent: (request) => {
        consented.push(request);
        return { action: "approve" };
      },
      sampling: ({ server, revision, params }) => {
        sampled.push({ server, revision, includeContext: params.includeContext });
        return { role: "assistant", content: { type: "text", text: `completion for ${server}` }, model: "test-model" };
      },
      elicitation: ({ server }) => ({ action: "accept", content: { ok: server !== "" } }),
      roots: (server) => {
        rootsAsked.push(server);
        return [{ uri: `file:///work/${server}`, name: server }];
      },
      shutdownGraceMs: 500,
    });
    host.on("change", (change) => changes.push(change));
    await host.connect();
    // The everything server adds the tools that depend on the client's capabilities after the
    // handshake, and says so with tools/list_changed.
    await waitFor(() => host.tools.some((tool) => tool.id === "everything__trigger-sampling-request"), "late tools");
  });

  afterAll(() => host?.close());

  it("negotiates the newest revision each server speaks", () => {
    expect(host.servers.map(({ name, state, revision }) => ({ name, state, revision }))).toEqual([
      { name: "old", state: "up", revision: "2024-11-05" },
      { name: "mid", state: "up", revision: "2025-06-18" },
      { name: "new", state: "up", revision: "2026-07-28" },
      { name: "everything", state: "up", revision: "2025-11-25" },
    ]);
    expect(host.servers.map((server) => server.serverInfo?.name)).toEqual([
      "fixture-2024-11-05",
      "fixture-2025-06-18",
      "fixture-2026-07-28",
      "mcp-servers/everything",
    ]);
  });

  it("lists the tools of all servers under collision-free ids, exactly", () => {
    const fixture = (server: string, tools: string[]) => tools.map((tool) => `${server}__${tool}`);
    expect(host.tools.map((tool) => tool.id)).toEqual([
      ...fixture("old", ["echo", "sample", "roots", "slow", "grow", "flood", "stats"]),
      ...fixture("mid", ["echo", "confirm", "roots", "slow", "stats"]),
      ...fixture("new", ["echo", "sample", "confirm", "roots", "slow", "grow", "stats"]),
      ...fixture("everything", [
        "echo",
        "get-annotated-message",
        "get-env",
        "get-resource-links",
        "get-resource-reference",
        "get-structured-content",
        "get-sum",
        "get-tiny-image",
        "gzip-file-as-resource",
        "toggle-simulated-logging",
        "toggle-subscriber-updates",
        "trigger-long-running-operation",
        "get-roots-list",
        "trigger-elicitation-request",
        "trigger-sampling-request",
        "simulate-research-query",
      ]),
    ]);
    const echo = host.tools.find((tool) => tool.id === "everything__echo");
    expect(echo).toMatchObject({ name: "echo", server: "everything", revision: "2025-11-25" });
    expect(echo?.inputSchema).toMatchObject({ type: "object" });
  });

  it("routes each call to the server that owns the tool", async () => {
    const answers = await Promise.all(
      ["old__echo", "mid__echo", "new__echo", "everything__echo"].map((id) =>
        host.callTool(id, { text: "hi", message: "hi" }),
      ),
    );
    expect(answers.map(textOf)).toEqual(["2024-11-05: hi", "2025-06-18: hi", "2026-07-28: hi", "Echo: hi"]);
  });

  it("keeps resources and prompts of the same name apart, and routes reads and gets", async () => {
    const resources = host.resources.map((resource) => resource.id);
    expect(resources).toContain("old__file:///shared.txt");
    expect(resources).toContain("mid__file:///shared.txt");
    expect(host.resourceTemplates.map((template) => template.id)).toContain("mid__file:///notes/{name}");
    expect(host.prompts.map((prompt) => prompt.id).slice(0, 2)).toEqual(["old__greet", "new__greet"]);

    const read = async (id: string) => ((await host.readResource(id)).contents[0] as { text: string }).text;
    expect(await read("old__file:///shared.txt")).toBe("read from 2024-11-05");
    expect(await read("mid__file:///shared.txt")).toBe("read from 2025-06-18");
    const prompt = await host.getPrompt("new__greet");
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "greetings from 2026-07-28" });
  });

  it("puts sampling from a 2024-11-05 request and a 2026-07-28 InputRequiredResult to the same hook and handler", async () => {
    consented.length = 0;
    sampled.length = 0;
    expect(textOf(await host.callTool("old__sample"))).toBe("sampled: completion for old");
    expect(textOf(await host.callTool("new__sample"))).toBe("sampled: completion for new");
    expect(consented.map(({ kind, server, revision }) => [kind, server, revision])).toEqual([
      ["toolCall", "old", "2024-11-05"],
      ["sampling", "old", "2024-11-05"],
      ["toolCall", "new", "2026-07-28"],
      ["sampling", "new", "2026-07-28"],
    ]);
    // The old server asked for every server's context: it only ever gets its own.
    expect(sampled).toEqual([
      { server: "old", revision: "2024-11-05", includeContext: "thisServer" },
      { server: "new", revision: "2026-07-28", includeContext: undefined },
    ]);
  });

  it("answers the official SDK server's sampling request the same way", async () => {
    const result = await host.callTool("everything__trigger-sampling-request", { prompt: "hello", maxTokens: 5 });
    expect(textOf(result)).toContain("completion for everything");
    expect(consented.at(-1)).toMatchObject({ kind: "sampling", server: "everything", revision: "2025-11-25" });
  });

  it("gives each server its own roots and attributes elicitation to the server that asks", async () => {
    expect(textOf(await host.callTool("old__roots"))).toBe("file:///work/old");
    expect(textOf(await host.callTool("mid__roots"))).toBe("file:///work/mid");
    expect(textOf(await host.callTool("new__roots"))).toBe("file:///work/new");
    consented.length = 0;
    expect(textOf(await host.callTool("mid__confirm"))).toBe('elicited: accept {"ok":true}');
    expect(textOf(await host.callTool("new__confirm"))).toBe('elicited: accept {"ok":true}');
    expect(consented.filter((r) => r.kind === "elicitation").map((r) => [r.server, r.revision])).toEqual([
      ["mid", "2025-06-18"],
      ["new", "2026-07-28"],
    ]);
  });

  it("tells a server its roots changed, and it asks again", async () => {
    const asked = rootsAsked.filter((server) => server === "everything").length;
    await host.rootsChanged("everything");
    await waitFor(() => rootsAsked.filter((server) => server === "everything").length > asked, "roots asked again");
  });

  it("refreshes the aggregate on list_changed, whether notified (2024-11-05) or on a subscription (2026-07-28)", async () => {
    for (const server of ["old", "new"]) {
      const before = changes.length;
      await host.callTool(`${server}__grow`);
      await waitFor(() => host.tools.some((tool) => tool.id === `${server}__extra`), `${server}__extra`);
      expect(changes.slice(before)).toEqual([
        { server, kind: "tools", added: [`${server}__extra`], removed: [], changed: [] },
      ]);
    }
  });

  it("surfaces a server's log messages as log events attributed to it", async () => {
    const logs: HostLogMessage[] = [];
    const stop = host.on("log", (message) => logs.push(message));
    // The everything server logs once at once when simulated logging is switched on.
    await host.callTool("everything__toggle-simulated-logging");
    await waitFor(() => logs.length > 0, "a log message");
    await host.callTool("everything__toggle-simulated-logging");
    stop();
    expect(logs[0]).toMatchObject({
      server: "everything",
      revision: "2025-11-25",
      data: expect.stringMatching(/message/),
    });
    expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(logs[0]?.level);
  });
});

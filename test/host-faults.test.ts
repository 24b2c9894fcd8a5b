// Faults, with real processes: a server killed mid-call (SIGKILL) fails its pending calls with
// ServerDownError while the others keep answering, and comes back; a flood of notifications
// from one server costs a bounded number of listings and does not hold up the others; timeouts
// name the server; a server that keeps crashing is given up after a bounded number of restarts;
// close() leaves no child process, escalating to SIGKILL for one that ignores the rest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost, ServerDownError, ServerTimeoutError, type Host, type ServerStatus } from "../host/index.js";
import { alive, everythingServer, fixtureServer, waitFor } from "./fixtures/servers/index.js";

const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? part.type).join("\n");

describe("a host whose servers fail", () => {
  let host: Host;
  const pids = new Set<number>();
  const states: Pick<ServerStatus, "name" | "state">[] = [];

  beforeAll(async () => {
    host = createHost({
      servers: {
        mcpServers: {
          old: fixtureServer("2024-11-05"),
          mid: fixtureServer("2025-06-18"),
          new: fixtureServer("2026-07-28"),
          everything: everythingServer(),
          crashing: { command: process.execPath, args: ["-e", "process.exit(3)"] },
          stubborn: { ...fixtureServer("2024-11-05"), env: { FIXTURE_STUBBORN: "1" } },
        },
      },
      restart: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 3 },
      shutdownGraceMs: 500,
    });
    host.on("server", ({ name, state, pid }) => {
      states.push({ name, state });
      if (pid !== undefined) pids.add(pid);
    });
    await host.connect();
  });

  afterAll(() => host?.close());

  const everyoneElseAnswers = () =>
    Promise.all(
      ["old__echo", "new__echo", "everything__echo"].map(async (id) =>
        textOf(await host.callTool(id, { text: "still here", message: "still here" })),
      ),
    );

  it("fails the calls pending on a killed server with ServerDownError naming it, and restarts it", async () => {
    const killed = host.servers.find((server) => server.name === "mid")?.pid as number;
    let progressed = false;
    const pending = host
      .callTool("mid__slow", {}, { onProgress: () => (progressed = true) })
      .catch((error: unknown) => error);
    await waitFor(() => progressed, "the slow call to start");
    process.kill(killed, "SIGKILL");

    const error = await pending;
    expect(error).toBeInstanceOf(ServerDownError);
    expect(error).toMatchObject({ server: "mid", code: -32000 });
    expect(await everyoneElseAnswers()).toEqual([
      "2024-11-05: still here",
      "2026-07-28: still here",
      "Echo: still here",
    ]);

    await waitFor(() => host.servers.find((s) => s.name === "mid")?.state === "up", "mid to come back");
    const mid = host.servers.find((server) => server.name === "mid");
    expect(mid).toMatchObject({ revision: "2025-06-18", restarts: 1 });
    expect(mid?.pid).not.toBe(killed);
    expect(alive(killed)).toBe(false);
    expect(states.filter((s) => s.name === "mid").map((s) => s.state)).toEqual([
      "starting",
      "up",
      "down",
      "starting",
      "up",
    ]);
    expect(textOf(await host.callTool("mid__echo", { text: "back" }))).toBe("2025-06-18: back");
    expect(host.tools.some((tool) => tool.id === "mid__echo")).toBe(true);
  });

  it("keeps answering while one server floods notifications, and lists that server a bounded number of times", async () => {
    const flooding = host.callTool("old__flood", { count: 5000 });
    expect(
      await Promise.all([host.callTool("new__echo", { text: "x" }), host.callTool("mid__echo", { text: "y" })]).then(
        (r) => r.map(textOf),
      ),
    ).toEqual(["2026-07-28: x", "2025-06-18: y"]);
    expect(textOf(await flooding)).toBe("flooded");
    const { toolsList } = JSON.parse(textOf(await host.callTool("old__stats"))) as { toolsList: number };
    // One listing at start, then at most one running and one queued for the whole flood.
    expect(toolsList).toBeLessThanOrEqual(3);
  });

  it("times a request out with an error naming the server, and cancels it there", async () => {
    const error = await host.callTool("new__slow", {}, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerTimeoutError);
    expect(error).toMatchObject({ server: "new", method: "tools/call", code: -32001 });
    expect(textOf(await host.callTool("new__echo", { text: "after" }))).toBe("2026-07-28: after");
  });

  it("gives up on a server that keeps failing after a bounded number of restarts, and reports why", async () => {
    await waitFor(() => host.servers.find((s) => s.name === "crashing")?.state === "failed", "crashing to fail");
    const crashing = host.servers.find((server) => server.name === "crashing");
    expect(crashing).toMatchObject({ restarts: 3 });
    expect(crashing?.error?.message).toMatch(/closed/);
    const error = await host.callTool("crashing__anything").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerDownError);
    expect(error).toMatchObject({ server: "crashing" });
  });

  it("leaves no child process after close(), even one deaf to stdin closing and SIGTERM", async () => {
    const stubborn = host.servers.find((server) => server.name === "stubborn");
    expect(stubborn).toMatchObject({ state: "up", revision: "2024-11-05" });
    expect(alive(stubborn?.pid as number)).toBe(true);
    expect(pids.size).toBeGreaterThanOrEqual(10);
    await host.close();
    expect(new Set(host.servers.map((server) => server.state))).toEqual(new Set(["closed"]));
    expect([...pids].filter(alive)).toEqual([]);
  });
});

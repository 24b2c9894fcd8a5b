// Consent: a denied sampling request reaches the server as the protocol's "user rejected" error
// (-1), a denied elicitation as `decline`, and a denied tool call never leaves the host; nothing
// denied reaches the sampling or elicitation handler. Without a hook, sampling and elicitation
// are denied and tool calls go ahead.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConsentDeniedError, createHost, type ConsentHook, type Host } from "../host/index.js";
import { everythingServer, fixtureServer, waitFor } from "./fixtures/servers/index.js";

const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? part.type).join("\n");

/** The calls each fixture server saw, from its `stats` tool. */
async function callsSeen(host: Host, server: string): Promise<Record<string, number>> {
  return (JSON.parse(textOf(await host.callTool(`${server}__stats`))) as { calls: Record<string, number> }).calls;
}

describe("consent: denials", () => {
  let host: Host;
  const handled: string[] = [];

  /** Denies all sampling; edits one elicitation and denies the others; denies and edits tool calls. */
  const consent: ConsentHook = (request) => {
    if (request.kind === "sampling") return { action: "deny", reason: "not today" };
    if (request.kind === "elicitation")
      return request.server === "new"
        ? { action: "edit", params: { ...request.params, message: "Edited by the user" } }
        : { action: "deny" };
    if (request.params.name === "echo" && request.server === "old") return { action: "deny", reason: "no echo" };
    if (request.params.name === "echo")
      return { action: "edit", params: { name: "echo", arguments: { text: "edited" } } };
    return { action: "approve" };
  };

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
      consent,
      sampling: ({ server }) => {
        handled.push(`sampling ${server}`);
        return { role: "assistant", content: { type: "text", text: "should not happen" }, model: "m" };
      },
      elicitation: ({ server, params }) => {
        handled.push(`elicitation ${server}: ${params.message}`);
        return { action: "accept", content: { ok: true } };
      },
      shutdownGraceMs: 500,
    });
    await host.connect();
    await waitFor(() => host.tools.some((tool) => tool.id === "everything__trigger-sampling-request"), "late tools");
  });

  afterAll(() => host?.close());

  it("answers a denied sampling request with the user-rejected error, at our server and at the SDK's", async () => {
    expect(textOf(await host.callTool("old__sample"))).toBe(
      "sampling failed: -1 User rejected sampling request: not today",
    );
    const everything = await host.callTool("everything__trigger-sampling-request", { prompt: "hi" });
    expect(everything.isError).toBe(true);
    expect(textOf(everything)).toMatch(/-1.*User rejected sampling request: not today/);
  });

  it("ends a 2026-07-28 call whose sampling input is denied at the host (an input response cannot be an error)", async () => {
    const denied = await host.callTool("new__sample").catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(ConsentDeniedError);
    expect(denied).toMatchObject({ code: -1, server: "new", kind: "sampling" });
  });

  it("declines a denied elicitation, and hands an edited one to the handler as edited", async () => {
    expect(textOf(await host.callTool("mid__confirm"))).toBe("elicited: decline {}");
    expect(textOf(await host.callTool("everything__trigger-elicitation-request"))).toContain("declined");
    expect(textOf(await host.callTool("new__confirm"))).toBe('elicited: accept {"ok":true}');
  });

  it("never sends a denied tool call, and sends an edited one as edited", async () => {
    const denied = await host.callTool("old__echo", { text: "hi" }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(ConsentDeniedError);
    expect(denied).toMatchObject({ server: "old", kind: "toolCall", message: "tool call denied: no echo" });
    expect(await callsSeen(host, "old")).not.toHaveProperty("echo");
    expect(textOf(await host.callTool("mid__echo", { text: "original" }))).toBe("2025-06-18: edited");
  });

  it("lets nothing denied reach the handlers", () => {
    expect(handled).toEqual(["elicitation new: Edited by the user"]);
  });
});

describe("consent: no hook", () => {
  let host: Host;
  const handled: string[] = [];

  beforeAll(async () => {
    host = createHost({
      servers: { mcpServers: { old: fixtureServer("2024-11-05"), mid: fixtureServer("2025-06-18") } },
      sampling: ({ server }) => {
        handled.push(`sampling ${server}`);
        return { role: "assistant", content: { type: "text", text: "no" }, model: "m" };
      },
      elicitation: ({ server }) => {
        handled.push(`elicitation ${server}`);
        return { action: "accept" };
      },
      shutdownGraceMs: 500,
    });
    await host.connect();
  });

  afterAll(() => host?.close());

  it("denies sampling and elicitation, and lets tool calls through", async () => {
    expect(textOf(await host.callTool("old__sample"))).toBe(
      "sampling failed: -1 User rejected sampling request: no consent hook is configured",
    );
    expect(textOf(await host.callTool("mid__confirm"))).toBe("elicited: decline {}");
    expect(textOf(await host.callTool("old__echo", { text: "hi" }))).toBe("2024-11-05: hi");
    expect(handled).toEqual([]);
  });
});

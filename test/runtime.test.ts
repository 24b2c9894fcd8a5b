// The runtime on its own: the Transport contract against the official SDK's (both ways, at
// compile time), the Peer's timeouts, cancellation, progress and errors, and the stdio transport
// against a real child process, and the capability helpers generated clients and servers call.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  ConnectionClosedError,
  createInMemoryTransportPair,
  declareCapabilities,
  declaresAll,
  ErrorCode,
  type HandlerCapabilities,
  Peer,
  RpcError,
  type JsonObject,
  type JsonRpcMessage,
  type PeerOptions,
} from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-runtime-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the Transport contract", () => {
  it("is structurally the SDK's: SDK transports plug into ours and ours into the SDK", () => {
    // Inside the repository, so the fixture resolves @modelcontextprotocol/sdk from node_modules.
    const dir = join(resolve("node_modules"), ".cache", "mcp-gen-tests");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "transport-compat.ts");
    writeFileSync(
      file,
      [
        'import { StdioClientTransport as SdkStdio } from "@modelcontextprotocol/sdk/client/stdio.js";',
        'import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";',
        'import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";',
        'import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";',
        `import { createInMemoryTransportPair, type Transport } from ${JSON.stringify(resolve("runtime/index.js"))};`,
        `import { StdioClientTransport } from ${JSON.stringify(resolve("runtime/stdio.js"))};`,
        'export const a: Transport = new SdkStdio({ command: "x" });',
        'export const b: Transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"));',
        "export const c: Transport = InMemoryTransport.createLinkedPair()[0];",
        "export const d: SdkTransport = createInMemoryTransportPair()[0];",
        'export const e: SdkTransport = new StdioClientTransport({ command: "x" });',
      ].join("\n"),
    );
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))).toEqual([]);
  });
});

/** A peer on one end of an in-memory pair; the test drives the other end by hand. */
async function peerWithProbe(options: Partial<PeerOptions> = {}) {
  const [mine, theirs] = createInMemoryTransportPair();
  const received: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  theirs.onmessage = (m) => received.push(m);
  await theirs.start();
  const peer = new Peer({
    transport: mine,
    handleRequest: async () => ({}),
    handleNotification: () => {},
    cancellation: { method: "notifications/cancelled", send: true },
    progress: { method: "notifications/progress", send: true },
    onError: (e) => errors.push(e),
    ...options,
  });
  await peer.start();
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return { peer, probe: theirs, received, errors, settle };
}

describe("Peer", () => {
  it("times a request out with -32001 and cancels it on the other side", async () => {
    const { peer, received, settle } = await peerWithProbe();
    await expect(peer.request("slow/thing", {}, { timeoutMs: 10 })).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
      message: "slow/thing timed out after 10 ms",
    });
    await settle();
    expect(received.at(-1)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "timed out after 10 ms" },
    });
  });

  it("cancels with an AbortSignal: the reason travels, an already-aborted signal sends nothing", async () => {
    const { peer, received, settle } = await peerWithProbe();
    const controller = new AbortController();
    const call = peer.request("a", {}, { signal: controller.signal });
    controller.abort(new Error("user left"));
    await expect(call).rejects.toThrow("user left");
    await settle();
    expect(received.map((m) => ("method" in m ? m.method : "response"))).toEqual(["a", "notifications/cancelled"]);
    await expect(peer.request("b", {}, { signal: AbortSignal.abort("gone") })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(received).toHaveLength(2);
  });

  it("routes progress to onProgress by token and can restart the timeout on progress", async () => {
    const { peer, probe, received } = await peerWithProbe();
    // Fake timers make the timeout deterministic; messages still flow through microtasks.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const seen: unknown[] = [];
      const call = peer.request(
        "work",
        { x: 1 },
        { timeoutMs: 100, resetTimeoutOnProgress: true, onProgress: (p) => seen.push(p.progress) },
      );
      await vi.advanceTimersByTimeAsync(0);
      const sent = received[0] as { id: number; params: JsonObject };
      expect(sent.params).toEqual({ x: 1, _meta: { progressToken: sent.id } });
      // Three progress notifications 80 ms apart: 240 ms in all, past the 100 ms timeout only without restarts.
      for (let step = 1; step <= 3; step++) {
        await vi.advanceTimersByTimeAsync(80);
        await probe.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: sent.id, progress: step },
        });
        await vi.advanceTimersByTimeAsync(0);
      }
      await probe.send({ jsonrpc: "2.0", id: sent.id, result: { done: true } });
      await expect(call).resolves.toEqual({ done: true });
      expect(seen).toEqual([1, 2, 3]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects everything pending when the connection closes", async () => {
    const { peer, probe } = await peerWithProbe();
    const call = peer.request("a", {});
    await probe.close();
    await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(peer.request("b", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("answers with the handler's RpcError as is, and any other failure as -32603 naming the request, without its message or stack, and reports it", async () => {
    const secret = new Error("secret path /home/x");
    const { probe, received, errors, settle } = await peerWithProbe({
      handleRequest: async (method) => {
        if (method === "rpc") throw new RpcError(-32042, "needs a URL", { url: "https://example.com" });
        throw secret;
      },
    });
    await probe.send({ jsonrpc: "2.0", id: 1, method: "rpc" });
    await probe.send({ jsonrpc: "2.0", id: 2, method: "boom" });
    await probe.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } });
    await settle();
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32042, message: "needs a URL", data: { url: "https://example.com" } } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "boom failed: Internal error" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32603, message: 'tools/call "echo" failed: Internal error' } },
    ]);
    // This side hears what was thrown; the RpcError was the caller's to read, not a fault.
    expect(errors.map((e) => [e.name, e.message, e.cause])).toEqual([
      ["HandlerError", "boom failed: secret path /home/x", secret],
      ["HandlerError", 'tools/call "echo" failed: secret path /home/x', secret],
    ]);
  });

  it("sends no answer that fails inspectAnswer: the caller gets -32603 naming the request and the paths, relative to the result", async () => {
    const asked: unknown[] = [];
    const { probe, received, errors, settle } = await peerWithProbe({
      handleRequest: async (method) =>
        method === "void" ? undefined : method === "good" ? { content: [] } : { content: "x" },
      // Checks that `content` is an array, where the answered request is known.
      inspectAnswer: (message, requestOf) => {
        const { id, result } = message as { id: number; result: JsonObject };
        asked.push(requestOf(id));
        const content = result["content"];
        if (Array.isArray(content)) return { ok: true };
        const issue = { path: "/result/content", expected: "array", message: `expected array, got ${typeof content}` };
        return { ok: false, code: ErrorCode.InvalidParams, issues: [issue] };
      },
    });
    await probe.send({ jsonrpc: "2.0", id: 1, method: "good" });
    await probe.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo" } });
    await probe.send({ jsonrpc: "2.0", id: 3, method: "void" });
    await settle();
    const issue = (got: string) => ({ path: "/content", expected: "array", message: `expected array, got ${got}` });
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [] } },
      {
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: -32603,
          message: 'tools/call "echo" returned an invalid result: /content: expected array, got string',
          data: { issues: [issue("string")] },
        },
      },
      {
        jsonrpc: "2.0",
        id: 3,
        error: {
          code: -32603,
          message: "void returned undefined: /content: expected array, got undefined",
          data: { issues: [issue("undefined")] },
        },
      },
    ]);
    expect(asked).toEqual([
      { method: "good", params: undefined },
      { method: "tools/call", params: { name: "echo" } },
      { method: "void", params: undefined },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'tools/call "echo" returned an invalid result: /content: expected array, got string',
      "void returned undefined: /content: expected array, got undefined",
    ]);
  });

  it("aborts a handler cancelled by the other side, and sends it no answer", async () => {
    let aborted: unknown;
    const { probe, received, settle } = await peerWithProbe({
      handleRequest: async (_method, _params, context) => {
        await new Promise((r) => context.signal.addEventListener("abort", r));
        aborted = context.signal.reason;
        return { late: true };
      },
    });
    await probe.send({ jsonrpc: "2.0", id: "x", method: "wait" });
    await probe.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "x", reason: "no longer needed" },
    });
    await settle();
    expect(aborted).toBe("no longer needed");
    expect(received).toEqual([]);
  });

  it("refuses a request id that is already in flight", async () => {
    const { probe, received, settle } = await peerWithProbe({ handleRequest: () => new Promise(() => {}) });
    await probe.send({ jsonrpc: "2.0", id: 7, method: "a" });
    await probe.send({ jsonrpc: "2.0", id: 7, method: "b" });
    await settle();
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: "request id 7 is already in use" } },
    ]);
  });
});

describe("declareCapabilities", () => {
  const table = (): HandlerCapabilities => ({
    read: [["resources"], {}],
    subscribe: [["resources", "subscribe"], true],
    list: [["tasks", "list"], {}],
  });
  const handler = () => ({});

  it("merges a server's handler capabilities under the user's, objects deeply", () => {
    const base = { resources: { listChanged: true }, tasks: true };
    const declared = declareCapabilities(base, { read: handler, list: handler }, table(), "merge");
    expect(declared).toEqual({ resources: { listChanged: true }, tasks: true });
    expect(Object.keys(declared)).toEqual(["resources", "tasks"]);
    expect(declared.resources).not.toBe(base.resources);
  });

  it("fills a client's handler capabilities only where the user gave none", () => {
    const base = { resources: { subscribe: false }, tasks: true };
    const declared = declareCapabilities(base, { read: handler, subscribe: handler, list: handler }, table(), "fill");
    expect(declared).toEqual({ resources: { subscribe: false }, tasks: { list: {} } });
  });

  it("leaves the table as it was: one instance's capabilities never reach the next", () => {
    const shared = table();
    declareCapabilities({}, { read: handler, subscribe: handler }, shared, "merge");
    expect(declareCapabilities({}, { read: handler }, shared, "merge")).toEqual({ resources: {} });
    expect(shared).toEqual(table());
  });

  it("declaresAll compares each leaf, not mere presence", () => {
    expect(declaresAll({ tools: { listChanged: true } }, { tools: { listChanged: true } })).toBe(true);
    expect(declaresAll({ tools: { listChanged: "yes" } }, { tools: { listChanged: true } })).toBe(false);
    expect(declaresAll({ tools: true }, { tools: { listChanged: true } })).toBe(false);
  });
});

describe("StdioClientTransport", () => {
  /** A child that answers every request with its method, and ignores stdin closing if asked to. */
  function script(stubborn: boolean): string {
    const file = join(work, `child-${stubborn}.mjs`);
    writeFileSync(
      file,
      [
        'import { createInterface } from "node:readline";',
        stubborn ? 'process.on("SIGTERM", () => {});' : "",
        "createInterface({ input: process.stdin }).on('line', (line) => {",
        "  const m = JSON.parse(line);",
        "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echo: m.method } }) + '\\n');",
        "});",
        stubborn ? "setInterval(() => {}, 1000);" : "",
      ].join("\n"),
    );
    return file;
  }

  it("spawns a server, speaks newline-delimited JSON and ends the process on close", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [script(false)], stderr: "pipe" });
    const peer = new Peer({ transport, handleRequest: async () => ({}), handleNotification: () => {} });
    await peer.start();
    expect(await peer.request("hello", undefined)).toEqual({ echo: "hello" });
    const pid = transport.pid as number;
    await peer.close();
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("escalates to SIGKILL for a server that ignores stdin closing and SIGTERM", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [script(true)],
      shutdownGraceMs: 100,
    });
    await transport.start();
    const pid = transport.pid as number;
    await transport.close();
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("reports a command that cannot start", async () => {
    const transport = new StdioClientTransport({ command: join(work, "no-such-command") });
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
  });
});

// Records a real MCP session with the reference server `@modelcontextprotocol/server-everything`
// (a devDependency), spoken to over stdio by the official SDK's `Client` and `StdioClientTransport`.
// No network: the server is a child process of this one, and the only URL it is asked to fetch is a
// `data:` URI.
//
// The transport is wrapped so every JSON-RPC message is recorded in the order it crossed the wire,
// with its sender:
//   - client → server: the message the SDK hands to `send()`, as JSON (`JSON.parse(JSON.stringify(m))`,
//     exactly what the stdio transport writes);
//   - server → client: the message the stdio transport hands to the client, i.e. the server's line
//     after `JSON.parse` and the SDK's JSON-RPC envelope check. That check keeps `params` and `result`
//     as they are; a line it rejects never reaches `onmessage` and is kept in `transportErrors` instead,
//     so a caller can insist there are none.
//
// Used by test/real-traffic.test.ts and bench/validators.ts (the "recorded real traffic" corpus).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { alive } from "../fixtures/servers/index.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";

export type Sender = "client" | "server";

/** One JSON-RPC message as it crossed the wire. `seq` is its position in the whole session. */
export interface RecordedMessage {
  readonly seq: number;
  readonly from: Sender;
  readonly message: Record<string, unknown>;
}

/** One scripted client action and how it ended (tool calls may fail on purpose). */
export interface SessionStep {
  readonly name: string;
  readonly outcome: "ok" | "error";
  readonly detail?: string;
}

export interface EverythingSession {
  /** `InitializeResult.protocolVersion` as the server sent it. */
  readonly protocolVersion: string;
  readonly serverInfo: { readonly name: string; readonly version: string } | undefined;
  readonly messages: readonly RecordedMessage[];
  readonly steps: readonly SessionStep[];
  /** Errors the transport reported (unparseable lines, broken pipes): none in a healthy session. */
  readonly transportErrors: readonly string[];
  /** The server's stderr (it logs there; not part of the protocol). */
  readonly stderr: string;
  /** The child's pid, and whether it had exited when the session was over. */
  readonly pid: number | undefined;
  readonly childExited: boolean;
}

export interface SessionOptions {
  /** Upper bound for each request and for waiting on server-initiated traffic (ms). Default 10 000. */
  readonly timeoutMs?: number;
}

/** The server's executable (its package `bin`), resolved from this repository's node_modules. */
export function everythingServerEntry(): string {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const pkg = require(pkgJson) as { bin: Record<string, string> };
  const bin = Object.values(pkg.bin)[0];
  if (!bin) throw new Error("@modelcontextprotocol/server-everything has no bin");
  return join(dirname(pkgJson), bin);
}

/** A transport that records every message passing through another one. */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly messages: RecordedMessage[] = [];
  readonly errors: string[] = [];

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      this.record("server", message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => {
      this.errors.push(error.message);
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.record("client", message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private record(from: Sender, message: JSONRPCMessage): void {
    // As JSON: what the stdio transport writes (no `undefined` members), and a copy the SDK cannot mutate.
    const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
    this.messages.push({ seq: this.messages.length, from, message: copy });
  }
}

/** Resolves when `predicate` holds for a recorded message, or after `ms` (never rejects). */
function waitFor(recorder: RecordingTransport, predicate: (m: RecordedMessage) => boolean, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = () => {
      if (recorder.messages.some(predicate) || Date.now() - started > ms) resolve();
      else setTimeout(poll, 10);
    };
    poll();
  });
}

const isMethod = (from: Sender, method: string) => (m: RecordedMessage) =>
  m.from === from && m.message.method === method;

/**
 * Starts the everything server over stdio, drives a session that touches every feature the server
 * has (listing, tools with every content type, progress, cancellation, sampling, form and URL
 * elicitation, roots, prompts, completion, resources, subscriptions, logging, tasks, errors) and
 * closes it. Failing client actions are recorded as steps, not thrown; the child is always ended.
 */
export async function recordEverythingSession(options: SessionOptions = {}): Promise<EverythingSession> {
  const timeout = options.timeoutMs ?? 10_000;
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [everythingServerEntry(), "stdio"],
    // The default safe set (PATH, HOME, …); the gzip tool may only fetch from a domain that does not exist.
    env: { ...getDefaultEnvironment(), GZIP_ALLOWED_DOMAINS: "example.invalid" },
    stderr: "pipe",
  });
  let stderr = "";
  stdio.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const recorder = new RecordingTransport(stdio);

  const client = new Client(
    { name: "mcp-gen-recorder", version: "0.1.0" },
    {
      capabilities: {
        roots: { listChanged: true },
        sampling: {},
        elicitation: { form: {}, url: {} },
      },
    },
  );
  let rootsAsked = 0;
  client.setRequestHandler(ListRootsRequestSchema, () => {
    rootsAsked++;
    return {
      roots: [
        { uri: "file:///workspace/project", name: "Project" },
        { uri: `file:///workspace/scratch-${rootsAsked}` },
      ],
    };
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
    model: "recorded-test-model",
    role: "assistant",
    content: { type: "text", text: `A canned answer to ${request.params.messages.length} message(s).` },
    stopReason: "endTurn",
  }));
  client.setRequestHandler(ElicitRequestSchema, (request) =>
    request.params.mode === "url"
      ? { action: "accept" }
      : {
          action: "accept",
          content: {
            name: "Ada Lovelace",
            check: true,
            email: "ada@example.com",
            integer: 7,
            // Integral on purpose: the spec's ElicitResult.content admits `string | number | boolean |
            // string[]` in schema.ts, but its schema.json (and so every validator built from it) reads
            // `number` as "integer", so 2.5 would be rejected even though the form field is a JSON Schema
            // `number` with default 3.14.
            number: 3,
            untitledSingleSelectEnum: "Rachel",
            untitledMultipleSelectEnum: ["Piano", "Drums"],
            titledSingleSelectEnum: "hero-3",
          },
        },
  );

  const steps: SessionStep[] = [];
  const requestOptions = { timeout };
  const step = async (name: string, action: () => Promise<unknown>): Promise<void> => {
    try {
      await action();
      steps.push({ name, outcome: "ok" });
    } catch (error) {
      steps.push({ name, outcome: "error", detail: error instanceof Error ? error.message : String(error) });
    }
  };
  const call = (name: string, args: Record<string, unknown> = {}) =>
    step(`tools/call ${name}`, () => client.callTool({ name, arguments: args }, undefined, requestOptions));

  let pid: number | undefined;
  try {
    await client.connect(recorder, requestOptions);
    pid = stdio.pid ?? undefined;

    // The server asks for roots 350 ms after notifications/initialized, then logs what it got.
    await waitFor(recorder, isMethod("server", "roots/list"), timeout);
    await step("logging/setLevel", () => client.setLoggingLevel("debug", requestOptions));
    await step("ping", () => client.ping(requestOptions));

    // Listing, every page. Tools that depend on client capabilities are registered after
    // initialization, which the server announces with notifications/tools/list_changed.
    await waitFor(recorder, isMethod("server", "notifications/tools/list_changed"), 2000);
    const listAll = async <T>(fetch: (cursor?: string) => Promise<{ nextCursor?: string; items: T[] }>) => {
      const all: T[] = [];
      let cursor: string | undefined;
      do {
        const page = await fetch(cursor);
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return all;
    };
    const opts = (cursor?: string) => (cursor === undefined ? undefined : { cursor });
    let resourceUris: string[] = [];
    await step("tools/list", () =>
      listAll(async (c) => {
        const r = await client.listTools(opts(c), requestOptions);
        return { ...r, items: r.tools };
      }),
    );
    await step("prompts/list", () =>
      listAll(async (c) => {
        const r = await client.listPrompts(opts(c), requestOptions);
        return { ...r, items: r.prompts };
      }),
    );
    await step("resources/list", async () => {
      const resources = await listAll(async (c) => {
        const r = await client.listResources(opts(c), requestOptions);
        return { ...r, items: r.resources };
      });
      resourceUris = resources.map((r) => r.uri);
    });
    await step("resources/templates/list", () =>
      listAll(async (c) => {
        const r = await client.listResourceTemplates(opts(c), requestOptions);
        return { ...r, items: r.resourceTemplates };
      }),
    );

    // Tools: text, sums, images, annotations, embedded resources, resource links, structured content.
    await call("echo", { message: "hello from the recorder" });
    await call("get-sum", { a: 2, b: 40 });
    await call("get-sum", { a: 0.25, b: -1.5 });
    await call("get-tiny-image");
    await call("get-annotated-message", { messageType: "error", includeImage: true });
    await call("get-annotated-message", { messageType: "debug" });
    await call("get-resource-links", { count: 4 });
    await call("get-resource-reference", { resourceType: "Text", resourceId: 1 });
    await call("get-resource-reference", { resourceType: "Blob", resourceId: 2 });
    await call("get-structured-content", { location: "Chicago" });
    await call("gzip-file-as-resource", {
      name: "greeting.txt.gz",
      data: `data:text/plain;base64,${Buffer.from("hello, gzip\n".repeat(8)).toString("base64")}`,
      outputType: "resourceLink",
    });
    await call("gzip-file-as-resource", {
      name: "inline.txt.gz",
      data: "data:text/plain,inline",
      outputType: "resource",
    });
    // Tool errors: arguments that fail the tool's input schema, and a tool that does not exist.
    await call("echo", { text: 42 });
    await call("no-such-tool");

    // Progress: the SDK sends a progress token when onprogress is given.
    await step("tools/call trigger-long-running-operation (progress)", () =>
      client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, {
        ...requestOptions,
        onprogress: () => undefined,
      }),
    );
    // Cancellation: the SDK sends notifications/cancelled when the signal aborts.
    await step("tools/call trigger-long-running-operation (cancelled)", async () => {
      const abort = new AbortController();
      const pending = client.callTool(
        { name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 2 } },
        undefined,
        { ...requestOptions, signal: abort.signal, onprogress: () => undefined },
      );
      setTimeout(() => abort.abort("the recorder cancels on purpose"), 50);
      await pending.then(
        () => undefined,
        () => undefined,
      );
    });

    // Server → client requests: sampling, form and URL elicitation (and the URL-elicitation error), roots.
    await call("trigger-sampling-request", { prompt: "Say something short.", maxTokens: 20 });
    await call("trigger-elicitation-request");
    await call("trigger-url-elicitation", {
      url: "https://example.com/authorize?session=recorded",
      elicitationId: "recorded-url-elicitation",
    });
    await call("trigger-url-elicitation", { url: "https://example.com/consent", errorPath: true });
    await call("get-roots-list");
    await step("notifications/roots/list_changed", async () => {
      const before = recorder.messages.filter(isMethod("server", "roots/list")).length;
      await client.sendRootsListChanged();
      // The server answers by asking for the roots again.
      await waitFor(
        recorder,
        () => recorder.messages.filter(isMethod("server", "roots/list")).length > before,
        timeout,
      );
    });

    // Prompts, with and without arguments, embedded resources, and an unknown prompt.
    await step("prompts/get simple-prompt", () => client.getPrompt({ name: "simple-prompt" }, requestOptions));
    await step("prompts/get args-prompt", () =>
      client.getPrompt({ name: "args-prompt", arguments: { city: "Lyon", state: "Rhône" } }, requestOptions),
    );
    await step("prompts/get completable-prompt", () =>
      client.getPrompt(
        { name: "completable-prompt", arguments: { department: "Engineering", name: "Alice" } },
        requestOptions,
      ),
    );
    await step("prompts/get resource-prompt", () =>
      client.getPrompt(
        { name: "resource-prompt", arguments: { resourceType: "Blob", resourceId: "3" } },
        requestOptions,
      ),
    );
    await step("prompts/get (unknown)", () => client.getPrompt({ name: "no-such-prompt" }, requestOptions));

    // Completion for prompt arguments (with context) and resource template variables.
    await step("completion/complete prompt", () =>
      client.complete(
        { ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "E" } },
        requestOptions,
      ),
    );
    await step("completion/complete prompt with context", () =>
      client.complete(
        {
          ref: { type: "ref/prompt", name: "completable-prompt" },
          argument: { name: "name", value: "" },
          context: { arguments: { department: "Engineering" } },
        },
        requestOptions,
      ),
    );
    await step("completion/complete resource template", () =>
      client.complete(
        {
          ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
          argument: { name: "resourceId", value: "12" },
        },
        requestOptions,
      ),
    );

    // Resources: a static document, dynamic text and blob, the gzip session resource, an unknown one.
    for (const uri of [
      resourceUris.find((u) => u.includes("/static/")) ?? resourceUris[0],
      "demo://resource/dynamic/text/1",
      "demo://resource/dynamic/blob/2",
      "demo://resource/session/greeting.txt.gz",
      "demo://resource/no-such-resource",
    ]) {
      if (uri !== undefined) await step(`resources/read ${uri}`, () => client.readResource({ uri }, requestOptions));
    }

    // Subscriptions: subscribing logs a message; the toggle sends notifications/resources/updated at once.
    const watched = "demo://resource/dynamic/text/1";
    await step("resources/subscribe", () => client.subscribeResource({ uri: watched }, requestOptions));
    await call("toggle-subscriber-updates");
    await waitFor(recorder, isMethod("server", "notifications/resources/updated"), 2000);
    await call("toggle-subscriber-updates");
    await step("resources/unsubscribe", () => client.unsubscribeResource({ uri: watched }, requestOptions));

    // Simulated logging sends one message at once (then every 5 s, so it is switched off again).
    const logsBefore = recorder.messages.filter(isMethod("server", "notifications/message")).length;
    await call("toggle-simulated-logging");
    await waitFor(
      recorder,
      () => recorder.messages.filter(isMethod("server", "notifications/message")).length > logsBefore,
      2000,
    );
    await call("toggle-simulated-logging");

    // Tasks (2025-11-25): a task-augmented tools/call answers with CreateTaskResult, then the task
    // is polled, listed and cancelled.
    let taskId: string | undefined;
    await step("tools/call simulate-research-query (task)", async () => {
      const created = await client.request(
        {
          method: "tools/call",
          params: { name: "simulate-research-query", arguments: { topic: "stdio framing" }, task: { ttl: 60_000 } },
        },
        CreateTaskResultSchema,
        requestOptions,
      );
      taskId = created.task.taskId;
    });
    if (taskId !== undefined) {
      const id = taskId;
      await step("tasks/get", () => client.experimental.tasks.getTask(id, requestOptions));
      await step("tasks/list", () => client.experimental.tasks.listTasks(undefined, requestOptions));
      await step("tasks/cancel", () => client.experimental.tasks.cancelTask(id, requestOptions));
      await step("tasks/get (cancelled)", () => client.experimental.tasks.getTask(id, requestOptions));
    }
    // A plain call of a task-only tool is refused by the server.
    await step("tools/call simulate-research-query (no task)", () =>
      client.request(
        { method: "tools/call", params: { name: "simulate-research-query", arguments: { topic: "x" } } },
        CallToolResultSchema,
        requestOptions,
      ),
    );

    await step("ping (last)", () => client.ping(requestOptions));
  } finally {
    await closeQuickly(client, stdio);
  }

  const init = initializeExchange(recorder.messages);
  return {
    protocolVersion: init.protocolVersion,
    serverInfo: init.serverInfo,
    messages: recorder.messages,
    steps,
    transportErrors: recorder.errors,
    stderr,
    pid,
    childExited: pid === undefined ? true : !alive(pid),
  };
}

/**
 * Closes the client. The stdio transport ends the child's stdin and waits up to 2 s before
 * SIGTERM; the everything server keeps timers alive, so end it by its pid first if it lingers.
 */
async function closeQuickly(client: Client, stdio: StdioClientTransport): Promise<void> {
  const pid = stdio.pid;
  const closing = client.close();
  if (pid !== null) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (alive(pid)) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
  await closing;
}

function initializeExchange(messages: readonly RecordedMessage[]): {
  protocolVersion: string;
  serverInfo: { name: string; version: string } | undefined;
} {
  const request = messages.find((m) => m.from === "client" && m.message.method === "initialize");
  const response = messages.find(
    (m) => m.from === "server" && request !== undefined && m.message.id === request.message.id && "result" in m.message,
  );
  const result = response?.message.result as { protocolVersion?: unknown; serverInfo?: unknown } | undefined;
  if (typeof result?.protocolVersion !== "string") throw new Error("the session has no InitializeResult");
  return {
    protocolVersion: result.protocolVersion,
    serverInfo: result.serverInfo as { name: string; version: string } | undefined,
  };
}

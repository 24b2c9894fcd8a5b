// Our client ↔ a real published server: the generated client for the revision that
// `@modelcontextprotocol/server-everything` (a devDependency, spawned over stdio with our own
// `StdioClientTransport`, no network) negotiates does a full session: every tool that runs offline
// (answering the server's sampling, elicitation, roots and task requests), resources (text and blob),
// resource templates, prompts with arguments, completions, subscriptions, logging, progress,
// cancellation, task-augmented calls, and bad calls that must come back as typed errors.
//
// Which generated revision: our client for revision R sends R in `initialize` and throws
// `ProtocolVersionError` when the server answers with another one (the SDK server echoes a version
// it supports and otherwise answers with its newest). So `negotiate()` tries the revisions we
// generate that have a handshake (an `initialize` request in their method map; 2026-07-28 and later
// use `server/discover`, which this server does not speak), newest first, and keeps the first
// client the server accepts. The session below is written against that revision's typed API, which
// is 2025-11-25 for the server version pinned in package.json (its SDK's LATEST_PROTOCOL_VERSION);
// the first test fails loudly if a server update moves it.
//
// Timings are never asserted; waits for server-initiated traffic are bounded and then checked.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Rev from "../generated/2025-11-25/index.js";
import { ConnectionClosedError, type JsonObject, ResultValidationError, RpcError } from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { alive } from "./fixtures/servers/index.js";
import { everythingServerEntry } from "./support/everything-session.js";
import { REVISIONS } from "./support/spec.js";

type RevisionModule = typeof Rev;
type Client = Rev.Client;
type Tool = Rev.Tool;
type CallToolResult = Rev.CallToolResult;
type ContentBlock = Rev.ContentBlock;
type ServerNotificationMap = Rev.ServerNotificationMap;

/** The revision the typed session below is written against. */
const SESSION_REVISION = "2025-11-25";
/** A value the server's `get-env` tool must echo back from the environment we give it. */
const ENV_MARKER = "mcp-gen-everything-client-test";

// ---------------------------------------------------------------------------------------------
// The server, and the revision it negotiates

function spawnServer(): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    // index.js takes the transport as its first argument ("stdio" is also its default).
    args: [everythingServerEntry(), "stdio"],
    // A minimal environment: no secrets of ours reach `get-env`, and the gzip tool may only fetch
    // http(s) from a domain that does not exist (we only give it data: URIs).
    env: { PATH: process.env.PATH ?? "", GZIP_ALLOWED_DOMAINS: "example.invalid", MCP_GEN_TEST_MARKER: ENV_MARKER },
    stderr: "pipe",
    // The server keeps task-store timers alive after stdin closes; do not wait 2 s before SIGTERM.
    shutdownGraceMs: 300,
  });
}

/** The revisions we generate whose client starts with the `initialize` handshake, newest first. */
async function handshakeRevisions(): Promise<string[]> {
  const out: string[] = [];
  for (const revision of [...REVISIONS].reverse()) {
    // methods.ts is small; index.ts (with the validators) is only loaded for the revision tried.
    const methods = (await import(/* @vite-ignore */ `../generated/${revision}/methods.ts`)) as {
      CLIENT_REQUEST_INFO: { readonly [method: string]: unknown };
    };
    if ("initialize" in methods.CLIENT_REQUEST_INFO) out.push(revision);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// What the client answers when the server asks

/** Tasks this client runs for the server (task-augmented sampling and elicitation). */
class ClientTasks {
  private readonly tasks = new Map<string, { task: Rev.Task; result: JsonObject }>();
  private next = 1;
  /** tasks/get requests the server sent. */
  polls = 0;

  /** Records a task that has already finished with `result`; answers with CreateTaskResult. */
  create(result: JsonObject, ttl: number | undefined): Rev.CreateTaskResult {
    const now = new Date().toISOString();
    const task: Rev.Task = {
      taskId: `client-task-${this.next++}`,
      // "working" so that the server polls tasks/get once before fetching tasks/result.
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl: ttl ?? null,
      pollInterval: 100,
    };
    this.tasks.set(task.taskId, { task, result });
    return { task: { ...task } };
  }

  get(taskId: string): Rev.GetTaskResult {
    this.polls++;
    const entry = this.tasks.get(taskId);
    if (!entry) throw new RpcError(-32602, `no task ${taskId}`);
    // The work is instantaneous: the first poll sees it completed.
    if (entry.task.status === "working") entry.task = { ...entry.task, status: "completed" };
    return { ...entry.task };
  }

  payload(taskId: string): JsonObject {
    const entry = this.tasks.get(taskId);
    if (!entry) throw new RpcError(-32602, `no task ${taskId}`);
    return entry.result;
  }

  list(): Rev.Task[] {
    return [...this.tasks.values()].map((e) => ({ ...e.task }));
  }

  cancel(taskId: string): Rev.CancelTaskResult {
    const entry = this.tasks.get(taskId);
    if (!entry) throw new RpcError(-32602, `no task ${taskId}`);
    entry.task = { ...entry.task, status: "cancelled" };
    return { ...entry.task };
  }
}

type FormSchema = Rev.ElicitRequestFormParams["requestedSchema"];
type FormValue = string | number | boolean | string[];

/** A valid answer to an elicitation form, derived from its requested schema. */
function fillForm(schema: FormSchema): { [key: string]: FormValue } {
  const out: { [key: string]: FormValue } = {};
  for (const [name, raw] of Object.entries(schema.properties)) {
    const p = raw as {
      type?: string;
      format?: string;
      enum?: string[];
      oneOf?: { const: string }[];
      items?: { enum?: string[]; anyOf?: { const: string }[] };
      default?: FormValue;
      minimum?: number;
    };
    if (p.type === "array") {
      const first = p.items?.enum?.[0] ?? p.items?.anyOf?.[0]?.const;
      if (first !== undefined) out[name] = [first];
    } else if (p.enum?.[0] !== undefined) out[name] = p.enum[0];
    else if (p.oneOf?.[0] !== undefined) out[name] = p.oneOf[0].const;
    else if (p.type === "boolean") out[name] = true;
    else if (p.type === "integer" || p.type === "number") out[name] = p.default ?? p.minimum ?? 1;
    else if (p.format === "email") out[name] = "ada@example.com";
    else if (p.format === "uri") out[name] = "https://example.com/ada";
    else if (p.format === "date") out[name] = "1815-12-10";
    else if (p.format === "date-time") out[name] = "1815-12-10T00:00:00Z";
    else out[name] = name === "name" ? "Ada Lovelace" : `an answer for ${name}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tool arguments

/** Arguments for a tool from its inputSchema: every required property gets a plain valid value. */
function argumentsFromSchema(schema: Tool["inputSchema"]): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const name of schema.required ?? []) {
    const p = (schema.properties?.[name] ?? {}) as {
      type?: string;
      enum?: unknown[];
      default?: unknown;
      minimum?: number;
    };
    if (p.default !== undefined) out[name] = p.default;
    else if (p.enum?.[0] !== undefined) out[name] = p.enum[0];
    else if (p.type === "number" || p.type === "integer") out[name] = p.minimum ?? 1;
    else if (p.type === "boolean") out[name] = false;
    else if (p.type === "array") out[name] = [];
    else if (p.type === "object") out[name] = {};
    else out[name] = `a value for ${name}`;
  }
  return out;
}

const GZIP_TEXT = "hello, gzip\n".repeat(16);

/**
 * Every tool the server may list, with what the schema alone cannot say (read from the server's
 * source) and a check of its answer. A tool the server lists that is missing here fails the test:
 * a server update must be looked at. No tool of this server needs the network once
 * `gzip-file-as-resource` is given a data: URI instead of its default GitHub URL.
 */
interface ToolPlan {
  /** Merged over the arguments derived from the inputSchema. */
  readonly args?: { [key: string]: unknown };
  /** Called `calls` times in a row (the toggles: on, then off again). */
  readonly calls?: number;
  /** Tools that only run task-augmented are called in their own test. */
  readonly taskOnly?: true;
  readonly check?: (result: CallToolResult, call: number) => void;
}

const texts = (result: CallToolResult): string =>
  result.content
    .filter((c): c is Rev.TextContent => c.type === "text")
    .map((c) => c.text)
    .join("\n");

const TOOL_PLANS: { readonly [name: string]: ToolPlan } = {
  echo: {
    args: { message: "hello from mcp-gen" },
    check: (r) => expect(texts(r)).toBe("Echo: hello from mcp-gen"),
  },
  "get-sum": { args: { a: 2, b: 40 }, check: (r) => expect(texts(r)).toContain("is 42") },
  "get-env": { check: (r) => expect(texts(r)).toContain(ENV_MARKER) },
  "get-tiny-image": {
    check: (r) => {
      const image = r.content.find((c): c is Rev.ImageContent => c.type === "image");
      expect(image?.mimeType).toBe("image/png");
      // A PNG signature after base64 decoding.
      expect(
        Buffer.from(image?.data ?? "", "base64")
          .subarray(1, 4)
          .toString("latin1"),
      ).toBe("PNG");
    },
  },
  "get-annotated-message": {
    args: { messageType: "error", includeImage: true },
    check: (r) => {
      expect(r.content.map((c) => c.type)).toEqual(["text", "image"]);
      expect(r.content[0]?.annotations?.priority).toBe(1);
      expect(r.content[1]?.annotations?.audience).toEqual(["user"]);
    },
  },
  "get-resource-links": {
    args: { count: 4 },
    check: (r) => {
      const links = r.content.filter((c): c is Rev.ResourceLink => c.type === "resource_link");
      expect(links).toHaveLength(4);
      for (const link of links) expect(link.uri).toMatch(/^demo:\/\/resource\/dynamic\/(text|blob)\/\d+$/);
    },
  },
  "get-resource-reference": {
    args: { resourceType: "Blob", resourceId: 2 },
    check: (r) => {
      const embedded = r.content.find((c): c is Rev.EmbeddedResource => c.type === "resource");
      expect(embedded?.resource.uri).toBe("demo://resource/dynamic/blob/2");
      expect("blob" in (embedded?.resource ?? {})).toBe(true);
    },
  },
  "get-structured-content": {
    args: { location: "Chicago" },
    check: (r) => {
      expect(r.structuredContent).toMatchObject({ conditions: expect.any(String), humidity: expect.any(Number) });
      expect(JSON.parse(texts(r))).toEqual(r.structuredContent);
    },
  },
  "gzip-file-as-resource": {
    args: {
      name: "greeting.txt.gz",
      data: `data:text/plain;base64,${Buffer.from(GZIP_TEXT).toString("base64")}`,
      outputType: "resourceLink",
    },
    check: (r) => {
      const link = r.content.find((c): c is Rev.ResourceLink => c.type === "resource_link");
      expect(link?.uri).toBe("demo://resource/session/greeting.txt.gz");
      expect(link?.mimeType).toBe("application/gzip");
    },
  },
  "toggle-simulated-logging": {
    calls: 2,
    check: (r, call) => expect(texts(r)).toMatch(call === 0 ? /^Started/ : /^Stopped/),
  },
  "toggle-subscriber-updates": {
    calls: 2,
    check: (r, call) => expect(texts(r)).toMatch(call === 0 ? /^Started/ : /^Stopped/),
  },
  "trigger-long-running-operation": {
    args: { duration: 0.2, steps: 2 },
    check: (r) => expect(texts(r)).toContain("Long running operation completed"),
  },
  "get-roots-list": { check: (r) => expect(texts(r)).toContain("file:///workspace/project") },
  "trigger-sampling-request": {
    args: { prompt: "Say something short.", maxTokens: 20 },
    check: (r) => expect(texts(r)).toContain("a canned answer"),
  },
  "trigger-elicitation-request": {
    check: (r) => {
      expect(texts(r)).toContain("User provided the requested information");
      expect(texts(r)).toContain("Ada Lovelace");
    },
  },
  "trigger-url-elicitation": {
    args: { url: "https://example.com/authorize?session=mcp-gen", elicitationId: "mcp-gen-url-1" },
    check: (r) => {
      expect(texts(r)).toContain("User completed the URL elicitation flow");
      expect(texts(r)).toContain("mcp-gen-url-1");
    },
  },
  "trigger-sampling-request-async": {
    args: { prompt: "Say something short, later.", maxTokens: 20 },
    check: (r) => {
      expect(texts(r)).toContain("[COMPLETED]");
      expect(texts(r)).toContain("a canned answer");
    },
  },
  "trigger-elicitation-request-async": {
    check: (r) => {
      expect(texts(r)).toContain("[COMPLETED]");
      expect(texts(r)).toContain("Ada Lovelace");
    },
  },
  "simulate-research-query": { taskOnly: true },
};

// ---------------------------------------------------------------------------------------------
// The session

describe("the generated client in a full session with @modelcontextprotocol/server-everything (stdio)", () => {
  let revision: string;
  let client: Client;
  let pid: number | undefined;
  let stderr = "";
  const rejected: { revision: string; offered: unknown }[] = [];
  const clientErrors: Error[] = [];
  const clientTasks = new ClientTasks();
  const asked = { roots: 0, sampling: 0, elicitation: 0, taskSampling: 0, taskElicitation: 0 };
  const notes: { [M in keyof ServerNotificationMap]?: ServerNotificationMap[M]["params"][] } = {};
  let tools: Tool[] = [];

  /** Resolves when `predicate` holds, or after `ms`; the caller asserts afterwards. */
  const until = async (predicate: () => boolean, ms = 5000): Promise<void> => {
    const started = Date.now();
    while (!predicate() && Date.now() - started < ms) await new Promise((r) => setTimeout(r, 10));
  };
  const received = <M extends keyof ServerNotificationMap>(method: M): ServerNotificationMap[M]["params"][] =>
    (notes[method] ?? []) as ServerNotificationMap[M]["params"][];

  function makeClient(module: RevisionModule, t: StdioClientTransport): Client {
    return module.createClient({
      transport: t,
      clientInfo: { name: "mcp-gen-everything-client-test", version: "0.1.0" },
      // The handlers declare sampling, roots, elicitation and tasks(.list, .cancel); these add the
      // sub-capabilities the server looks for before registering its conditional tools.
      capabilities: {
        roots: { listChanged: true },
        elicitation: { form: {}, url: {} },
        tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      },
      handlers: {
        listRoots: () => {
          asked.roots++;
          return {
            roots: [{ uri: "file:///workspace/project", name: "Project" }, { uri: "file:///workspace/scratch" }],
          };
        },
        createMessage: (params) => {
          const answer: Rev.CreateMessageResult = {
            role: "assistant",
            content: { type: "text", text: `a canned answer to ${params.messages.length} message(s)` },
            model: "mcp-gen-test-model",
            stopReason: "endTurn",
          };
          if (params.task === undefined) {
            asked.sampling++;
            return answer;
          }
          asked.taskSampling++;
          // A task-augmented request is answered with CreateTaskResult (TaskAugmentedRequestParams);
          // the cast is needed while the handler's result type only admits CreateMessageResult.
          return clientTasks.create(answer, params.task.ttl) as unknown as Rev.CreateMessageResult;
        },
        elicit: (params) => {
          if (params.mode === "url") {
            asked.elicitation++;
            return { action: "accept" };
          }
          const answer: Rev.ElicitResult = { action: "accept", content: fillForm(params.requestedSchema) };
          if (params.task === undefined) {
            asked.elicitation++;
            return answer;
          }
          asked.taskElicitation++;
          return clientTasks.create(answer, params.task.ttl) as unknown as Rev.ElicitResult;
        },
        getTask: ({ taskId }) => clientTasks.get(taskId),
        getTaskPayload: ({ taskId }) => clientTasks.payload(taskId),
        listTasks: () => ({ tasks: clientTasks.list() }),
        cancelTask: ({ taskId }) => clientTasks.cancel(taskId),
      },
      timeoutMs: 20_000,
      onError: (error) => clientErrors.push(error),
    });
  }

  /** Newest handshake revision first; the first one the server accepts is the session. */
  async function negotiate(): Promise<void> {
    for (const candidateRevision of await handshakeRevisions()) {
      // Every generated revision has the same client API shape; the session reads it as 2025-11-25's.
      const module = (await import(/* @vite-ignore */ `../generated/${candidateRevision}/index.ts`)) as RevisionModule;
      const t = spawnServer();
      const c = makeClient(module, t);
      for (const method of [
        "notifications/message",
        "notifications/tools/list_changed",
        "notifications/resources/updated",
        "notifications/resources/list_changed",
        "notifications/tasks/status",
      ] as const) {
        c.on(method, (params) => {
          (notes[method] ??= []).push(params as never);
        });
      }
      try {
        await c.connect();
      } catch (error) {
        if (error instanceof module.ProtocolVersionError) {
          rejected.push({ revision: candidateRevision, offered: error.offered });
          await t.close();
          continue;
        }
        await t.close();
        throw error;
      }
      t.stderr?.setEncoding("utf8");
      t.stderr?.on("data", (chunk) => (stderr += chunk));
      revision = candidateRevision;
      client = c;
      pid = t.pid;
      return;
    }
    throw new Error(`the server accepted none of our handshake revisions: ${JSON.stringify(rejected)}`);
  }

  const callTool = (name: string, args: { [key: string]: unknown } = {}) => client.callTool({ name, arguments: args });

  beforeAll(async () => {
    await negotiate();
  });

  afterAll(async () => {
    // Also when a test failed before the last one: close, and leave no child behind.
    await client?.close();
    if (pid !== undefined) expect(alive(pid)).toBe(false);
  });

  it("negotiates the newest revision we generate with a handshake", () => {
    expect(revision).toBe(SESSION_REVISION);
    expect(rejected).toEqual([]);
    expect(client.server.serverInfo?.name).toBe("mcp-servers/everything");
    expect(client.server.instructions).toBeTypeOf("string");
    expect(client.server.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(pid).toBeTypeOf("number");
  });

  it("answers the roots request the server sends after initialization", async () => {
    await until(() => asked.roots > 0 && received("notifications/message").length > 0);
    expect(asked.roots).toBe(1);
    expect(received("notifications/message").map((m) => m.data)).toContainEqual(
      expect.stringContaining("2 root(s) received"),
    );
  });

  it("lists every tool, page by page, once the conditional tools are registered", async () => {
    // The server registers tools that depend on our capabilities after `initialized`, and says so.
    await until(() => received("notifications/tools/list_changed").length > 0);
    expect(received("notifications/tools/list_changed").length).toBeGreaterThan(0);
    const pages: Rev.ListToolsResult[] = [];
    for await (const page of client.listToolsPages()) pages.push(page);
    expect(pages.length).toBeGreaterThan(0);
    tools = pages.flatMap((p) => p.tools);
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    // Every listed tool has a plan, and every planned tool is listed (our capabilities unlock all).
    expect([...names].sort()).toEqual(Object.keys(TOOL_PLANS).sort());
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("calls every tool that runs offline, with arguments from its inputSchema, and checks each answer", async () => {
    // One task per tool, all at once (the server's requests back to us interleave); a tool that is
    // called more than once (the toggles) is called in order within its task.
    const run = async (tool: Tool): Promise<string | undefined> => {
      const plan = TOOL_PLANS[tool.name];
      if (plan === undefined || plan.taskOnly) return undefined;
      const args = { ...argumentsFromSchema(tool.inputSchema), ...plan.args };
      for (let call = 0; call < (plan.calls ?? 1); call++) {
        const result = await callTool(tool.name, args);
        expect(result.isError ?? false, `${tool.name}: ${texts(result)}`).toBe(false);
        expect(result.content.length, tool.name).toBeGreaterThan(0);
        plan.check?.(result, call);
      }
      return tool.name;
    };
    const called = (await Promise.all(tools.map(run))).filter((n): n is string => n !== undefined);
    const taskOnly = Object.entries(TOOL_PLANS)
      .filter(([, p]) => p.taskOnly)
      .map(([n]) => n);
    expect([...called, ...taskOnly].sort()).toEqual(tools.map((t) => t.name).sort());
    // The server's requests reached our handlers.
    expect(asked.sampling).toBe(1);
    expect(asked.elicitation).toBe(2);
    expect(asked.taskSampling).toBe(1);
    expect(asked.taskElicitation).toBe(1);
    // The server polled our tasks (tasks/get) before fetching their payloads (tasks/result).
    expect(clientTasks.polls).toBeGreaterThanOrEqual(2);
    // Turning simulated logging on sends one message at once (the interval was turned off again).
    expect(received("notifications/message").length).toBeGreaterThan(1);
  });

  it("sets the logging level and receives notifications/message through client.on", async () => {
    const before = received("notifications/message").length;
    await expect(client.setLevel({ level: "debug" })).resolves.toEqual({});
    // Subscribing makes the server log at level info.
    await client.subscribe({ uri: "demo://resource/dynamic/text/1" });
    await until(() => received("notifications/message").length > before);
    const logged = received("notifications/message").slice(before);
    expect(logged.map((m) => m.data)).toContainEqual(expect.stringContaining("Subscribe Resource request"));
    for (const m of logged)
      expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(m.level);
    await client.unsubscribe({ uri: "demo://resource/dynamic/text/1" });
  });

  it("subscribes to a resource, receives notifications/resources/updated, and unsubscribes", async () => {
    const uri = "demo://resource/dynamic/text/7";
    await expect(client.subscribe({ uri })).resolves.toEqual({});
    const before = received("notifications/resources/updated").length;
    await callTool("toggle-subscriber-updates"); // sends an update for every subscription at once
    await until(() =>
      received("notifications/resources/updated")
        .slice(before)
        .some((n) => n.uri === uri),
    );
    await callTool("toggle-subscriber-updates"); // and off again
    expect(
      received("notifications/resources/updated")
        .slice(before)
        .map((n) => n.uri),
    ).toContain(uri);
    await expect(client.unsubscribe({ uri })).resolves.toEqual({});
  });

  it("receives progress notifications through onProgress on a long-running tool", async () => {
    const progress: JsonObject[] = [];
    const result = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(texts(result)).toContain("Steps: 3");
    expect(progress.map((p) => [p["progress"], p["total"]])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // The token is the one the client chose and put in _meta.
    expect(new Set(progress.map((p) => p["progressToken"])).size).toBe(1);
  });

  it("cancels a long-running call with an AbortSignal and keeps the session usable", async () => {
    const abort = new AbortController();
    const reason = new Error("the test cancels on purpose");
    const progress: JsonObject[] = [];
    const call = client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.6, steps: 3 } },
      {
        signal: abort.signal,
        onProgress: (p) => {
          progress.push(p);
          abort.abort(reason); // after the first step: the call is in flight for sure
        },
      },
    );
    await expect(call).rejects.toBe(reason);
    expect(progress).toHaveLength(1);
    // The server's operation keeps running (it does not watch its signal) and may still report
    // progress for the old token, which the client ignores. Had notifications/cancelled not reached
    // the server, its answer would come after the operation's 0.6 s and be reported as "a response
    // to no pending request" (checked at the end of the session).
    await new Promise((r) => setTimeout(r, 600));
    await expect(client.ping()).resolves.toEqual({});
    // A signal that is already aborted never sends the request.
    await expect(client.ping(undefined, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it("lists and reads resources: static text, dynamic text, dynamic blob, and the gzip session resource", async () => {
    const resources: Rev.Resource[] = [];
    for await (const page of client.listResourcesPages()) resources.push(...page.resources);
    const statics = resources.filter((r) => r.uri.startsWith("demo://resource/static/document/"));
    expect(statics.length).toBeGreaterThan(0);
    for (const resource of statics) {
      const { contents } = await client.readResource({ uri: resource.uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]?.uri).toBe(resource.uri);
      expect(contents[0] !== undefined && "text" in contents[0] && contents[0].text.length > 0).toBe(true);
    }

    const text = (await client.readResource({ uri: "demo://resource/dynamic/text/3" })).contents[0];
    expect(text?.mimeType).toBe("text/plain");
    expect(text && "text" in text ? text.text : undefined).toMatch(/^Resource 3: This is a plaintext resource/);

    const blob = (await client.readResource({ uri: "demo://resource/dynamic/blob/4" })).contents[0];
    expect(blob && "blob" in blob ? Buffer.from(blob.blob, "base64").toString("utf8") : undefined).toMatch(
      /^Resource 4: This is a base64 blob/,
    );

    // The gzip tool registered a session resource (its resource_link was checked above).
    const gz = (await client.readResource({ uri: "demo://resource/session/greeting.txt.gz" })).contents[0];
    expect(gz?.mimeType).toBe("application/gzip");
    expect(gz && "blob" in gz ? gunzipSync(Buffer.from(gz.blob, "base64")).toString("utf8") : undefined).toBe(
      GZIP_TEXT,
    );
  });

  it("lists resource templates", async () => {
    const templates: Rev.ResourceTemplate[] = [];
    for await (const page of client.listResourceTemplatesPages()) templates.push(...page.resourceTemplates);
    expect(templates.map((t) => t.uriTemplate).sort()).toEqual([
      "demo://resource/dynamic/blob/{resourceId}",
      "demo://resource/dynamic/text/{resourceId}",
    ]);
  });

  it("lists prompts and gets each one with arguments derived from its declaration", async () => {
    const prompts: Rev.Prompt[] = [];
    for await (const page of client.listPromptsPages()) prompts.push(...page.prompts);
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
      "simple-prompt",
    ]);
    // Values the server accepts, for the arguments it declares (read from its source).
    const values: { [argument: string]: string } = {
      city: "Lyon",
      state: "Rhône",
      department: "Engineering",
      name: "Alice",
      resourceType: "Blob",
      resourceId: "3",
    };
    for (const prompt of prompts) {
      const args: { [key: string]: string } = {};
      for (const a of prompt.arguments ?? []) {
        const value = values[a.name];
        expect(value, `a value for ${prompt.name}.${a.name}`).toBeDefined();
        args[a.name] = value as string;
      }
      const result = await client.getPrompt({ name: prompt.name, arguments: args });
      expect(result.messages.length, prompt.name).toBeGreaterThan(0);
      for (const m of result.messages) expect(["user", "assistant"]).toContain(m.role);
    }
    const withState = await client.getPrompt({ name: "args-prompt", arguments: { city: "Lyon", state: "Rhône" } });
    expect(withState.messages[0]?.content).toEqual({ type: "text", text: "What's weather in Lyon, Rhône?" });
    const embedded = await client.getPrompt({
      name: "resource-prompt",
      arguments: { resourceType: "Blob", resourceId: "3" },
    });
    const block = embedded.messages[1]?.content as ContentBlock | undefined;
    expect(block?.type).toBe("resource");
    expect(block?.type === "resource" ? block.resource.uri : undefined).toBe("demo://resource/dynamic/blob/3");
  });

  it("completes prompt arguments (with context) and resource template variables", async () => {
    const department = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "E" },
    });
    expect(department.completion.values).toEqual(["Engineering"]);
    const name = await client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Engineering" } },
    });
    expect(name.completion.values).toEqual(["Alice", "Bob", "Charlie"]);
    const resourceType = await client.complete({
      ref: { type: "ref/prompt", name: "resource-prompt" },
      argument: { name: "resourceType", value: "B" },
    });
    expect(resourceType.completion.values).toEqual(["Blob"]);
    const resourceId = await client.complete({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "12" },
    });
    expect(resourceId.completion.values).toEqual(["12"]);
  });

  it("answers the roots list again after notifications/roots/list_changed", async () => {
    const before = asked.roots;
    await client.notify("notifications/roots/list_changed");
    await until(() => asked.roots > before);
    expect(asked.roots).toBe(before + 1);
  });

  it("gets URL elicitation through the error path as a typed RpcError, then through the request path", async () => {
    const args = { url: "https://example.com/consent", elicitationId: "mcp-gen-url-2", errorPath: true };
    const error = await callTool("trigger-url-elicitation", args).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32042);
    expect((error as RpcError).data).toMatchObject({
      elicitations: [{ mode: "url", url: expect.any(String), elicitationId: expect.any(String) }],
    });
    // The retry with the same arguments goes through elicitation/create.
    const before = asked.elicitation;
    const retried = await callTool("trigger-url-elicitation", args);
    expect(texts(retried)).toContain("User completed the URL elicitation flow");
    expect(asked.elicitation).toBe(before + 1);
  });

  it("makes a task-augmented tools/call and gets a CreateTaskResult", async () => {
    // TaskAugmentedRequestParams: with `task` set, tools/call answers with CreateTaskResult.
    const created = (await client.callTool({
      name: "simulate-research-query",
      arguments: { topic: "stdio framing" },
      task: { ttl: 60_000 },
    })) as unknown as Rev.CreateTaskResult;
    expect(created.task).toMatchObject({ taskId: expect.any(String), status: "working" });
  });

  it("lists, gets and cancels the server's tasks", async () => {
    // Whatever the task-augmented call's answer did in our client, the server created a task.
    await client
      .callTool({ name: "simulate-research-query", arguments: { topic: "tasks" }, task: { ttl: 60_000 } })
      .catch(() => undefined);
    const listed = await client.listTasks();
    const mine = listed.tasks.filter((t) => t.status === "working");
    expect(mine.length).toBeGreaterThan(0);
    for (const task of mine) {
      const got = await client.getTask({ taskId: task.taskId });
      expect(got.taskId).toBe(task.taskId);
      const cancelled = await client.cancelTask({ taskId: task.taskId });
      expect(cancelled.status).toBe("cancelled");
      expect((await client.getTask({ taskId: task.taskId })).status).toBe("cancelled");
    }
    // The server reported the tasks' progress through notifications/tasks/status.
    await until(() => received("notifications/tasks/status").length > 0);
    for (const status of received("notifications/tasks/status")) {
      expect(status).toMatchObject({ taskId: expect.any(String), status: expect.any(String) });
    }
    // An unknown task is an RpcError from the server.
    await expect(client.getTask({ taskId: "no-such-task" })).rejects.toBeInstanceOf(RpcError);
  });

  it("gets bad calls back as the server chooses to answer them: tool errors as isError results, the rest as RpcError", async () => {
    // The SDK's McpServer turns tool failures into results with isError (not JSON-RPC errors).
    const unknownTool = await callTool("no-such-tool");
    expect(unknownTool.isError).toBe(true);
    expect(texts(unknownTool)).toContain("Tool no-such-tool not found");

    const badArguments = await callTool("echo", { message: 42 });
    expect(badArguments.isError).toBe(true);
    expect(texts(badArguments)).toContain("Input validation error");

    const missingArguments = await callTool("get-sum", { a: 1 });
    expect(missingArguments.isError).toBe(true);

    const taskRequired = await callTool("simulate-research-query", { topic: "x" });
    expect(taskRequired.isError).toBe(true);
    expect(texts(taskRequired)).toContain("requires task augmentation");

    const rpc = async (call: Promise<unknown>): Promise<RpcError> => {
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RpcError);
      expect(error).not.toBeInstanceOf(ResultValidationError);
      return error as RpcError;
    };
    // Params of the wrong type (past our types, on the wire): the SDK parses request params with
    // zod in its handler wrapper, and a ZodError there becomes an internal error (-32603).
    expect((await rpc(client.callTool({ name: 42 } as never))).code).toBe(-32603);
    expect((await rpc(client.setLevel({ level: "loudest" } as never))).code).toBe(-32603);
    // A method the server does not have.
    expect((await rpc(client.request("no/such-method" as never))).code).toBe(-32601);
    // Unknown names are invalid params (McpError).
    expect((await rpc(client.readResource({ uri: "demo://resource/no-such-resource" }))).code).toBe(-32602);
    expect((await rpc(client.getPrompt({ name: "no-such-prompt" }))).code).toBe(-32602);
    expect((await rpc(client.getPrompt({ name: "args-prompt", arguments: {} }))).code).toBe(-32602);
    expect(
      (
        await rpc(
          client.complete({ ref: { type: "ref/prompt", name: "no-such-prompt" }, argument: { name: "x", value: "" } }),
        )
      ).code,
    ).toBe(-32602);
    // A template match whose variable the server's handler rejects (a plain Error): -32603.
    const badVariable = await rpc(client.readResource({ uri: "demo://resource/dynamic/text/abc" }));
    expect(badVariable.code).toBe(-32603);
    expect(badVariable.message).toContain("Unknown resource");
    // The session survives all of it.
    await expect(client.ping()).resolves.toEqual({});
  });

  it("saw no problem it could not report to a caller, and the server logged no failure", () => {
    expect(clientErrors.map((e) => e.message)).toEqual([]);
    expect(stderr).not.toMatch(/Failed to request roots|Elicitation failed/);
  });

  it("closes: the child process exits, and a call afterwards rejects with ConnectionClosedError", async () => {
    await client.close();
    expect(pid).toBeTypeOf("number");
    // close() resolves once the child has exited: nothing is left behind.
    expect(() => process.kill(pid as number, 0)).toThrow();
    // A call after close is the documented typed error, not a hang (nor "before connect()").
    await expect(client.ping()).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

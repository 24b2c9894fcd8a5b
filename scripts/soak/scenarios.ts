// What the soak drives: a generated client over each transport, and the host with four servers.
// The soak's own servers run in this process where the transport allows (so their leaks count
// too) and in child processes over stdio; server-everything 0.6.2 is the HTTP+SSE peer.
import { fileURLToPath } from "node:url";
import * as v2024 from "../../generated/2024-11-05/index.js";
import * as v2025 from "../../generated/2025-11-25/index.js";
import * as v2026 from "../../generated/2026-07-28/index.js";
import { createHost, type Host, type HostConfig } from "../../host/index.js";
import { createInMemoryTransportPair, type RequestOptions, type Transport } from "../../runtime/index.js";
import { StreamableHttpClientTransport } from "../../runtime/http/client/client.js";
import { LegacySseClientTransport } from "../../runtime/http/client/legacy-sse-client.js";
import { serveStreamableHttp } from "../../runtime/http/server/server.js";
import { StdioClientTransport } from "../../runtime/stdio.js";
import { startEverything } from "../../test/support/everything-2024-process.js";
import { CHANGES_SEEN, sessionServer, statelessServer, type ServerStats } from "./server.js";
import type { SoakClient } from "./workload.js";

export interface Opened {
  readonly client: SoakClient;
  /** The counters of the soak's own servers (none for server-everything). */
  stats(): Promise<ServerStats[]>;
  /** What was reported on the side: clients' and servers' onError, warnings printed by children. */
  problems(): string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The fetch HTTP clients use (the detector's test gives a broken one). */
  readonly fetch?: typeof fetch;
}

export interface Scenario {
  readonly name: string;
  /** What runs, for the report. */
  readonly setup: string;
  open(options?: OpenOptions): Promise<Opened>;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const STDIO_SERVER = fileURLToPath(new URL("./stdio-server.ts", import.meta.url));
const clientInfo = { name: "soak", version: "1.0.0" };

/** A child running the soak's server over stdio, through tsx as the soak itself runs. */
function stdioServer(revision: "2025-11-25" | "2024-11-05") {
  return { command: process.execPath, args: ["--import", "tsx", STDIO_SERVER, revision], cwd: ROOT };
}

/** What a child prints on stderr that is a problem: Node's warnings, errors. */
const PROBLEM_LINE = /Warning|[Ee]rror/;

/** A problem log: onError reports and warning lines of a child's stderr. */
class Problems {
  readonly list: string[] = [];
  readonly report = (error: Error) => this.add(error.message);
  add(problem: string): void {
    if (this.list.length < 20) this.list.push(problem);
  }
  /** Watches a child's stderr for Node's warnings (`(node:123) SomeWarning: …`). */
  watchStderr(
    stream: {
      setEncoding(encoding: "utf8"): unknown;
      on(event: "data", listener: (chunk: string) => void): unknown;
    } | null,
    who: string,
  ): void {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (PROBLEM_LINE.test(line)) this.add(`${who}: ${line.slice(0, 300)}`);
    });
  }
}

/** The part of a generated client (any revision) the workload uses. */
interface GeneratedClient {
  callTool(
    params: { name: string; arguments?: { [key: string]: unknown } },
    options?: RequestOptions,
  ): Promise<{ content: unknown[] }>;
  listTools(params?: undefined, options?: RequestOptions): Promise<{ tools: unknown[] }>;
}

function textOf(result: { content: unknown[] }): string {
  const first = result.content[0] as { text?: unknown } | undefined;
  return typeof first?.text === "string" ? first.text : JSON.stringify(result.content);
}

/** The workload's calls on the soak's own server, through a generated client. */
function soakClient(client: GeneratedClient): SoakClient {
  return {
    echo: async (text, options) => textOf(await client.callTool({ name: "echo", arguments: { text } }, options)),
    progress: async (options) => void (await client.callTool({ name: "progress" }, options)),
    hang: async (options) => void (await client.callTool({ name: "hang" }, options)),
    list: async (options) => void (await client.listTools(undefined, options)),
  };
}

async function statsOf(call: () => Promise<{ content: unknown[] }>): Promise<ServerStats> {
  return JSON.parse(textOf(await call())) as ServerStats;
}

/** A scenario opened on a generated client of the soak's own server; `after` closes the rest. */
function opened(
  client: GeneratedClient & { close(): Promise<void> },
  problems: Problems,
  after: () => Promise<unknown> = async () => {},
): Opened {
  return {
    client: soakClient(client),
    stats: async () => [await statsOf(() => client.callTool({ name: "stats" }))],
    problems: () => problems.list,
    close: async () => {
      await client.close();
      await after();
    },
  };
}

const inMemory: Scenario = {
  name: "in-memory",
  setup: "generated 2025-11-25 client and server, createInMemoryTransportPair()",
  async open() {
    const problems = new Problems();
    const [clientSide, serverSide] = createInMemoryTransportPair();
    const { server } = sessionServer("2025-11-25", problems.report);
    await server.connect(serverSide);
    const client = v2025.createClient({ transport: clientSide, clientInfo, onError: problems.report });
    await client.connect();
    return opened(client, problems, () => server.close());
  },
};

const stdio: Scenario = {
  name: "stdio",
  setup: "generated 2025-11-25 client, StdioClientTransport to the generated server in a child process",
  async open() {
    const problems = new Problems();
    const transport = new StdioClientTransport({ ...stdioServer("2025-11-25"), stderr: "pipe" });
    const client = v2025.createClient({ transport, clientInfo, onError: problems.report });
    await client.connect();
    problems.watchStderr(transport.stderr, "server");
    return opened(client, problems);
  },
};

const http2025: Scenario = {
  name: "streamable-http-2025",
  setup: "generated 2025-11-25 client and server (one per session), serveStreamableHttp({ onSession })",
  async open(options = {}) {
    const problems = new Problems();
    const http = await serveStreamableHttp({
      onSession: (session) => sessionServer("2025-11-25", problems.report).server.connect(session),
      onError: problems.report,
    });
    const transport = new StreamableHttpClientTransport(http.url, options.fetch ? { fetch: options.fetch } : {});
    const client = v2025.createClient({ transport, clientInfo, onError: problems.report });
    await client.connect();
    return opened(client, problems, () => http.close());
  },
};

const http2026: Scenario = {
  name: "http-2026-07-28",
  setup: "generated 2026-07-28 client, the generated 2026-07-28 server behind serveStreamableHttp({ server })",
  async open(options = {}) {
    const problems = new Problems();
    const { server } = statelessServer(problems.report);
    const http = await serveStreamableHttp({ server, onError: problems.report });
    const transport = new StreamableHttpClientTransport(http.url, options.fetch ? { fetch: options.fetch } : {});
    const client = v2026.createClient({ transport, clientInfo, onError: problems.report });
    await client.connect();
    return opened(client, problems, async () => {
      await http.close();
      await server.close();
    });
  },
};

/** The late answers of server-everything to calls the client cancelled: it has no cancellation. */
const LATE_ANSWER = /^a response to no pending request/;

const legacySse: Scenario = {
  name: "legacy-sse",
  setup:
    "generated 2024-11-05 client, LegacySseClientTransport to server-everything 0.6.2 (SDK 1.0.1) in a child process",
  async open(options = {}) {
    const problems = new Problems();
    const everything = await startEverything();
    const transport = new LegacySseClientTransport(everything.url, options.fetch ? { fetch: options.fetch } : {});
    const client = v2024.createClient({
      transport,
      clientInfo,
      onError: (error) => {
        if (!LATE_ANSWER.test(error.message)) problems.report(error);
      },
    });
    await client.connect();
    return {
      client: {
        echo: async (text, callOptions) => {
          const answer = textOf(await client.callTool({ name: "echo", arguments: { message: text } }, callOptions));
          return answer.replace(/^Echo: /, "");
        },
        progress: async (callOptions) =>
          void (await client.callTool(
            { name: "longRunningOperation", arguments: { duration: 0, steps: 2 } },
            callOptions,
          )),
        // Runs 50 ms in 5 steps; cancelled at its first progress report, it answers anyway (late).
        hang: async (callOptions) =>
          void (await client.callTool(
            { name: "longRunningOperation", arguments: { duration: 0.05, steps: 5 } },
            callOptions,
          )),
        list: async (callOptions) => void (await client.listTools(undefined, callOptions)),
      },
      stats: async () => [],
      problems: () => {
        const stderr = everything.stderr();
        return PROBLEM_LINE.test(stderr)
          ? [...problems.list, `server-everything: ${stderr.slice(-300)}`]
          : problems.list;
      },
      close: async () => {
        await client.close();
        await everything.stop();
      },
    };
  },
};

const HOST_SERVERS = ["stdio-2025", "stdio-2024", "http-2025", "http-2026"] as const;

/** Resolves once the host's tools of `server` show its list after `changes` changes (or later). */
function listedAfter(h: Host, server: string, changes: number): Promise<void> {
  const id = `${server}__changed`;
  const shown = () => {
    const description = h.tools.find((tool) => tool.id === id)?.description ?? "";
    return description.startsWith(CHANGES_SEEN) && Number(description.slice(CHANGES_SEEN.length)) >= changes;
  };
  if (shown()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = h.on("change", (change) => {
      if (change.server !== server || !shown()) return;
      off();
      resolve();
    });
  });
}

/**
 * A tools/list through the host: the host lists a server's tools when the server says they
 * changed (it has no other way), so a list request changes one server's list and resolves once
 * the host's listing shows that change; one that never comes stalls the workload. Requests to
 * one server take turns, so each gets a listing of its own (the host folds announcements that
 * arrive during a listing into one more) and the servers answer as many tools/list as were asked.
 */
function hostLister(h: Host, change: (server: string, options: object) => Promise<{ content: unknown[] }>) {
  const turns = new Map<string, Promise<void>>();
  return (server: string, options: object): Promise<void> => {
    const run = (turns.get(server) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => listedAfter(h, server, Number(textOf(await change(server, options)))));
    turns.set(server, run);
    return run;
  };
}

const host: Scenario = {
  name: "host",
  setup:
    "createHost with four servers: the generated 2025-11-25 and 2024-11-05 servers over stdio, a 2025-11-25 " +
    "Streamable HTTP endpoint and a 2026-07-28 one in this process (url entries: the fallback transport)",
  async open() {
    const problems = new Problems();
    const http2025 = await serveStreamableHttp({
      onSession: (session) => sessionServer("2025-11-25", problems.report).server.connect(session),
      onError: problems.report,
    });
    const stateless = statelessServer(problems.report);
    const http2026 = await serveStreamableHttp({ server: stateless.server, onError: problems.report });
    const servers: HostConfig = {
      mcpServers: {
        "stdio-2025": stdioServer("2025-11-25"),
        "stdio-2024": stdioServer("2024-11-05"),
        "http-2025": { url: http2025.url },
        "http-2026": { url: http2026.url },
      },
    };
    const h = createHost({
      servers,
      restart: false,
      onError: (error, server) => problems.add(`${server}: ${error.message}`),
    });
    await h.connect();
    for (const status of h.servers)
      if (status.state !== "up") throw new Error(`host: ${status.name} is ${status.state}: ${status.error ?? ""}`);
    let turn = 0;
    const next = () => HOST_SERVERS[turn++ % HOST_SERVERS.length] as string;
    const call = async (server: string, tool: string, args: { [key: string]: unknown } | undefined, options: object) =>
      h.callTool(`${server}__${tool}`, args, options);
    const list = hostLister(h, (server, options) => call(server, "changed", undefined, options));
    return {
      client: {
        echo: async (text, options) => textOf(await call(next(), "echo", { text }, options)),
        progress: async (options) => void (await call(next(), "progress", undefined, options)),
        hang: async (options) => void (await call(next(), "hang", undefined, options)),
        list: (options) => list(next(), options),
      },
      stats: () => Promise.all(HOST_SERVERS.map((server) => statsOf(() => call(server, "stats", undefined, {})))),
      problems: () => {
        const printed = h.servers.filter((s) => PROBLEM_LINE.test(s.stderr)).map((s) => `${s.name}: ${s.stderr}`);
        return [...problems.list, ...printed];
      },
      close: async () => {
        await h.close();
        await http2025.close();
        await http2026.close();
        await stateless.server.close();
      },
    };
  },
};

export const SCENARIOS: readonly Scenario[] = [inMemory, stdio, http2025, http2026, legacySse, host];

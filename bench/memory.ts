// Benchmark: heap after GC across 100,000 `tools/list` calls against a server with 20 tools that
// each have an outputSchema, in memory: the generated 2025-11-25 client + server, the official
// SDK v1 (`@modelcontextprotocol/sdk`) and SDK v2 (`@modelcontextprotocol/server` + `/client`
// 2.4.0), each in a child process of its own, in one run.
//
//   npm run bench:memory         (part of `npm run bench`)
//
// Environment:
//   BENCH_CALLS          tools/list calls per stack (default 100,000)
//   BENCH_PEER_SECONDS   the official SDKs make at most as many calls as fit in this many seconds
//                        at the rate of their first 200 (default 60): SDK v1 slows to a crawl as
//                        its heap grows, and 100,000 calls would take it hours
//   BENCH_STACK          run one stack in this process and print its figures as JSON (what the children do)
//
// Each child connects its client and server over its stack's own in-memory transport, makes the
// calls one after another, and at 10% and at 100% of them runs a full GC (--expose-gc) and reads
// `heapUsed`. The figure that matters is the growth between the two marks: a stack that keeps
// something per call grows with the count. Also printed: calls per second (wall time, one call in
// flight) and the heap at both marks.
import { fork } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const CALLS = Number(process.env["BENCH_CALLS"] ?? 100_000);
const PEER_SECONDS = Number(process.env["BENCH_PEER_SECONDS"] ?? 60);
const TOOLS = 20;
const INFO = { name: "bench", version: "1.0.0" };

interface Figures {
  readonly stack: string;
  readonly calls: number;
  readonly heapAt10: number;
  readonly heapAt100: number;
  readonly callsPerSecond: number;
}

/** The same 20 tools for every stack: an object input and an object output with two fields. */
function toolDefinitions() {
  return Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}`,
    inputSchema: { type: "object" as const, properties: { query: { type: "string" } }, required: ["query"] },
    outputSchema: {
      type: "object" as const,
      properties: { answer: { type: "string" }, score: { type: "number" } },
      required: ["answer"],
    },
  }));
}

type Lister = () => Promise<{ tools: unknown[] }>;

async function connect(stack: string): Promise<Lister> {
  if (stack === "ours") {
    const root = new URL("../dist/", import.meta.url);
    const generated = (await import(
      new URL("generated/2025-11-25/index.js", root).href
    )) as typeof import("../generated/2025-11-25/index.js");
    const runtime = (await import(new URL("runtime/index.js", root).href)) as typeof import("../runtime/index.js");
    const tools = toolDefinitions();
    const server = generated.createServer({ serverInfo: INFO, handlers: { listTools: () => ({ tools }) } });
    const [clientSide, serverSide] = runtime.createInMemoryTransportPair();
    await server.connect(serverSide);
    const client = generated.createClient({ transport: clientSide, clientInfo: INFO });
    await client.connect();
    return () => client.listTools();
  }
  const input = { query: z.string() };
  const output = { answer: z.string(), score: z.number().optional() };
  if (stack === "sdk-v1") {
    const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const server = new McpServer(INFO);
    for (const tool of toolDefinitions())
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: input, outputSchema: output },
        () => ({
          content: [],
          structuredContent: { answer: "a" },
        }),
      );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client(INFO);
    await client.connect(clientSide);
    return () => client.listTools();
  }
  const { McpServer, InMemoryTransport } = await import("@modelcontextprotocol/server");
  const { Client } = await import("@modelcontextprotocol/client");
  const server = new McpServer(INFO);
  for (const tool of toolDefinitions())
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: z.object(input), outputSchema: z.object(output) },
      () => ({ content: [], structuredContent: { answer: "a" } }),
    );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(INFO);
  await client.connect(clientSide);
  return () => client.listTools();
}

function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function measure(stack: string): Promise<Figures> {
  const list = await connect(stack);
  const first = await list();
  if (first.tools.length !== TOOLS) throw new Error(`${stack}: listed ${first.tools.length} tools`);
  let calls = CALLS;
  if (stack !== "ours") {
    const probe = performance.now();
    for (let i = 0; i < 200; i++) await list();
    const rate = 200 / ((performance.now() - probe) / 1000);
    calls = Math.max(1000, Math.min(CALLS, Math.floor(rate * PEER_SECONDS)));
  }
  const mark = Math.floor(calls / 10);
  let heapAt10 = 0;
  const started = performance.now();
  for (let i = 1; i <= calls; i++) {
    await list();
    if (i === mark) heapAt10 = heapAfterGc();
  }
  const seconds = (performance.now() - started) / 1000;
  return { stack, calls, heapAt10, heapAt100: heapAfterGc(), callsPerSecond: calls / seconds };
}

function child(stack: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_STACK: stack },
      execArgv: ["--expose-gc", "--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    let out = "";
    proc.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.once("error", reject);
    proc.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as Figures) : reject(new Error(`${stack} exited with ${code}`)),
    );
  });
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  const results: Figures[] = [];
  for (const stack of ["ours", "sdk-v1", "sdk-v2"]) {
    console.error(`bench:memory: ${stack}`);
    results.push(await child(stack));
  }
  console.log(`tools/list of ${TOOLS} tools with outputSchema, in memory, one call in flight`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    "| stack | calls | heap after GC at 10% (MB) | at 100% (MB) | growth (MB) | growth per 10,000 calls (MB) | calls/s |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of results) {
    const growth = r.heapAt100 - r.heapAt10;
    const per10k = (growth / (r.calls * 0.9)) * 10_000;
    console.log(
      `| ${r.stack} | ${r.calls.toLocaleString("en-US")} | ${mb(r.heapAt10)} | ${mb(r.heapAt100)} | ${mb(growth)} | ${mb(per10k)} | ${Math.round(r.callsPerSecond).toLocaleString("en-US")} |`,
    );
  }
}

const stack = process.env["BENCH_STACK"];
if (stack) console.log(JSON.stringify(await measure(stack)));
else await main();

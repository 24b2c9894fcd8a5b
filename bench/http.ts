// Benchmark: `tools/call` requests per second over loopback HTTP at 2026-07-28, the generated
// 2026-07-28 server behind runtime/http (node:http) against the official SDK v2's
// `createMcpHandler` (@modelcontextprotocol/server 2.4.0) mounted with `toNodeHandler`
// (@modelcontextprotocol/node) on node:http, driven by the same load generator in one run.
//
//   npm run bench:http           (part of `npm run bench`)
//
// Environment:
//   BENCH_ROUNDS       timed rounds (default 5); every round measures every server once
//   BENCH_MS           length of one timed measurement in ms (default 2000)
//   BENCH_WARMUP_MS    warm-up of every server before the first round, in ms (default 2000)
//   BENCH_CONCURRENCY  requests in flight, one keep-alive connection each (default 32)
//   BENCH_SERVER       run one server in this process and print its URL (what the children do)
//
// Each server runs in a child process of its own (compiled JavaScript for ours, as users run it;
// the SDK as published); this process is the load generator: BENCH_CONCURRENCY callers on a
// keep-alive node:http Agent, each POSTing the next request as soon as its answer is read. The
// request is a complete 2026-07-28 tools/call (headers and `_meta` as the transport page asks)
// for an `echo` tool with one string argument; both answer with one JSON body. Servers take
// turns, one measurement at a time, in an order that rotates per round; medians over rounds,
// and the ratio with the range of the per-round ratios. Run it on an idle machine.
import { fork, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const MEASURE_MS = Number(process.env["BENCH_MS"] ?? 2000);
const WARMUP_MS = Number(process.env["BENCH_WARMUP_MS"] ?? 2000);
const CONCURRENCY = Number(process.env["BENCH_CONCURRENCY"] ?? 32);
const REVISION = "2026-07-28";

const meta = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "echo", arguments: { message: "hello" }, _meta: meta },
});
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": REVISION,
  "mcp-method": "tools/call",
  "mcp-name": "echo",
  "content-length": String(Buffer.byteLength(body)),
};

/** Starts one server in this process and returns its URL. */
async function serve(which: string): Promise<string> {
  if (which === "ours") {
    // Compiled output (npm run build): what an application runs.
    const root = new URL("../dist/", import.meta.url);
    const { createServer } = (await import(
      new URL("generated/2026-07-28/index.js", root).href
    )) as typeof import("../generated/2026-07-28/index.js");
    const { serveStreamableHttp } = (await import(
      new URL("runtime/http/server/server.js", root).href
    )) as typeof import("../runtime/http/server/server.js");
    const server = createServer({
      serverInfo: { name: "bench", version: "1.0.0" },
      handlers: {
        listTools: () => ({ ttlMs: 0, cacheScope: "private", tools: [] }),
        callTool: (params) => {
          const message = params.arguments?.["message"];
          if (typeof message !== "string") throw new Error("message must be a string");
          return { content: [{ type: "text", text: message }] };
        },
      },
    });
    return (await serveStreamableHttp({ server })).url;
  }
  const { McpServer, createMcpHandler } = await import("@modelcontextprotocol/server");
  const { toNodeHandler } = await import("@modelcontextprotocol/node");
  const { z } = await import("zod");
  const { createServer } = await import("node:http");
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool("echo", { inputSchema: z.object({ message: z.string() }) }, ({ message }) => ({
      content: [{ type: "text", text: message }],
    }));
    return server;
  });
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
}

function start(which: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_SERVER: which },
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    child.once("error", reject);
    child.stdout!.once("data", (chunk: Buffer) => resolve({ child, url: chunk.toString().trim() }));
  });
}

/** Requests answered in `ms` with CONCURRENCY callers; every answer is checked. */
async function drive(url: string, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL(url);
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            res.statusCode === 200 && text.includes('"hello"')
              ? resolve()
              : reject(new Error(`${res.statusCode}: ${text}`)),
          );
        },
      );
      req.once("error", reject);
      req.end(body);
    });
  let done = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return done / (ms / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const servers = ["ours", "sdk-v2"];
  const started = await Promise.all(servers.map(start));
  try {
    for (const [i, server] of started.entries()) {
      await drive(server.url, WARMUP_MS);
      console.error(`warmed up ${servers[i]}`);
    }
    const rates: number[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (k + round) % servers.length;
        rates[i]!.push(await drive(started[i]!.url, MEASURE_MS));
      }
      console.error(
        `round ${round + 1}/${ROUNDS}: ${servers.map((s, i) => `${s} ${Math.round(rates[i]!.at(-1)!)}/s`).join(", ")}`,
      );
    }
    const ratios = rates[0]!.map((ours, r) => ours / rates[1]![r]!);
    console.log(
      `tools/call over loopback HTTP at ${REVISION}, ${CONCURRENCY} in flight, ${ROUNDS} rounds of ${MEASURE_MS} ms`,
    );
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log("| server | requests/s (median) |");
    console.log("|---|---|");
    for (const [i, name] of servers.entries()) console.log(`| ${name} | ${Math.round(median(rates[i]!))} |`);
    console.log(
      `ours / sdk-v2: ${(median(rates[0]!) / median(rates[1]!)).toFixed(2)}x (per round ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`,
    );
  } finally {
    for (const server of started) server.child.kill();
  }
}

const which = process.env["BENCH_SERVER"];
if (which) console.log(await serve(which));
else await main();

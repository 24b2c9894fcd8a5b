// Benchmark: one service on one or two processes (issue 17), on this machine.
//   1. 2026-07-28 tools/call requests per second with 1 and with 2 server processes;
//   2. change-event fan-out latency through Redis: 100 open subscriptions/listen streams (50 on
//      each of two processes), a tools/list_changed published on one process (the `announce`
//      tool), the time until each stream has the notification; p50 and p99 over all streams and
//      events.
//
//   npm run bench:scale
//
// Environment:
//   BENCH_ROUNDS       timed rounds of part 1 (default 3): each measures 1 and 2 processes once
//   BENCH_MS           one measurement in ms (default 3000), after a 1000 ms warm-up
//   BENCH_CONCURRENCY  requests in flight, one keep-alive connection each (default 32)
//   BENCH_STREAMS      listen streams of part 2 (default 100)
//   BENCH_EVENTS       events published in part 2, one at a time (default 100)
//
// The servers are test/support/scale-node.ts (what test/scale.test.ts runs: a 2026-07-28 and a
// 2025-11-25 server on one endpoint, change events, session ownership and stream events in
// Redis), each in a child process on one Redis (test/support/redis.ts). This process is the load
// generator and balances itself, round robin over the processes' URLs: a proxy in between would
// take CPU from the servers on a 2-core machine. The load generator shares those two cores, so
// two processes cannot double one's figure here; read the ratio with that in mind.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { Agent, request } from "node:http";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort, startRedis } from "../test/support/redis.js";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
const MEASURE_MS = Number(process.env["BENCH_MS"] ?? 3000);
const CONCURRENCY = Number(process.env["BENCH_CONCURRENCY"] ?? 32);
const STREAMS = Number(process.env["BENCH_STREAMS"] ?? 100);
const EVENTS = Number(process.env["BENCH_EVENTS"] ?? 100);
const REVISION = "2026-07-28";
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

const meta = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const headersFor = (method: string, name?: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": REVISION,
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});
const call = (name: string, args: object) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: meta } });

async function startNode(name: string, redisUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", tsx, resolve("test/support/scale-node.ts")], {
    env: { ...process.env, NODE_NAME: name, NODE_PORT: String(port), REDIS_URL: redisUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((done, fail) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) done((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => fail(new Error(`node ${name} exited (${code})`)));
  });
  return { url, child };
}

/** Requests per second over `urls`, round robin, CONCURRENCY callers, for `ms`. */
async function rate(urls: readonly string[], ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = call("whoami", {});
  const headers = { ...headersFor("tools/call", "whoami"), "content-length": String(Buffer.byteLength(body)) };
  let next = 0;
  let done = 0;
  const deadline = Date.now() + ms;
  const one = (target: URL) =>
    new Promise<void>((ok, fail) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers, agent },
        (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 200 ? ok() : fail(new Error(`HTTP ${res.statusCode}`))));
        },
      );
      req.on("error", fail);
      req.end(body);
    });
  const targets = urls.map((url) => new URL(url));
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        await one(targets[next++ % targets.length]!);
        done++;
      }
    }),
  );
  const elapsed = Date.now() - started;
  agent.destroy();
  return (done * 1000) / elapsed;
}

/** A raw listen stream: calls `onEvent` with the receive time of each tools/list_changed. */
async function listen(url: string, onEvent: (at: number) => void, stop: AbortSignal): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor("subscriptions/listen"),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: { _meta: meta, notifications: { toolsListChanged: true } },
    }),
    signal: stop,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let acknowledged: () => void = () => {};
  const ready = new Promise<void>((done) => (acknowledged = done));
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (event.includes("subscriptions/acknowledged")) acknowledged();
          else if (event.includes("tools/list_changed")) onEvent(performance.now());
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  await ready;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const redis = await startRedis();
const nodes = await Promise.all(["A", "B"].map((name) => startNode(name, redis.url)));
try {
  const urls = nodes.map((n) => n.url);
  await rate(urls, 1000);
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const);
    for (const count of order) (count === 1 ? one : two).push(await rate(urls.slice(0, count), MEASURE_MS));
  }

  // Part 2: STREAMS listen streams, half on each process; events published on B.
  const stop = new AbortController();
  let pending = 0;
  let allIn: () => void = () => {};
  let sentAt = 0;
  const latencies: number[] = [];
  const onEvent = (at: number) => {
    latencies.push(at - sentAt);
    if (--pending === 0) allIn();
  };
  for (let i = 0; i < STREAMS; i++) await listen(urls[i % 2]!, onEvent, stop.signal);
  const announce = call("announce", { what: "tools" });
  for (let e = 0; e < EVENTS; e++) {
    pending = STREAMS;
    const arrived = new Promise<void>((done) => (allIn = done));
    sentAt = performance.now();
    const response = await fetch(urls[1]!, {
      method: "POST",
      headers: headersFor("tools/call", "announce"),
      body: announce,
    });
    const answer = (await response.json()) as { result?: { isError?: boolean } };
    if (answer.result?.isError) throw new Error("announce failed");
    await arrived;
  }
  stop.abort();
  const sorted = [...latencies].sort((a, b) => a - b);

  const cpu = cpus()[0]?.model ?? "unknown";
  console.log(`# bench/scale.ts — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} × ${cpu}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `\n## tools/call requests/s (${ROUNDS} rounds × ${MEASURE_MS} ms, ${CONCURRENCY} in flight; median, all rounds)`,
  );
  console.log(`| processes | req/s (median) | rounds |`);
  console.log(`|---|---|---|`);
  console.log(`| 1 | ${median(one).toFixed(0)} | ${one.map((v) => v.toFixed(0)).join(", ")} |`);
  console.log(`| 2 | ${median(two).toFixed(0)} | ${two.map((v) => v.toFixed(0)).join(", ")} |`);
  console.log(
    `\n## fan-out through Redis: ${STREAMS} listen streams on 2 processes, ${EVENTS} events published on one`,
  );
  console.log(`| samples | p50 ms | p99 ms | max ms |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| ${sorted.length} | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.99).toFixed(2)} | ${sorted.at(-1)!.toFixed(2)} |`,
  );
} finally {
  for (const node of nodes) node.child.kill("SIGKILL");
  await redis.dispose();
}

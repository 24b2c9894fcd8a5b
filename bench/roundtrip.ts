// Benchmark: round-trip requests/s of `tools/call` over an in-memory transport pair, the generated
// 2025-11-25 client + server against the official SDK's `Client` + `McpServer`, in one run.
//
//   npm run bench:roundtrip      (part of `npm run bench`; runs `tsx --expose-gc bench/roundtrip.ts`)
//
// Environment:
//   BENCH_ROUNDS       timed rounds (default 7); every round measures every (pairing, mode) once
//   BENCH_MS           length of one timed measurement in ms (default 400)
//   BENCH_WARMUP_MS    warm-up of every (pairing, mode) before the first round, in ms (default 1000)
//   BENCH_CONCURRENCY  requests in flight in the concurrent mode (default 32)
//   BENCH_ONLY         comma-separated pairing ids to run (default: all)
//   BENCH_MODE         sequential or concurrent to run only that mode (default: both)
//   BENCH_PAIRING      run one pairing in this process, with no child processes (for --cpu-prof):
//                        node --expose-gc --cpu-prof --import tsx bench/roundtrip.ts   with BENCH_PAIRING=ours
//
// Pairings (each connected once, handshake and tools/list done, then reused for every round):
//   ours         generated createClient + createServer over our createInMemoryTransportPair()
//   ours@sdk-tx  generated createClient + createServer over the SDK's InMemoryTransport.createLinkedPair()
//   sdk          SDK Client + McpServer over the SDK's InMemoryTransport.createLinkedPair()
//   sdk@our-tx   SDK Client + McpServer over our createInMemoryTransportPair()
//   sdk-v2       SDK v2 (@modelcontextprotocol/client + /server 2.4.0) over its own InMemoryTransport pair
//   ours-registry  generated createClient + the generated registry (createMcpServer, registerTool with the
//                same zod schema as sdk-v2's registerTool) over our createInMemoryTransportPair()
//   ours-noval   diagnostic: as ours, with validate: false on both sides
//   ours-tsx     diagnostic: as ours, but the .ts sources loaded through tsx (see compileOurs)
// Our code is measured as users run it: compiled to JavaScript by TypeScript (see compileOurs).
// The two transports differ: ours delivers each message in a microtask (as over a real connection);
// the SDK's calls the other side's onmessage synchronously inside send(). Both pass the message
// object by reference (no JSON serialisation), so neither side pays for JSON.
//
// The request is tools/call { name: "echo", arguments: { message: "hello" } }; the answer is
// { content: [{ type: "text", text: "hello" }] }. Validation, as each stack does it by default:
//   ours  every incoming message goes through the generated validateMessage (the server checks the
//         JSON-RPC request and CallToolRequest; the client checks the response and CallToolResult).
//         The generated server does not know tool input schemas, so the handler checks
//         `typeof arguments.message === "string"` by hand (the equivalent of the SDK's zod shape).
//   sdk   zod: envelope classification (isJSONRPCResultResponse/ErrorResponse/Request) on every
//         message, CallToolRequestSchema (twice on the server: McpServer's tools/call wrapper and
//         Protocol.setRequestHandler), the tool's input shape { message: z.string() },
//         CallToolResultSchema on the server's answer and again on the client.
//
// Modes: sequential (one caller awaits each call before the next) and concurrent
// (BENCH_CONCURRENCY callers, each awaiting its own calls, so that many requests are in flight).
//
// Timing: every pairing lives in a child process of its own (its own heap and JIT: run in one
// process, the pairings slow each other down, the SDK by up to 30% next to ours and by half next
// to ours-tsx). This process drives them in turn, one measurement at a time, so only one of them
// runs at any moment: every (pairing, mode) is warmed up first, in 100 ms slices taking turns,
// then BENCH_ROUNDS rounds; each round measures every (pairing, mode) for BENCH_MS, in an order
// that rotates per round, so machine noise hits all alike. With --expose-gc a full GC runs before
// each measurement, off the clock. Two figures per measurement: requests per second of wall time,
// and requests per second of the child's CPU time (user + system, from process.cpuUsage; it
// includes V8's GC helper threads, and it does not count time spent waiting for a CPU, so it holds
// better on a loaded machine). Medians over rounds; ratios are median / median, with the range of
// the per-round ratios. The load average is printed: run it on an idle machine.
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { Transport } from "../runtime/index.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const num = (name: string, fallback: number, min: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(value) ? Math.max(min, value) : fallback;
};
const ROUNDS = num("BENCH_ROUNDS", 7, 1);
const BENCH_MS = num("BENCH_MS", 400, 20);
const WARMUP_MS = num("BENCH_WARMUP_MS", 1000, 0);
const CONCURRENCY = num("BENCH_CONCURRENCY", 32, 2);
const ONLY = process.env.BENCH_ONLY?.split(",")
  .map((s) => s.trim())
  .filter(Boolean);

type Mode = "sequential" | "concurrent";
const MODES: readonly Mode[] = (["sequential", "concurrent"] as const).filter(
  (mode) => !process.env.BENCH_MODE || process.env.BENCH_MODE === mode,
);

const PAIRINGS: readonly { id: string; label: string }[] = [
  { id: "ours", label: "ours, our transport" },
  { id: "ours@sdk-tx", label: "ours, SDK transport" },
  { id: "sdk", label: "SDK, SDK transport" },
  { id: "sdk@our-tx", label: "SDK, our transport" },
  { id: "sdk-v2", label: "SDK v2, SDK v2 transport" },
  { id: "ours-registry", label: "ours, registry + zod, our tx" },
  { id: "ours-noval", label: "ours, validate: false, our tx" },
  { id: "ours-tsx", label: "ours, .ts through tsx, our tx" },
];

const TOOL = "echo";
const ARGS = { message: "hello" };
const INFO = { name: "bench", version: "1.0.0" };

/** One connected client + server; `call` performs one tools/call round trip. */
interface Pairing {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Side A: the generated client and server

/** Our code as one module: the generated revision and the runtime it imports. */
type Ours = typeof import("../generated/2025-11-25/index.js") & typeof import("../runtime/index.js");

/**
 * Our code as users run it: compiled to JavaScript by TypeScript (what `npm run build` puts in
 * dist/), here with ts.transpileModule from the current sources into a temporary directory.
 * Loading the .ts sources through tsx instead runs them through esbuild with `keepNames`, which
 * wraps every function expression in a `__name` helper (an Object.defineProperty call each time
 * a closure is created; our server creates a dozen closures per request). tsx does the same to
 * plain .js files outside node_modules, but leaves .mjs files and node_modules (the SDK) alone, so
 * the compiled files are written as .mjs. The ours-tsx pairing measures the sources as tsx serves them.
 */
async function compileOurs(out: string): Promise<void> {
  const ts = (await import("typescript")).default;
  // Every folder of the runtime (it grows concerns: http/, rules/, server/, …) and every revision's
  // code: 2025-11-25's createMcpServer serves the others' clients too (generated/<rev>/every-revision.ts).
  const folders = (dir: string): string[] => [
    dir,
    ...readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => folders(join(dir, entry.name))),
  ];
  const revisions = readdirSync(join(ROOT, "generated"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "diffs")
    .map((entry) => join("generated", entry.name));
  for (const dir of [...folders("runtime"), ...revisions]) {
    mkdirSync(join(out, dir), { recursive: true });
    for (const file of readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))) {
      const { outputText } = ts.transpileModule(readFileSync(join(ROOT, dir, file), "utf8"), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
        fileName: file,
      });
      const code = outputText.replace(/(from\s+"\.{1,2}\/[^"]*)\.js"/g, '$1.mjs"');
      writeFileSync(join(out, dir, file.replace(/\.ts$/, ".mjs")), code);
    }
  }
}

async function loadOurs(compiledDir: string | undefined): Promise<Ours> {
  if (compiledDir === undefined) {
    const generated = await import("../generated/2025-11-25/index.js");
    const runtime = await import("../runtime/index.js");
    return { ...runtime, ...generated };
  }
  const url = (path: string) => pathToFileURL(join(compiledDir, path)).href;
  const generated = (await import(url("generated/2025-11-25/index.mjs"))) as Ours;
  const runtime = (await import(url("runtime/index.mjs"))) as Ours;
  for (const fn of [generated.createServer, generated.createClient, runtime.Peer])
    if (String(fn).includes("__name(")) throw new Error("the compiled code was transformed again on loading");
  return { ...runtime, ...generated };
}

async function ours(mod: Ours, transports: [Transport, Transport], validate: boolean): Promise<Pairing> {
  const { createClient, createServer, RpcError } = mod;
  const [clientSide, serverSide] = transports;
  const server = createServer({
    serverInfo: INFO,
    validate,
    handlers: {
      listTools: () => ({
        tools: [
          {
            name: TOOL,
            description: "Echoes its message",
            inputSchema: {
              type: "object",
              properties: { message: { type: "string" } },
              required: ["message"],
            },
          },
        ],
      }),
      callTool: (params) => {
        if (params.name !== TOOL) throw new RpcError(-32602, `unknown tool ${params.name}`);
        const message = params.arguments?.["message"];
        if (typeof message !== "string") throw new RpcError(-32602, "message must be a string");
        return { content: [{ type: "text", text: message }] };
      },
    },
  });
  await server.connect(serverSide);
  const client = createClient({ transport: clientSide, clientInfo: INFO, validate });
  await client.connect();
  await client.listTools();
  const params = { name: TOOL, arguments: ARGS };
  return { call: () => client.callTool(params), close: () => client.close() };
}

/** The registry on the generated server: the tool registered with a zod schema, checked before the handler. */
async function oursRegistry(mod: Ours): Promise<Pairing> {
  const { createClient, createMcpServer, createInMemoryTransportPair } = mod;
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const mcp = createMcpServer({ serverInfo: INFO });
  mcp.registerTool(
    TOOL,
    { description: "Echoes its message", inputSchema: z.object({ message: z.string() }) },
    ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  await mcp.connect(serverSide);
  const client = createClient({ transport: clientSide, clientInfo: INFO });
  await client.connect();
  await client.listTools();
  const params = { name: TOOL, arguments: ARGS };
  return { call: () => client.callTool(params), close: () => client.close() };
}

// ---------------------------------------------------------------------------------------------------
// Side B: the official SDK

async function sdk(transports: [SdkTransport, SdkTransport]): Promise<Pairing> {
  const [clientSide, serverSide] = transports;
  const server = new McpServer(INFO);
  server.registerTool(
    TOOL,
    { description: "Echoes its message", inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  await server.connect(serverSide);
  const client = new SdkClient(INFO, { capabilities: {} });
  await client.connect(clientSide);
  await client.listTools();
  const params = { name: TOOL, arguments: ARGS };
  return { call: () => client.callTool(params), close: () => client.close() };
}

/** The official SDK v2 (@modelcontextprotocol/server + /client 2.4.0), same tool, its own in-memory pair, 2025-era. */
async function sdkV2(): Promise<Pairing> {
  const { McpServer: McpServerV2, InMemoryTransport: InMemoryV2 } = await import("@modelcontextprotocol/server");
  const { Client: ClientV2 } = await import("@modelcontextprotocol/client");
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
  const server = new McpServerV2(INFO);
  server.registerTool(
    TOOL,
    { description: "Echoes its message", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  await server.connect(serverSide);
  const client = new ClientV2(INFO, { capabilities: {} });
  await client.connect(clientSide);
  await client.listTools();
  const params = { name: TOOL, arguments: ARGS };
  return { call: () => client.callTool(params), close: () => client.close() };
}

async function setUp(id: string, compiledDir: string | undefined): Promise<Pairing> {
  const sdkPair = () => InMemoryTransport.createLinkedPair();
  const compiled = async () => {
    if (compiledDir === undefined) throw new Error(`${id} needs the compiled code`);
    return loadOurs(compiledDir);
  };
  switch (id) {
    case "ours": {
      const mod = await compiled();
      return ours(mod, mod.createInMemoryTransportPair(), true);
    }
    case "ours@sdk-tx":
      return ours(await compiled(), sdkPair(), true);
    case "sdk":
      return sdk(sdkPair());
    case "sdk-v2":
      return sdkV2();
    case "ours-registry":
      return oursRegistry(await compiled());
    case "sdk@our-tx":
      // Our Transport is structurally the SDK's; only the message type is narrower in ours.
      return sdk((await compiled()).createInMemoryTransportPair() as unknown as [SdkTransport, SdkTransport]);
    case "ours-noval": {
      const mod = await compiled();
      return ours(mod, mod.createInMemoryTransportPair(), false);
    }
    case "ours-tsx": {
      const mod = await loadOurs(undefined);
      return ours(mod, mod.createInMemoryTransportPair(), true);
    }
  }
  throw new Error(`unknown pairing ${id}`);
}

/** The answer must be the echoed text, or the pairing measures something else. */
async function check(id: string, pairing: Pairing): Promise<void> {
  const result = (await pairing.call()) as { content?: { type?: string; text?: string }[] };
  const first = result.content?.[0];
  if (first?.type !== "text" || first.text !== ARGS.message)
    throw new Error(`${id}: unexpected tools/call result ${JSON.stringify(result)}`);
}

// ---------------------------------------------------------------------------------------------------
// Measurement (in the pairing's process)

/** Requests per second of wall time, and per second of this process's CPU time (user + system). */
interface Figure {
  wall: number;
  cpu: number;
}

/** Calls until `ms` have passed. */
async function measure(pairing: Pairing, mode: Mode, ms: number): Promise<Figure> {
  // A full collection first (with --expose-gc, as `npm run bench:roundtrip` runs it), off the clock.
  (globalThis as { gc?: () => void }).gc?.();
  const call = pairing.call;
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + ms;
  const worker = async () => {
    while (performance.now() < deadline) {
      await call();
      count++;
    }
  };
  if (mode === "sequential") await worker();
  else await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall: (count * 1000) / elapsed, cpu: (count * 1e6) / (cpu.user + cpu.system) };
}

type Command = { type: "measure"; mode: Mode; ms: number } | { type: "close" };
type Reply = { type: "ready" } | { type: "figure"; figure: Figure } | { type: "error"; message: string };

/** A child process: sets up one pairing, then measures on command. */
async function child(id: string): Promise<void> {
  const send = (reply: Reply) => process.send!(reply);
  let pairing: Pairing;
  try {
    pairing = await setUp(id, process.env.BENCH_COMPILED_DIR);
    await check(id, pairing);
  } catch (error) {
    send({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.disconnect();
    return;
  }
  process.on("message", (command: Command) => {
    if (command.type === "close") {
      void pairing.close().finally(() => process.disconnect());
      return;
    }
    measure(pairing, command.mode, command.ms).then(
      (figure) => send({ type: "figure", figure }),
      (error: unknown) => send({ type: "error", message: String(error) }),
    );
  });
  send({ type: "ready" });
}

/** The parent's handle on a child: one command at a time. */
class Remote {
  private waiting: { resolve(reply: Reply): void; reject(error: Error): void } | undefined;
  private readonly process: ChildProcess;
  readonly ready: Promise<void>;

  constructor(
    readonly id: string,
    compiledDir: string,
  ) {
    const execArgv = process.execArgv.includes("--expose-gc") ? process.execArgv : [...process.execArgv, "--expose-gc"];
    this.process = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_CHILD: id, BENCH_COMPILED_DIR: compiledDir },
      execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.process.on("message", (reply: Reply) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (reply.type === "error") waiting?.reject(new Error(`${id}: ${reply.message}`));
      else waiting?.resolve(reply);
    });
    this.process.on("exit", (code) => this.waiting?.reject(new Error(`${id}: the child exited (${code})`)));
    this.ready = this.next().then(() => undefined);
  }

  private next(): Promise<Reply> {
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async measure(mode: Mode, ms: number): Promise<Figure> {
    const reply = this.next();
    this.process.send({ type: "measure", mode, ms } satisfies Command);
    const answer = await reply;
    if (answer.type !== "figure") throw new Error(`${this.id}: unexpected ${answer.type}`);
    return answer.figure;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.process.exitCode !== null || !this.process.connected) return resolve();
      this.process.once("exit", () => resolve());
      this.process.send({ type: "close" } satisfies Command);
    });
  }

  kill(): void {
    if (this.process.exitCode === null) this.process.kill();
  }
}

// ---------------------------------------------------------------------------------------------------
// Report (in the parent)

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const pad = (cells: readonly string[], widths: readonly number[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const COMPARISONS: readonly [string, string, string][] = [
  ["same transport (SDK's): ours@sdk-tx / sdk", "ours@sdk-tx", "sdk"],
  ["same transport (ours): ours / sdk@our-tx", "ours", "sdk@our-tx"],
  ["each stack's own transport: ours / sdk", "ours", "sdk"],
  ["each stack's own transport: ours / sdk-v2", "ours", "sdk-v2"],
  ["registerTool with zod: ours-registry / sdk-v2", "ours-registry", "sdk-v2"],
  ["diagnostic: ours-noval / ours", "ours-noval", "ours"],
  ["diagnostic: ours-tsx / ours", "ours-tsx", "ours"],
];

function report(figures: Map<string, Figure[]>, ids: readonly string[]): void {
  const key = (id: string, mode: Mode) => `${id} ${mode}`;
  const metrics: [keyof Figure, string][] = [
    ["wall", "requests/s of wall time"],
    ["cpu", "requests per CPU-second of the pairing's process (user + system)"],
  ];
  for (const [metric, title] of metrics) {
    const series = (id: string, mode: Mode) => figures.get(key(id, mode))?.map((f) => f[metric]);
    const widths = [30, 11, 17, 11, 17];
    console.log(`\n${title}: median of ${ROUNDS} rounds (min-max)`);
    console.log(pad(["pairing", ...MODES.flatMap((mode) => [mode, "(min-max)"])], widths));
    for (const { id, label } of PAIRINGS.filter((p) => ids.includes(p.id))) {
      const cells = [label];
      for (const mode of MODES) {
        const xs = series(id, mode)!;
        cells.push(fmt(median(xs)), `(${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`);
      }
      console.log(pad(cells, widths));
    }
    console.log(`ratios, median / median (per-round range); target ours / sdk >= 2.00`);
    for (const [name, a, b] of COMPARISONS) {
      const cells = [name.padEnd(42)];
      for (const mode of MODES) {
        const xs = series(a, mode);
        const ys = series(b, mode);
        if (!xs || !ys) continue;
        const perRound = xs.map((x, i) => x / ys[i]!);
        cells.push(
          `${mode} ${(median(xs) / median(ys)).toFixed(2)} ` +
            `(${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)})`,
        );
      }
      if (cells.length > 1) console.log(cells.join("   "));
    }
  }
}

/** Drives `measure` over every (pairing, mode): warm-up, then interleaved rounds. */
async function drive(
  ids: readonly string[],
  measureOne: (id: string, mode: Mode, ms: number) => Promise<Figure>,
): Promise<Map<string, Figure[]>> {
  const jobs = ids.flatMap((id) => MODES.map((mode) => ({ id, mode })));
  const slice = 100;
  for (let spent = 0; spent < WARMUP_MS; spent += slice)
    for (const { id, mode } of jobs) await measureOne(id, mode, slice);
  const figures = new Map<string, Figure[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < jobs.length; j++) {
      const { id, mode } = jobs[(j + round) % jobs.length]!;
      const figure = await measureOne(id, mode, BENCH_MS);
      figures.set(`${id} ${mode}`, [...(figures.get(`${id} ${mode}`) ?? []), figure]);
    }
    console.log(`round ${round + 1}/${ROUNDS} done (load average ${load()})`);
  }
  return figures;
}

async function parent(): Promise<void> {
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB`;
  console.log(
    `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "?"}), ${memory}; ` +
      `load average ${load()}`,
  );
  const gc = typeof (globalThis as { gc?: unknown }).gc === "function";
  console.log(
    `rounds ${ROUNDS} x ${BENCH_MS} ms, warm-up ${WARMUP_MS} ms, concurrency ${CONCURRENCY}, ` +
      `gc before each measurement: ${gc ? "yes" : "no (run with --expose-gc)"}`,
  );

  // One pairing in this process (for profiling): the compiled code goes to a temporary directory.
  const single = process.env.BENCH_PAIRING;
  const ids = single ? [single] : PAIRINGS.map((p) => p.id).filter((id) => !ONLY || ONLY.includes(id));
  const out = mkdtempSync(join(tmpdir(), "mcp-gen-roundtrip-"));
  const remotes: Remote[] = [];
  try {
    await compileOurs(out);
    let figures: Map<string, Figure[]>;
    if (single) {
      const pairing = await setUp(single, out);
      await check(single, pairing);
      figures = await drive(ids, (_id, mode, ms) => measure(pairing, mode, ms));
      await pairing.close();
    } else {
      console.log(`one child process per pairing: ${ids.join(", ")}`);
      for (const id of ids) remotes.push(new Remote(id, out));
      await Promise.all(remotes.map((r) => r.ready));
      const byId = new Map(remotes.map((r) => [r.id, r]));
      figures = await drive(ids, (id, mode, ms) => byId.get(id)!.measure(mode, ms));
      await Promise.all(remotes.map((r) => r.close()));
    }
    report(figures, ids);
    console.log(`\nload average after: ${load()}`);
  } finally {
    for (const r of remotes) r.kill();
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.env.BENCH_CHILD) await child(process.env.BENCH_CHILD);
else await parent();

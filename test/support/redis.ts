// A throwaway redis-server for tests: found on PATH or where `node scripts/get-redis.mjs` (the
// README's set-up) unpacks Debian's, started on a free loopback port with an empty temporary
// directory and no persistence, ready once it answers PING. Restartable on the same port, for
// the tests of a Redis outage.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const UNPACKED = resolve(".cache/redis/root");

/** The redis-server binary and the environment it runs in; throws naming what is missing and how to get it. */
export function findRedis(): { command: string; env: NodeJS.ProcessEnv } {
  const onPath = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (onPath.status === 0) return { command: onPath.stdout.trim(), env: process.env };
  const command = join(UNPACKED, "usr/bin/redis-server");
  if (existsSync(command))
    return { command, env: { ...process.env, LD_LIBRARY_PATH: join(UNPACKED, "usr/lib/x86_64-linux-gnu") } };
  throw new Error(
    "redis-server is missing: these tests need it. Run `node scripts/get-redis.mjs` (downloads Debian's " +
      "redis-server with apt-get download into .cache/redis/, no root) or put a redis-server on PATH",
  );
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

/** Whether something on `port` answers PING with PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      answer(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: an outage, not a shutdown) and resolves once it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const { command, env } = findRedis();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcp-redis-"));
  let child: ChildProcess | undefined;
  const output: string[] = [];

  async function start(): Promise<void> {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"];
    const started = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    started.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    started.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    // Bounded poll for readiness: PING until PONG, at most 10 s.
    const deadline = Date.now() + 10_000;
    while (!(await ping(port))) {
      if (started.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on port ${port}:\n${output.join("")}`);
      await new Promise((next) => setImmediate(next));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((done) => running.once("exit", done));
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

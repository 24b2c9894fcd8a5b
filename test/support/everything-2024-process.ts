// server-everything 0.6.2 (official SDK 1.0.1, 2024-11-05 only), installed through the local
// package test/fixtures/peers: its files, and its HTTP+SSE server (`dist/sse.js`, express and SDK
// 1.0.1's SSEServerTransport) as a process on a free loopback port. No vitest here: the soak
// (scripts/soak/) starts it too. That server keeps one global transport and exits when its SSE
// stream closes, so each session needs a process of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";

const require = createRequire(new URL("../fixtures/peers/package.json", import.meta.url));

/** A file of the server's package: `dist/index.js` (stdio) or `dist/sse.js` (HTTP+SSE). */
export function everything2024File(file: "index.js" | "sse.js"): string {
  const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const { version } = require(manifest) as { version: string };
  if (version !== "0.6.2") throw new Error(`test/fixtures/peers has server-everything ${version}, expected 0.6.2`);
  return join(dirname(manifest), "dist", file);
}

/** A port nobody listens on right now (the server may still lose it to a race: then it is retried). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, "close");
  return port;
}

export interface EverythingProcess {
  /** The SSE stream's URL. */
  readonly url: string;
  readonly process: ChildProcess;
  /** The last 4 KiB of its stderr. */
  stderr(): string;
  stop(): Promise<void>;
}

/** server-everything 0.6.2 over HTTP+SSE, once it says it listens (within 20 s). */
export async function startEverything(attempts = 3): Promise<EverythingProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything2024File("sse.js")], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.setEncoding("utf8");
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
  let output = "";
  const onOutput = (chunk: string) => (output += chunk);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 20_000);
    child.stdout.on("data", (chunk: string) => {
      onOutput(chunk);
      if (output.includes(`Server is running on port ${port}`)) resolve(true);
    });
    child.once("exit", () => resolve(false));
    child.once("error", () => resolve(false));
  });
  clearTimeout(timer);
  // It logs a line per message: read on, keep nothing.
  child.stdout.removeAllListeners("data");
  child.stdout.resume();
  const exited = child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  if (ready) return { url: `http://127.0.0.1:${port}/sse`, process: child, stderr: () => stderr, stop };
  await stop();
  const said = output + stderr;
  if (exited && attempts > 1 && said.includes("EADDRINUSE")) return startEverything(attempts - 1);
  throw new Error(`server-everything 0.6.2 (sse) did not start on port ${port}: ${said.slice(-500)}`);
}

// Newline-delimited JSON over stdio: a client transport that spawns a server process (its
// environment and, on Windows, its command line from ./stdio-spawn.ts), and a server transport on
// this process's own stdin/stdout. Node only, so it is not in index.ts; it types the few Node
// APIs it uses itself, so vendored code compiles without @types/node.
import type { JsonRpcMessage } from "./jsonrpc.js";
import { resolveCommand, serverEnvironment } from "./stdio-spawn.js";
import type { Transport } from "./transport.js";

export { DEFAULT_INHERITED_ENV, defaultEnvironment } from "./stdio-spawn.js";

interface ReadableLike {
  setEncoding(encoding: "utf8"): unknown;
  on(event: "data", listener: (chunk: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "end", listener: () => void): unknown;
  pause(): unknown;
}

interface WritableLike {
  readonly destroyed?: boolean;
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  end(): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

interface ChildProcessLike {
  readonly stdin: WritableLike | null;
  readonly stdout: ReadableLike | null;
  readonly stderr: ReadableLike | null;
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string): boolean;
  once(event: "spawn" | "exit", listener: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
}

type Spawn = (
  command: string,
  args: readonly string[],
  options: {
    env: Record<string, string>;
    cwd?: string;
    stdio: readonly string[];
    shell: false;
    windowsHide: true;
    windowsVerbatimArguments: boolean;
  },
) => ChildProcessLike;

interface ProcessLike {
  readonly stdin: ReadableLike;
  readonly stdout: WritableLike;
  readonly env: Record<string, string | undefined>;
  readonly platform: string;
  cwd(): string;
}

const nodeProcess = () => (globalThis as unknown as { process: ProcessLike }).process;

/**
 * Splits a character stream into lines and parses each as JSON. A bad line is reported, not fatal;
 * a line longer than the limit is dropped whole, up to its newline, so no tail of it is read as a
 * message of its own.
 */
class LineReader {
  /** The pieces of a line whose newline has not arrived yet (joined once: linear in the stream). */
  private pending: string[] = [];
  private pendingLength = 0;
  private discarding = false;

  private readonly maxLineLength: number;

  constructor(maxLineLength: number) {
    this.maxLineLength = maxLineLength;
  }

  push(chunk: string, onMessage: (message: JsonRpcMessage) => void, onError: (error: Error) => void): void {
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", start)) {
      const piece = chunk.slice(start, newline);
      start = newline + 1;
      const joined = this.pending.length > 0 ? this.pending.join("") + piece : piece;
      this.pending = [];
      this.pendingLength = 0;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      this.line(joined.endsWith("\r") ? joined.slice(0, -1) : joined, onMessage, onError);
    }
    if (start < chunk.length && !this.discarding) {
      this.pending.push(chunk.slice(start));
      this.pendingLength += chunk.length - start;
    }
    if (this.pendingLength > this.maxLineLength) {
      this.pending = [];
      this.pendingLength = 0;
      this.discarding = true;
      onError(new SyntaxError(`a line longer than ${this.maxLineLength} characters was dropped`));
    }
  }

  private line(line: string, onMessage: (message: JsonRpcMessage) => void, onError: (error: Error) => void): void {
    if (line.length > this.maxLineLength) {
      onError(new SyntaxError(`a line longer than ${this.maxLineLength} characters was dropped`));
      return;
    }
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      onError(error instanceof SyntaxError ? error : new SyntaxError(String(error)));
      return;
    }
    onMessage(message as JsonRpcMessage);
  }
}

abstract class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  protected closed = false;
  private readonly reader = new LineReader(64 * 1024 * 1024);

  abstract start(): Promise<void>;
  abstract close(): Promise<void>;
  protected abstract output(): WritableLike | null | undefined;

  protected attach(input: ReadableLike): void {
    input.setEncoding("utf8");
    input.on("data", (chunk) =>
      this.reader.push(
        chunk,
        (message) => this.onmessage?.(message),
        (error) => this.onerror?.(error),
      ),
    );
    input.on("error", (error) => this.onerror?.(error));
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const out = this.output();
    if (this.closed || !out || out.destroyed) return Promise.reject(new Error("the stdio transport is closed"));
    return new Promise((resolve, reject) => {
      out.write(JSON.stringify(message) + "\n", (error) => (error ? reject(error) : resolve()));
    });
  }

  protected finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

export interface StdioServerParameters {
  /** On Windows a .cmd or .bat (`npx`, a package's bin shim) runs through cmd.exe, its arguments escaped for it. */
  command: string;
  args?: string[];
  /**
   * The server's variables, over a few harmless ones of this process's (DEFAULT_INHERITED_ENV:
   * PATH, HOME and the like). Without `env`, the server inherits this process's whole environment.
   */
  env?: Record<string, string>;
  /** false: the server gets exactly `env` (nothing at all without it). Default true. */
  inheritDefaultEnv?: boolean;
  cwd?: string;
  /** "inherit" passes the server's stderr through; "pipe" captures it (see `stderr`). Default "inherit". */
  stderr?: "inherit" | "pipe" | "ignore";
  /** After stdin closes, how long to wait before SIGTERM, and again before SIGKILL (ms; default 2000). */
  shutdownGraceMs?: number;
}

/** Spawns a server command and speaks to it over its stdin/stdout. */
export class StdioClientTransport extends LineTransport {
  private child: ChildProcessLike | undefined;

  private readonly parameters: StdioServerParameters;

  constructor(parameters: StdioServerParameters) {
    super();
    this.parameters = parameters;
  }

  /** The server's stderr when `stderr: "pipe"`. */
  get stderr(): ReadableLike | null {
    return this.child?.stderr ?? null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("StdioClientTransport already started");
    const [childProcess, fs] = ["node:child_process", "node:fs"];
    const { spawn } = (await import(childProcess)) as { spawn: Spawn };
    const { statSync } = (await import(fs)) as { statSync(path: string): { isFile(): boolean } };
    const { command, args, env, inheritDefaultEnv, cwd } = this.parameters;
    const own = nodeProcess();
    const childEnv = serverEnvironment(env, inheritDefaultEnv ?? true, own.platform, own.env);
    const run = resolveCommand(command, args ?? [], {
      platform: own.platform,
      env: childEnv,
      cwd: cwd ?? own.cwd(),
      comspec: own.env["ComSpec"],
      isFile: (path) => {
        try {
          return statSync(path).isFile();
        } catch {
          return false;
        }
      },
    });
    await new Promise<void>((resolve, reject) => {
      const child = spawn(run.command, run.args, {
        env: childEnv,
        ...(cwd !== undefined ? { cwd } : {}),
        stdio: ["pipe", "pipe", this.parameters.stderr ?? "inherit"],
        shell: false,
        windowsHide: true,
        windowsVerbatimArguments: run.windowsVerbatimArguments,
      });
      this.child = child;
      child.once("error", (error) => {
        this.onerror?.(error);
        reject(error);
      });
      child.once("spawn", () => resolve());
      child.once("exit", () => this.finish());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      if (child.stdout) this.attach(child.stdout);
    });
  }

  protected output(): WritableLike | null | undefined {
    return this.child?.stdin;
  }

  /** Closes stdin, then sends SIGTERM, then SIGKILL, until the process is gone. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.finish();
      return;
    }
    const grace = this.parameters.shutdownGraceMs ?? 2000;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const within = (ms: number) =>
      Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          (timer as { unref?: () => void }).unref?.();
        }),
      ]);
    child.stdin?.end();
    if (!(await within(grace))) {
      child.kill("SIGTERM");
      if (!(await within(grace))) child.kill("SIGKILL");
    }
    await exited;
    this.finish();
  }
}

/** This process's stdin/stdout, for servers that a client spawns. */
export class StdioServerTransport extends LineTransport {
  private readonly input: ReadableLike;
  private readonly out: WritableLike;

  constructor(input?: ReadableLike, out?: WritableLike) {
    super();
    this.input = input ?? nodeProcess().stdin;
    this.out = out ?? nodeProcess().stdout;
  }

  async start(): Promise<void> {
    this.attach(this.input);
    this.input.once("end", () => this.finish());
  }

  protected output(): WritableLike {
    return this.out;
  }

  async close(): Promise<void> {
    this.input.pause();
    this.finish();
  }
}

// mcp-gen.config.json: the revisions a project vendors and the `tools` modules it keeps, so that
// `mcp-gen` alone regenerates them all and `mcp-gen --check` verifies them all. Paths are relative
// to the file (but a tools module's `runtime`, an import specifier as the module writes it); `${NAME}`
// in a header value is read from the environment (credentials stay out of it).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileSystemError, InputError } from "../errors.js";

export const CONFIG_FILE = "mcp-gen.config.json";

/** A vendored revision; `out` is absolute. */
export interface RevisionEntry {
  rev: string;
  out: string;
}

/** A `tools` module with its source; paths are absolute, `timeout` in seconds. */
export interface ToolsEntry {
  stdio?: string;
  url?: string;
  headers?: string[];
  from?: string;
  rev?: string;
  out: string;
  /** As `mcp-gen tools --runtime`. */
  runtime?: string;
  save?: string;
  timeout?: number;
}

export interface Config {
  file: string;
  revisions: RevisionEntry[];
  tools: ToolsEntry[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The config file to use: `--config FILE`, or mcp-gen.config.json in the working directory if there is one. */
export function findConfig(explicit: string | undefined): string | undefined {
  if (explicit !== undefined) return resolve(explicit);
  const here = resolve(CONFIG_FILE);
  return existsSync(here) ? here : undefined;
}

export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    if (error instanceof SyntaxError) throw new InputError(`${file}: not JSON (${error.message})`);
    throw fileSystemError(error, file);
  }
  const read = new Reader(file);
  const dir = dirname(file);
  const top = read.object(raw, "top level", ["$schema", "revisions", "tools"]);
  const revisions = read.list(top.revisions, "revisions").map((value, i): RevisionEntry => {
    const entry = read.object(value, `revisions[${i}]`, ["rev", "out"]);
    return { rev: read.text(entry, "rev"), out: resolve(dir, read.text(entry, "out")) };
  });
  const tools = read.list(top.tools, "tools").map((value, i): ToolsEntry => {
    const at = `tools[${i}]`;
    const entry = read.object(value, at, [
      "stdio",
      "url",
      "headers",
      "from",
      "rev",
      "out",
      "runtime",
      "save",
      "timeout",
    ]);
    if (["stdio", "url", "from"].filter((k) => entry[k] !== undefined).length !== 1) {
      read.fail(at, 'give exactly one of "stdio", "url" and "from"');
    }
    const tool: ToolsEntry = { out: resolve(dir, read.text(entry, "out")) };
    for (const key of ["stdio", "url", "rev", "runtime"] as const)
      if (entry[key] !== undefined) tool[key] = read.text(entry, key);
    for (const key of ["from", "save"] as const)
      if (entry[key] !== undefined) tool[key] = resolve(dir, read.text(entry, key));
    if (entry.headers !== undefined) {
      const headers = entry.headers;
      if (!Array.isArray(headers) || !headers.every((h) => typeof h === "string")) {
        read.fail(`${at}.headers`, 'expected an array of "Name: value" strings');
      }
      tool.headers = (headers as string[]).map((h, j) =>
        h.replace(
          /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g,
          (_, name: string) =>
            env[name] ?? read.fail(`${at}.headers[${j}]`, `\${${name}} is not set in the environment`),
        ),
      );
    }
    if (entry.timeout !== undefined) {
      if (typeof entry.timeout !== "number" || !(entry.timeout > 0)) read.fail(`${at}.timeout`, "expected seconds > 0");
      tool.timeout = entry.timeout as number;
    }
    return tool;
  });
  if (revisions.length + tools.length === 0) read.fail("top level", 'nothing to generate: add "revisions" or "tools"');
  return { file, revisions, tools };
}

/** Reads a parsed config, failing with `file: where: why` (exit 2). */
class Reader {
  constructor(private readonly file: string) {}

  fail(where: string, why: string): never {
    throw new InputError(`${this.file}: ${where}: ${why}`);
  }

  object(value: unknown, at: string, keys: string[]): Json & { at: string } {
    if (!isObject(value)) return this.fail(at, "expected an object");
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) this.fail(at, `unknown key "${key}" (known: ${keys.join(", ")})`);
    }
    return { ...value, at };
  }

  list(value: unknown, at: string): unknown[] {
    if (value === undefined) return [];
    return Array.isArray(value) ? value : this.fail(at, "expected an array");
  }

  text(entry: Json & { at: string }, key: string): string {
    const value = entry[key];
    return typeof value === "string" && value !== ""
      ? value
      : this.fail(`${entry.at}.${key}`, "expected a non-empty string");
  }
}

// The server list in the shape desktop hosts read (`{ "mcpServers": { name: entry } }`), checked
// entry by entry so a bad file is reported with every problem and where it is, before anything
// is spawned.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { checkAuthSettings, type AuthSettings } from "./auth.js";
import { serverNameProblem } from "./namespace.js";

/** A server the host spawns and speaks to over its stdin/stdout. */
export interface StdioServerEntry {
  type?: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** mcp-gen's addition: this server's request and negotiation timeout, in ms. */
  timeoutMs?: number;
  /** Skipped by the host, as desktop hosts do. */
  disabled?: boolean;
}

/**
 * A server the host reaches over HTTP: `type` "http" or "streamable-http" means Streamable HTTP only,
 * "sse" the HTTP+SSE transport of 2024-11-05 only; without a type, Streamable HTTP falling back to it.
 */
export interface UrlServerEntry {
  type?: "http" | "streamable-http" | "sse";
  url: string;
  headers?: Record<string, string>;
  /** mcp-gen's addition: OAuth authorization (docs/authorization.md); `true` for the defaults. */
  auth?: AuthSettings | true;
  timeoutMs?: number;
  disabled?: boolean;
}

export type ServerEntry = StdioServerEntry | UrlServerEntry;

export interface HostConfig {
  mcpServers: Record<string, ServerEntry>;
}

/** One server of a checked config, with its name. */
export type ServerSpec =
  | ({ readonly name: string; readonly kind: "stdio" } & Readonly<StdioServerEntry>)
  | ({ readonly name: string; readonly kind: "url" } & Readonly<UrlServerEntry>);

/** A config that cannot be used; `problems` lists each one with where it is. */
export class HostConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join("\n  ")}`}`);
    this.name = "HostConfigError";
  }
}

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks a config object and returns its enabled servers, in the file's order. */
export function parseHostConfig(config: unknown, source = "host config"): ServerSpec[] {
  const problems: string[] = [];
  if (!isObject(config) || !isObject(config["mcpServers"])) {
    throw new HostConfigError(source, ['expected an object with an "mcpServers" object']);
  }
  const specs: ServerSpec[] = [];
  for (const [name, entry] of Object.entries(config["mcpServers"])) {
    const at = `mcpServers.${name}`;
    const spec = checkEntry(name, entry, at, problems);
    if (spec && !spec.disabled) specs.push(spec);
  }
  if (problems.length > 0) throw new HostConfigError(source, problems);
  return specs;
}

/** Reads a config file; a relative `cwd` in it is taken from the file's directory. */
export async function loadHostConfig(path: string): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new HostConfigError(path, [`cannot read the file (${(error as Error).message})`]);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new HostConfigError(path, [`not valid JSON (${(error as Error).message})`]);
  }
  parseHostConfig(config, path);
  const mcpServers: Record<string, ServerEntry> = {};
  for (const [name, entry] of Object.entries((config as HostConfig).mcpServers)) {
    mcpServers[name] =
      "cwd" in entry && entry.cwd !== undefined ? { ...entry, cwd: resolve(dirname(path), entry.cwd) } : entry;
  }
  return { mcpServers };
}

function checkEntry(name: string, entry: unknown, at: string, problems: string[]): ServerSpec | undefined {
  const before = problems.length;
  const problem = (message: string) => problems.push(`${at}: ${message}`);
  const nameProblem = serverNameProblem(name);
  if (nameProblem) problem(nameProblem);
  if (!isObject(entry)) {
    problem("expected an object with a command or a url");
    return undefined;
  }
  const field = (key: string, ok: (value: unknown) => boolean, expected: string) => {
    if (entry[key] !== undefined && !ok(entry[key])) problem(`${key} must be ${expected}`);
  };
  const isStringArray = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");
  const isStringRecord = (v: unknown) => isObject(v) && Object.values(v).every((s) => typeof s === "string");
  field("timeoutMs", (v) => typeof v === "number" && Number.isFinite(v) && v > 0, "a positive number");
  field("disabled", (v) => typeof v === "boolean", "true or false");

  const hasCommand = entry["command"] !== undefined;
  const hasUrl = entry["url"] !== undefined;
  const type = entry["type"];
  if (hasCommand === hasUrl) {
    problem(hasCommand ? "has both a command and a url; give one" : "needs a command (stdio) or a url (HTTP)");
  } else if (hasCommand) {
    field("command", (v) => typeof v === "string" && v.length > 0, "a non-empty string");
    field("args", isStringArray, "an array of strings");
    field("env", isStringRecord, "an object of strings");
    field("cwd", (v) => typeof v === "string", "a string");
    if (type !== undefined && type !== "stdio") problem(`type ${JSON.stringify(type)} does not go with a command`);
  } else {
    field("url", (v) => typeof v === "string" && URL.canParse(v), "an absolute URL");
    field("headers", isStringRecord, "an object of strings");
    if (entry["auth"] !== undefined) checkAuthSettings(entry["auth"], (message) => problem(`auth: ${message}`));
    if (type !== undefined && type !== "http" && type !== "streamable-http" && type !== "sse")
      problem(`type ${JSON.stringify(type)} does not go with a url`);
  }
  if (problems.length > before) return undefined;
  // Unknown keys stay (desktop hosts keep their own there) but never override the host's own.
  return { ...entry, name, kind: hasCommand ? "stdio" : "url" } as ServerSpec;
}

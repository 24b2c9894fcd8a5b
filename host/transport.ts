// The transport for a configured server: the caller's own, else Streamable HTTP for a `url` entry,
// else a stdio child process that gets only a few harmless variables of the host's environment
// plus the ones its entry names, so one server never reads the credentials meant for another.
import { StreamableHttpClientTransport } from "../runtime/http-client.js";
import type { Transport } from "../runtime/index.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import type { ServerSpec } from "./config.js";

/** What a child process inherits from the host's environment. */
const INHERITED_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"];

export type TransportFactory = (server: ServerSpec) => Transport | undefined;

export function createTransport(
  spec: ServerSpec,
  custom: TransportFactory | undefined,
  shutdownGraceMs: number,
): Transport {
  const transport = custom?.(spec);
  if (transport) return transport;
  if (spec.kind === "url") {
    if (spec.type !== "sse") return new StreamableHttpClientTransport(spec.url, { headers: spec.headers ?? {} });
    throw new Error(
      `server ${JSON.stringify(spec.name)} (${spec.url}) speaks the old HTTP+SSE transport: pass ` +
        `createHost({ transport }), e.g. with the official SDK's SSEClientTransport`,
    );
  }
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return new StdioClientTransport({
    command: spec.command,
    args: spec.args ?? [],
    env: { ...env, ...spec.env },
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    stderr: "pipe",
    shutdownGraceMs,
  });
}

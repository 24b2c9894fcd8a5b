// The transport for a configured server: the caller's own, else HTTP for a `url` entry (the one
// its `type` names, or without one Streamable HTTP falling back to the HTTP+SSE transport of
// 2024-11-05; authorized when the entry has `auth`, see auth.ts), else a stdio child process that
// gets only a few harmless variables of the host's environment (the stdio transport's defaults)
// plus the ones its entry names, so one server never reads the credentials meant for another.
import { StreamableHttpClientTransport } from "../runtime/http/client/client.js";
import { FallbackHttpClientTransport } from "../runtime/http/client/fallback.js";
import type { Transport } from "../runtime/index.js";
import { LegacySseClientTransport } from "../runtime/http/client/legacy-sse-client.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { authorizeBeforeStart, serverFetch, type AuthorizationFactory, type AuthorizationListener } from "./auth.js";
import type { ServerSpec } from "./config.js";

export type TransportFactory = (server: ServerSpec) => Transport | undefined;

/** How the host reaches a server: "sse" is the HTTP+SSE transport of 2024-11-05. */
export type TransportKind = "stdio" | "streamable-http" | "sse";

export function createTransport(
  spec: ServerSpec,
  custom: TransportFactory | undefined,
  shutdownGraceMs: number,
  authorization?: AuthorizationFactory,
  onAuthorization?: AuthorizationListener,
): Transport {
  const transport = custom?.(spec);
  if (transport) return transport;
  if (spec.kind === "url") {
    const fetch = serverFetch(spec, authorization, onAuthorization);
    const options = { headers: spec.headers ?? {}, ...(fetch ? { fetch } : {}) };
    const http =
      spec.type === "sse"
        ? new LegacySseClientTransport(spec.url, options)
        : spec.type === undefined
          ? new FallbackHttpClientTransport(spec.url, options)
          : new StreamableHttpClientTransport(spec.url, options);
    return fetch ? authorizeBeforeStart(http, fetch, spec.url) : http;
  }
  return new StdioClientTransport({
    command: spec.command,
    args: spec.args ?? [],
    // Always an env, so the child gets the transport's defaults under it, never the whole environment.
    env: spec.env ?? {},
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    stderr: "pipe",
    shutdownGraceMs,
  });
}

/** The kind of a transport this module made (undefined for a caller's own, or before it is known). */
export function transportKind(transport: Transport): TransportKind | undefined {
  if (transport instanceof StdioClientTransport) return "stdio";
  if (transport instanceof StreamableHttpClientTransport) return "streamable-http";
  if (transport instanceof LegacySseClientTransport) return "sse";
  if (transport instanceof FallbackHttpClientTransport) return transport.kind;
  return undefined;
}

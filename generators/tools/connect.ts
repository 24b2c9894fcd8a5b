// A live server's tools and prompts, fetched with the generated client of the newest revision
// the server accepts (or the one asked for). Every attempt is a fresh connection, closed (and
// with it a spawned server) when the attempt fails; a handshake answered with another version the
// server speaks goes on at that version on the same connection.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";
import { paths } from "../paths.js";
import { ConnectionClosedError, ErrorCode, ResultValidationError, RpcError } from "../../runtime/index.js";
import { StreamableHttpError } from "../../runtime/http/client/client.js";
import { FallbackHttpClientTransport } from "../../runtime/http/client/fallback.js";
import { StdioClientTransport } from "../../runtime/stdio.js";
import type { HttpBinding, Transport } from "../../runtime/transport.js";
import { Handover } from "../../host/handover.js";
import { lastWords } from "./last-words.js";
import { normalizeListing, type Listing } from "./listing.js";
import { datedRevisions, knownRevision } from "./revisions.js";

export type Endpoint =
  | { kind: "stdio"; command: string; args: string[] }
  /** `fetch`: an authorizing one (runtime/auth), when the server needs OAuth. */
  | { kind: "url"; url: string; headers?: Record<string, string>; fetch?: typeof fetch };

export interface FetchOptions {
  /** Use this revision only (default: the newest dated revision the server accepts). */
  revision?: string;
  /** Per request, in ms. */
  timeoutMs: number;
  /** Told which transport a `--url` server was reached with, when it is the old HTTP+SSE one. */
  log?: (line: string) => void;
}

/** The part of a generated client (generated/<rev>/client.ts) listing needs; every revision has it. */
interface ListingClient {
  connect(): Promise<void>;
  close(): Promise<void>;
  readonly server: { readonly serverCapabilities: unknown; readonly serverInfo: unknown };
  listToolsPages(): AsyncIterable<{ tools: unknown[] }>;
  listPromptsPages(): AsyncIterable<{ prompts: unknown[] }>;
}

interface ClientModule {
  createClient(options: {
    transport: Transport;
    clientInfo: { name: string; version: string };
    timeoutMs: number;
  }): ListingClient;
  ProtocolVersionError: abstract new (...args: never[]) => Error & { offered: unknown };
  HTTP_BINDING: HttpBinding;
}

/** A connected client, and what the server said on stderr (a spawned server only). */
interface Session {
  client: ListingClient;
  revision: string;
  stderr: () => string;
  timeoutMs: number;
}

export async function fetchListing(endpoint: Endpoint, options: FetchOptions): Promise<Listing> {
  const session = await negotiate(endpoint, options);
  const { client } = session;
  try {
    const capabilities = (client.server.serverCapabilities ?? {}) as { tools?: unknown; prompts?: unknown };
    const tools: unknown[] = [];
    const prompts: unknown[] = [];
    await listing(session, "tools/list", async () => {
      if (capabilities.tools !== undefined) for await (const page of client.listToolsPages()) tools.push(...page.tools);
    });
    await listing(session, "prompts/list", async () => {
      if (capabilities.prompts !== undefined)
        for await (const page of client.listPromptsPages()) prompts.push(...page.prompts);
    });
    const server = client.server.serverInfo;
    return normalizeListing(
      { ...(server !== undefined ? { server } : {}), protocolVersion: session.revision, tools, prompts },
      describe(endpoint),
    );
  } finally {
    await client.close().catch(() => {});
  }
}

async function negotiate(endpoint: Endpoint, options: FetchOptions): Promise<Session> {
  const known = options.revision !== undefined ? [knownRevision(options.revision)] : datedRevisions();
  let queue = [...known];
  const refused: string[] = [];
  const tried = new Set<string>();
  while (queue.length > 0) {
    const revision = queue.shift() as string;
    tried.add(revision);
    const module = await clientModule(revision);
    const { transport, stderr } = open(endpoint);
    // A view of the connection for this attempt, so a client of another revision can take it over.
    const handover = new Handover(transport, () => {});
    const trial = handover.trial();
    const connected = async (client: ListingClient, revision: string): Promise<Session> => {
      await client.connect();
      if (transport instanceof FallbackHttpClientTransport && transport.kind === "sse")
        options.log?.(
          `note: ${describe(endpoint)} refused Streamable HTTP; using the HTTP+SSE transport of 2024-11-05`,
        );
      return { client, revision, stderr, timeoutMs: options.timeoutMs };
    };
    const couldNotConnect = async (error: unknown) => {
      await handover.close().catch(() => {});
      return new InputError(
        `${describe(endpoint)}: could not connect: ${reason(error, { stderr, timeoutMs: options.timeoutMs })}`,
      );
    };
    try {
      await handover.start();
      const session = await connected(createListingClient(module, trial, options), revision);
      trial.adopt();
      return session;
    } catch (error) {
      if (!(error instanceof module.ProtocolVersionError)) {
        if (!refusal(error, module)) throw await couldNotConnect(error);
        refused.push(`${revision} (${oneLine((error as Error).message)})`);
        await handover.close().catch(() => {});
        continue;
      }
      // The server named the version(s) it speaks: go straight to the newest one known here.
      const offered = [error.offered].flat().filter((v): v is string => typeof v === "string");
      const next = known.filter((r) => offered.includes(r) && !tried.has(r)).slice(0, 1);
      refused.push(`${revision} (it speaks ${offered.join(", ") || JSON.stringify(error.offered)})`);
      const [answered] = next;
      if (answered !== undefined && typeof error.offered === "string" && trial.exchange && !handover.closed) {
        // It answered the handshake: that revision's client goes on on this connection, adopting
        // the answer (host/handover.ts), so the server sees one handshake, as from any client.
        tried.add(answered);
        const adopted = createListingClient(await clientModule(answered), handover.owner(trial.exchange), options);
        try {
          return await connected(adopted, answered);
        } catch (error) {
          throw await couldNotConnect(error);
        }
      }
      await handover.close().catch(() => {});
      queue = next;
    }
  }
  throw new InputError(`${describe(endpoint)}: the server accepts none of these revisions: ${refused.join("; ")}`);
}

async function clientModule(revision: string): Promise<ClientModule> {
  // @vite-ignore: the path is computed; bundlers (and vitest) must leave it to Node.
  return (await import(/* @vite-ignore */ `../../generated/${revision}/index.js`)) as ClientModule;
}

function createListingClient(module: ClientModule, transport: Transport, options: FetchOptions): ListingClient {
  return module.createClient({
    transport,
    clientInfo: { name: "mcp-gen tools", version: packageVersion() },
    timeoutMs: options.timeoutMs,
  });
}

/**
 * Answers to a revision's handshake or discovery request that mean "not this revision": a
 * JSON-RPC error saying the request is unknown or wrong, or (Streamable HTTP) a 4xx status, as
 * servers give for a first request that is not the handshake they expect. A discovery request
 * (a revision without a handshake) is refused by any error of an older server: any JSON-RPC
 * error but those of the revision's own era (its HTTP binding names them), which mean the server
 * speaks it and refused for another reason, as the versioning page tells dual-era clients.
 */
function refusal(error: unknown, module: ClientModule): boolean {
  if (error instanceof StreamableHttpError) return error.status >= 400 && error.status < 500;
  if (!(error instanceof RpcError) || error instanceof ConnectionClosedError) return false;
  const binding = module.HTTP_BINDING;
  if (binding.kind === "stateless")
    return (
      error.code !== ErrorCode.RequestTimeout &&
      ![binding.headerMismatch, binding.missingCapability].includes(error.code)
    );
  const codes: number[] = [ErrorCode.MethodNotFound, ErrorCode.InvalidRequest, ErrorCode.InvalidParams];
  return codes.includes(error.code);
}

async function listing(session: Session, method: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw new InputError(`${method}: ${reason(error, session, method)}`);
  }
}

/** One line on why a request failed, with what a spawned server last said on stderr (./last-words.ts). */
function reason(error: unknown, session: Pick<Session, "stderr" | "timeoutMs">, method?: string): string {
  const last = session.stderr();
  const said = last ? ` (the server's last words on stderr: ${JSON.stringify(last)})` : "";
  if (error instanceof ResultValidationError) {
    const [first] = error.issues;
    const more = error.issues.length > 1 ? ` and ${error.issues.length - 1} more` : "";
    return `malformed result: ${first ? `${first.path || "(root)"}: ${first.message}` : "invalid"}${more}`;
  }
  if (error instanceof ConnectionClosedError) {
    return `the server closed the connection${method ? ` before answering` : ""}${said}`;
  }
  if (error instanceof RpcError && error.code === ErrorCode.RequestTimeout)
    return `no answer within ${session.timeoutMs / 1000} s${said}`;
  if (error instanceof RpcError) return `the server answered with error ${error.code}: ${oneLine(error.message)}`;
  // fetch says "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND) in its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${oneLine(error.cause.message)}` : "";
  return `${oneLine(error instanceof Error ? error.message : String(error))}${cause}${said}`;
}

function open(endpoint: Endpoint): { transport: Transport; stderr: () => string } {
  if (endpoint.kind === "url") {
    // No GET stream: listing needs no messages the server sends on its own (the old transport's
    // one stream carries the answers, so it is opened whatever this says).
    const transport = new FallbackHttpClientTransport(endpoint.url, {
      openStream: false,
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      ...(endpoint.fetch ? { fetch: endpoint.fetch } : {}),
    });
    return { transport, stderr: () => "" };
  }
  const transport = new StdioClientTransport({ command: endpoint.command, args: endpoint.args, stderr: "pipe" });
  // Kept, not shown: a server's own messages would bury mcp-gen's; one line goes into errors.
  let tail = "";
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    transport.stderr?.setEncoding("utf8");
    transport.stderr?.on("data", (chunk) => {
      tail = (tail + chunk).slice(-4096);
    });
  };
  return { transport, stderr: () => lastWords(tail) };
}

export function describe(endpoint: Endpoint): string {
  return endpoint.kind === "url" ? endpoint.url : [endpoint.command, ...endpoint.args].join(" ");
}

function oneLine(text: string): string {
  return text.split(/\r?\n/)[0] as string;
}

let version: string | undefined;
function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(paths.root, "package.json"), "utf8")) as { version: string }).version;
  return version;
}

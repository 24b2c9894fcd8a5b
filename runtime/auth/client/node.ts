// A ready provider for Node CLIs and hosts: the authorization code flow with a loopback redirect
// (a listener on 127.0.0.1 that takes the one callback carrying the flow's state), the URL printed
// for the user and opened in a browser where there is a desktop, and registrations and tokens kept
// in a file only the user can read (mode 0600, written whole and renamed into place). Node only,
// so not in index.ts; it types the few Node APIs it uses itself, so vendored code compiles
// without @types/node.
// Spec (loopback redirects): https://datatracker.ietf.org/doc/html/rfc8252#section-7.3
import type {
  AuthorizationRequest,
  ClientMetadata,
  CredentialStore,
  OAuthClientProvider,
  PreRegisteredClient,
  StoredClient,
  StoredTokens,
} from "./provider.js";
import { memoryStore } from "./provider.js";

export interface NodeProviderOptions {
  /** What the client tells authorization servers about itself (default client_name "mcp-gen"). */
  clientMetadata?: ClientMetadata;
  /** An HTTPS URL where this client's metadata document is served (Client ID Metadata Documents). */
  clientMetadataUrl?: string;
  preRegistered?: PreRegisteredClient;
  /** The file registrations and tokens are kept in (mode 0600); default: memory, this process only. */
  credentialsFile?: string;
  /** The loopback redirect listener's port (default: a free one; authorization servers must take any). */
  port?: number;
  /**
   * Sends the user to the authorization URL. Default: print it with `log` and open a browser where
   * there is a desktop (macOS, Windows, Linux with a display).
   */
  open?: (url: URL, request: AuthorizationRequest) => void | Promise<void>;
  /** How long to wait for the user to come back, in ms (default 5 minutes). */
  timeoutMs?: number;
  /** Where the provider tells the user what to do (default: standard error). */
  log?: (line: string) => void;
}

export interface NodeProvider extends OAuthClientProvider {
  /** Stops the redirect listener, if one is waiting. */
  close(): Promise<void>;
}

// --- The Node APIs used, typed here -----------------------------------------------------------

interface IncomingLike {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
}
interface ResponseLike {
  writeHead(status: number, headers: { [name: string]: string }): unknown;
  end(body?: string): unknown;
}
interface ServerLike {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number } | string | null;
  close(callback?: () => void): unknown;
  closeAllConnections?(): void;
  unref(): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
}
interface NodeProcess {
  readonly platform: string;
  readonly env: { readonly [name: string]: string | undefined };
  readonly stderr: { write(text: string): unknown };
}
interface FsPromises {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  rename(from: string, to: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}
interface Spawned {
  on(event: "error", listener: () => void): unknown;
  unref(): unknown;
}

const nodeProcess = () => (globalThis as unknown as { process: NodeProcess }).process;
/** Imported by a computed name, so bundlers and type checkers leave Node's modules alone. */
const nodeModule = <T>(name: string): Promise<T> => import(name) as Promise<T>;

// --- The provider -----------------------------------------------------------------------------

export function nodeProvider(options: NodeProviderOptions = {}): NodeProvider {
  const log = options.log ?? ((line: string) => void nodeProcess().stderr.write(`${line}\n`));
  const listener = new LoopbackListener(options.port ?? 0);
  return {
    clientMetadata: { client_name: "mcp-gen", ...options.clientMetadata },
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(options.preRegistered !== undefined ? { preRegistered: options.preRegistered } : {}),
    store: options.credentialsFile !== undefined ? fileStore(options.credentialsFile) : memoryStore(),
    redirectUri: () => listener.uri(),
    async authorize(request) {
      const state = request.url.searchParams.get("state") ?? "";
      const callback = listener.wait(state, options.timeoutMs ?? 5 * 60_000);
      try {
        await (options.open ?? defaultOpen(log))(request.url, request);
      } catch (error) {
        void listener.close();
        throw error;
      }
      return callback;
    },
    close: () => listener.close(),
  };
}

/** Prints the URL, and opens it in a browser where there is a desktop to show one. */
function defaultOpen(log: (line: string) => void): (url: URL, request: AuthorizationRequest) => Promise<void> {
  return async (url, request) => {
    log(`Authorize access to ${request.server} (at ${request.issuer}) by opening:\n  ${url.href}`);
    const { platform, env } = nodeProcess();
    const command =
      platform === "darwin"
        ? ["open", url.href]
        : platform === "win32"
          ? ["rundll32", "url.dll,FileProtocolHandler", url.href]
          : env["DISPLAY"] || env["WAYLAND_DISPLAY"]
            ? ["xdg-open", url.href]
            : undefined;
    if (!command) return;
    const { spawn } = await nodeModule<{
      spawn(command: string, args: string[], options: { detached: true; stdio: "ignore" }): Spawned;
    }>("node:child_process");
    // No shell: the URL is one argument. A missing opener is not an error; the URL is printed.
    const child = spawn(command[0] as string, command.slice(1), { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  };
}

/**
 * The redirect URI's listener, on 127.0.0.1 (not "localhost", which may resolve elsewhere). It
 * answers only GET /callback with the awaited state; anything else gets 404 or 400 and is ignored,
 * so a stray or forged request cannot end the flow. It does not keep the process alive.
 */
class LoopbackListener {
  private server: ServerLike | undefined;
  private port: number | undefined;
  private waiting:
    | {
        state: string;
        resolve: (url: URL) => void;
        reject: (error: Error) => void;
        timer: ReturnType<typeof setTimeout>;
      }
    | undefined;

  private readonly preferredPort: number;

  constructor(preferredPort: number) {
    this.preferredPort = preferredPort;
  }

  async uri(): Promise<string> {
    await this.start();
    return `http://127.0.0.1:${this.port}/callback`;
  }

  wait(state: string, timeoutMs: number): Promise<URL> {
    this.waiting?.reject(new Error("a newer authorization replaced this one"));
    return new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
        void this.close();
      }, timeoutMs);
      this.waiting = { state, resolve, reject, timer };
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (this.waiting) {
      clearTimeout(this.waiting.timer);
      this.waiting.reject(new Error("the redirect listener was closed"));
      this.waiting = undefined;
    }
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async start(): Promise<void> {
    if (this.server) return;
    const { createServer } = await nodeModule<{
      createServer(listener: (req: IncomingLike, res: ResponseLike) => void): ServerLike;
    }>("node:http");
    const server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port ?? this.preferredPort, "127.0.0.1", resolve);
    });
    server.unref();
    const address = server.address();
    this.port = typeof address === "object" && address ? address.port : this.preferredPort;
    this.server = server;
  }

  private serve(req: IncomingLike, res: ResponseLike): void {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${this.port}`);
    const page = (status: number, text: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(`<!doctype html><meta charset="utf-8"><title>mcp-gen</title><p>${text}</p>`);
    };
    if (req.method !== "GET" || url.pathname !== "/callback") return page(404, "Not found.");
    const waiting = this.waiting;
    if (!waiting || url.searchParams.get("state") !== waiting.state)
      return page(400, "This is not the answer to an authorization in progress.");
    clearTimeout(waiting.timer);
    this.waiting = undefined;
    page(
      200,
      url.searchParams.has("error")
        ? "Authorization was not granted. You can close this window."
        : "Authorization complete. You can close this window.",
    );
    waiting.resolve(url);
  }
}

// --- The credentials file ---------------------------------------------------------------------

interface CredentialsFile {
  clients: { [issuer: string]: StoredClient };
  tokens: { [server: string]: StoredTokens };
}

/**
 * Registrations and tokens in one JSON file, mode 0600 in a folder created 0700. Every change
 * writes the whole file to a temporary one and renames it into place; entries that are not of
 * the expected shape are dropped when read.
 */
export function fileStore(path: string): CredentialStore {
  let queue: Promise<unknown> = Promise.resolve();
  const fs = () => nodeModule<FsPromises>("node:fs/promises");
  const read = async (): Promise<CredentialsFile> => {
    let value: unknown;
    try {
      value = JSON.parse(await (await fs()).readFile(path, "utf8"));
    } catch {
      return { clients: {}, tokens: {} };
    }
    const record = (key: string) => {
      const member = (value as { [key: string]: unknown } | null)?.[key];
      return typeof member === "object" && member !== null && !Array.isArray(member)
        ? (member as { [key: string]: unknown })
        : {};
    };
    return {
      clients: Object.fromEntries(
        Object.entries(record("clients")).filter(([, client]) => isStoredClient(client)),
      ) as CredentialsFile["clients"],
      tokens: Object.fromEntries(
        Object.entries(record("tokens")).filter(([, tokens]) => isStoredTokens(tokens)),
      ) as CredentialsFile["tokens"],
    };
  };
  const update = (change: (file: CredentialsFile) => void): Promise<void> => {
    const next = queue.then(async () => {
      const file = await read();
      change(file);
      const { writeFile, mkdir, rename, chmod } = await fs();
      const folder = path.replace(/[\\/][^\\/]*$/, "");
      if (folder !== path && folder !== "") await mkdir(folder, { recursive: true, mode: 0o700 });
      const temporary = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    });
    queue = next.catch(() => {});
    return next;
  };
  const put = <T>(map: { [key: string]: T }, key: string, value: T | undefined) => {
    if (value === undefined) delete map[key];
    else map[key] = value;
  };
  return {
    client: async (issuer) => (await read()).clients[issuer],
    saveClient: (issuer, client) => update((file) => put(file.clients, issuer, client)),
    tokens: async (server) => (await read()).tokens[server],
    saveTokens: (server, tokens) => update((file) => put(file.tokens, server, tokens)),
  };
}

const isString = (value: unknown) => typeof value === "string";

function isStoredClient(value: unknown): value is StoredClient {
  const client = value as { [key: string]: unknown } | null;
  return typeof client === "object" && client !== null && isString(client["client_id"]);
}

function isStoredTokens(value: unknown): value is StoredTokens {
  const tokens = value as { [key: string]: unknown } | null;
  return (
    typeof tokens === "object" &&
    tokens !== null &&
    ["access_token", "issuer", "client_id", "resource"].every((key) => isString(tokens[key])) &&
    (tokens["token_type"] === "Bearer" || tokens["token_type"] === "DPoP")
  );
}

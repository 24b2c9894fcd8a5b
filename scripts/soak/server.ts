// The server side of the soak: one set of handlers for the generated servers of every revision
// it drives (in process, or in a child over stdio: see stdio-server.ts). Its tools cover what
// the workload asks for: an echo, progress, a call that only ends when cancelled, a list change
// (the host's one road to tools/list: the list changes, and says which change it is) and the
// counters the soak checks after each phase.
import * as v2024 from "../../generated/2024-11-05/index.js";
import * as v2025 from "../../generated/2025-11-25/index.js";
import * as v2026 from "../../generated/2026-07-28/index.js";

export const SOAK_TOOLS = ["echo", "progress", "hang", "changed", "stats"] as const;

/** How the `changed` tool's description begins; the number of changes so far follows. */
export const CHANGES_SEEN = "changes so far: ";

/** What a server counts; `inflight` is handlers still running, which must be none between phases. */
export interface ServerStats {
  calls: number;
  lists: number;
  cancelled: number;
  inflight: number;
}

interface ToolCall {
  readonly name: string;
  readonly arguments?: { readonly [key: string]: unknown } | undefined;
}

interface Context {
  readonly signal: AbortSignal;
  progress(update: { progress: number; total?: number }): Promise<void>;
}

type Text = { content: { type: "text"; text: string }[] };

const text = (value: string): Text => ({ content: [{ type: "text", text: value }] });

/**
 * The handlers. `announce` tells the client the tool list changed (a 2025-era server notifies
 * the session, a 2026-07-28 one its subscriptions); `listFields` go into every tools/list result
 * (a 2026-07-28 result says how long it may be cached).
 */
function soakHandlers<L extends object>(announce: () => Promise<void>, listFields: L) {
  const stats: ServerStats = { calls: 0, lists: 0, cancelled: 0, inflight: 0 };
  // `changed` changes the list: its own description counts the changes, so a listing shows
  // which change it follows.
  let changes = 0;
  const listing = () =>
    SOAK_TOOLS.map((name) => ({
      name,
      inputSchema: { type: "object" as const },
      ...(name === "changed" ? { description: `${CHANGES_SEEN}${changes}` } : {}),
    }));
  let tools = listing();
  return {
    stats,
    handlers: {
      listTools: () => {
        stats.lists++;
        return { ...listFields, tools };
      },
      callTool: async (params: ToolCall, context: Context): Promise<Text> => {
        stats.calls++;
        stats.inflight++;
        try {
          switch (params.name) {
            case "echo":
              return text(String(params.arguments?.["text"]));
            case "progress":
              await context.progress({ progress: 1, total: 2 });
              await context.progress({ progress: 2, total: 2 });
              return text("done");
            case "hang":
              // Tells the client it runs, then waits to be cancelled: a request only cancellation ends.
              await context.progress({ progress: 0 });
              await new Promise<void>((resolve) => {
                if (context.signal.aborted) resolve();
                else context.signal.addEventListener("abort", () => resolve(), { once: true });
              });
              stats.cancelled++;
              throw new Error("cancelled");
            case "changed":
              changes++;
              tools = listing();
              await announce();
              return text(String(changes));
            case "stats":
              // Not counting this call itself.
              return text(JSON.stringify({ ...stats, inflight: stats.inflight - 1 }));
            default:
              throw new Error(`no tool ${params.name}`);
          }
        } finally {
          stats.inflight--;
        }
      },
    },
  };
}

const serverInfo = { name: "soak", version: "1.0.0" };
const listChanged = { tools: { listChanged: true } };

/** A 2025-era server (one per session): 2025-11-25, or 2024-11-05 for the host's older server. */
export function sessionServer(revision: "2025-11-25" | "2024-11-05", onError: (error: Error) => void) {
  let announce = async () => {};
  const { handlers, stats } = soakHandlers(() => announce(), {});
  const options = { serverInfo, handlers, capabilities: listChanged, onError };
  if (revision === "2024-11-05") {
    const server = v2024.createServer(options);
    announce = () => server.notify("notifications/tools/list_changed");
    return { server, stats };
  }
  const server = v2025.createServer(options);
  announce = () => server.notify("notifications/tools/list_changed");
  return { server, stats };
}

/** The stateless 2026-07-28 server, one for every request. */
export function statelessServer(onError: (error: Error) => void) {
  let announce = async () => {};
  const { handlers, stats } = soakHandlers(() => announce(), { ttlMs: 0, cacheScope: "private" as const });
  const server = v2026.createServer({ serverInfo, handlers, capabilities: listChanged, onError });
  announce = () => server.notify("notifications/tools/list_changed");
  return { server, stats };
}

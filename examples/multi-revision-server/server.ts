// The conformance suite's server at 2025-11-25 and 2026-07-28 as one server (runtime/projection):
// the fixtures registered once on a 2025-11-25 registry serve every session revision (each by its
// own generated server on the same registrations, what it sends converted down to the client's
// revision) and 2026-07-28 clients, through a 2026-07-28 server built on the same
// registrations (the handlers' requests to the client become multi round-trip input). What only
// 2026-07-28 has (its input tools with their own keys and state, the stateless diagnostics) is
// registered on that server alone, written against its types.
import { AsyncLocalStorage } from "node:async_hooks";
import * as r2411 from "../../generated/2024-11-05/index.js";
import * as r2503 from "../../generated/2025-03-26/index.js";
import * as r2506 from "../../generated/2025-06-18/index.js";
import * as r2511 from "../../generated/2025-11-25/index.js";
import * as r2607 from "../../generated/2026-07-28/index.js";
import type { StreamableHttpSession } from "../../runtime/http/server/server.js";
import type { SharedRegistrations } from "../../runtime/server/index.js";
import { createMultiRevisionServer, type MultiRevisionServer } from "../../runtime/projection/index.js";
import { registerConformance } from "../conformance-server/server.js";
import { registerStatelessConformance } from "../conformance-server-2026-07-28/server.js";

const serverInfo = { name: "mcp-gen-conformance-server", version: "1.0.0" };

/** The server, and how a Streamable HTTP session runs its requests (the session tools need it). */
export function createMultiRevisionConformanceServer(): {
  server: MultiRevisionServer;
  inSession(session: StreamableHttpSession): StreamableHttpSession;
} {
  // The session a handler runs in: the one whose message started it.
  const current = new AsyncLocalStorage<StreamableHttpSession>();
  const mcp = registerConformance(r2511.createMcpServer({ serverInfo }), () => current.getStore());
  const server = createMultiRevisionServer({
    server: mcp,
    writtenFor: r2511.PROJECTION,
    // Each older session revision by its own generated server on the same registrations.
    alsoServes: [r2411, r2503, r2506].map((r) => ({
      revision: r.PROJECTION,
      create: (registrations: SharedRegistrations) => r.createMcpServer({ serverInfo, registrations }),
    })),
    stateless: {
      revision: r2607.PROJECTION,
      create: (registrations) =>
        registerStatelessConformance(
          r2607.createMcpServer({ serverInfo, registrations, cache: { ttlMs: 60_000, cacheScope: "public" } }),
        ),
    },
  });
  return {
    server,
    inSession(session) {
      // Whoever takes the session's messages runs them in it.
      let deliver = session.onmessage;
      Object.defineProperty(session, "onmessage", {
        get: () => deliver,
        set: (next: typeof deliver) => {
          deliver = next && ((message, extra) => current.run(session, () => next(message, extra)));
        },
      });
      return session;
    },
  };
}

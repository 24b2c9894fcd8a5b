// Serves the conformance suite's server for 2025-11-25 and 2026-07-28 clients, and older session
// revisions, on one loopback URL, printed on the first line of stdout.
// Usage: tsx examples/multi-revision-server/main.ts [port]
import { serveStreamableHttp } from "../../runtime/http/server/server.js";
import { createMultiRevisionConformanceServer } from "./server.js";

const { server, inSession } = createMultiRevisionConformanceServer();
const http = await serveStreamableHttp({
  port: Number(process.argv[2] ?? 0),
  server: server.stateless,
  onSession: (session) => server.connect(inSession(session)),
  onError: (error) => console.error(error),
});
console.log(http.url);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void Promise.all([server.close(), http.close()]).then(() => process.exit(0)));

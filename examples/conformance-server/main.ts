// Serves the conformance server on a loopback port and prints its URL on the first line of stdout.
// Usage: tsx examples/conformance-server/main.ts [port]
import { serveStreamableHttp } from "../../runtime/http/server/server.js";
import { createConformanceServer } from "./server.js";

const http = await serveStreamableHttp({
  port: Number(process.argv[2] ?? 0),
  onSession: (session) => createConformanceServer(session).connect(session),
  onError: (error) => console.error(error),
});
console.log(http.url);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void http.close().then(() => process.exit(0)));

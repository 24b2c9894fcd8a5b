// Serves the 2026-07-28 conformance server on a loopback port and prints its URL on the first
// line of stdout. Usage: tsx examples/conformance-server-2026-07-28/main.ts [port]
import { serveStreamableHttp } from "../../runtime/http/server/server.js";
import { createConformanceServer } from "./server.js";

const server = createConformanceServer();
const http = await serveStreamableHttp({
  port: Number(process.argv[2] ?? 0),
  server,
  onError: (error) => console.error(error),
});
console.log(http.url);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void Promise.all([server.close(), http.close()]).then(() => process.exit(0)));

// Serves the protected notes server on a loopback port and prints its URL and where its protected
// resource metadata is. Usage:
//   npx tsx examples/protected-server/main.ts --issuer https://auth.example.com \
//     --jwks https://auth.example.com/.well-known/jwks.json [--resource https://notes.example.com/mcp] [--port 3000]
import { parseArgs } from "node:util";
import { serveNotes } from "./server.js";

const { values } = parseArgs({
  options: {
    issuer: { type: "string" },
    jwks: { type: "string" },
    resource: { type: "string" },
    port: { type: "string", default: "0" },
  },
});
if (!values.issuer || !values.jwks) {
  console.error("usage: main.ts --issuer URL --jwks URL [--resource URL] [--port N]");
  process.exit(2);
}
const http = await serveNotes({
  issuer: values.issuer,
  jwksUri: values.jwks,
  port: Number(values.port),
  ...(values.resource ? { resource: values.resource } : {}),
});
console.log(http.url);
console.log(`metadata: ${http.handler.protectedResource?.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void http.close().then(() => process.exit(0)));

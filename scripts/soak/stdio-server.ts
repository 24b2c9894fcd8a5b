// The soak's server over stdio, in a child process: `node --import tsx scripts/soak/stdio-server.ts
// <revision>` (2025-11-25 or 2024-11-05). Problems go to stderr, where the soak looks for them.
import { StdioServerTransport } from "../../runtime/stdio.js";
import { sessionServer } from "./server.js";

const revision = process.argv[2];
if (revision !== "2025-11-25" && revision !== "2024-11-05") throw new Error(`no soak server for ${revision}`);
const { server } = sessionServer(revision, (error) => process.stderr.write(`soak server error: ${error.message}\n`));
await server.connect(new StdioServerTransport());

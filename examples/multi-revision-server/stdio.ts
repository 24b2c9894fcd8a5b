// The same server over stdio: one client per process, of any revision; its first message says
// which (a 2025-era `initialize`, or a 2026-07-28 request naming its version in `_meta`).
// Usage: tsx examples/multi-revision-server/stdio.ts
import { StdioServerTransport } from "../../runtime/stdio.js";
import { createMultiRevisionConformanceServer } from "./server.js";

const { server } = createMultiRevisionConformanceServer();
await server.connect(new StdioServerTransport());

// The official SDKs' transports plug into generated clients and servers in TypeScript too, under
// the strictest options a consumer might use: SDK v2's and v1's stdio transports on a generated
// 2025-11-25 server and client, SDK v2's Streamable HTTP client transport on a generated
// 2026-07-28 client (docs/client-server.md says they plug in; test/http-transport.test.ts and the
// SDK interop tests run them).
import { describe, expect, it } from "vitest";
import { compileProject, STRICTEST } from "./support/compile.js";

const FIXTURE = `
import { StdioServerTransport as V2ServerStdio } from "@modelcontextprotocol/server/stdio";
import { StdioClientTransport as V2ClientStdio } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport as V2ClientHttp } from "@modelcontextprotocol/client";
import { StdioServerTransport as V1ServerStdio } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StdioClientTransport as V1ClientStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1ClientHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as r2025 from "../../../generated/2025-11-25/index.js";
import * as r2026 from "../../../generated/2026-07-28/index.js";

const clientInfo = { name: "c", version: "1" };
const mcp = r2025.createMcpServer({ serverInfo: { name: "s", version: "1" } });
export async function plug(): Promise<void> {
  await mcp.connect(new V2ServerStdio());
  await mcp.connect(new V1ServerStdio());
  r2025.createClient({ transport: new V2ClientStdio({ command: "server" }), clientInfo });
  r2025.createClient({ transport: new V1ClientStdio({ command: "server" }), clientInfo });
  r2025.createClient({ transport: new V1ClientHttp(new URL("http://localhost/mcp")), clientInfo });
  r2026.createClient({ transport: new V2ClientHttp(new URL("http://localhost/mcp")), clientInfo });
}
`;

describe("SDK transports with generated clients and servers", () => {
  it("type-check under the strictest options", () => {
    const diagnostics = compileProject("sdk-transport-types", [{ name: "plug.mts", code: FIXTURE }], {
      ...STRICTEST,
      types: ["node"],
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    });
    expect(diagnostics.get("plug.mts")).toEqual([]);
  });
});

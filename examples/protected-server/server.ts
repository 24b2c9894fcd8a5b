// A notes server behind OAuth, for both eras on one URL (a 2026-07-28 stateless server and
// 2025-11-25 sessions): reading needs `notes:read`, the `add-note` tool `notes:write` (which
// implies reading). Each caller sees only their own notes: the handlers key them by the token's
// subject, from `context.authInfo`.
import * as v2025 from "../../generated/2025-11-25/index.js";
import * as v2026 from "../../generated/2026-07-28/index.js";
import { RpcError, type AuthInfo } from "../../runtime/index.js";
import { serveStreamableHttp, type StreamableHttpServer } from "../../runtime/http/server/server.js";
import { jwtVerifier } from "./verify-jwt.js";

export interface NotesServerOptions {
  /** The authorization server that issues tokens for this server. */
  issuer: string;
  /** Its JSON Web Key Set. */
  jwksUri: string;
  /** This server's public URL, when it is not the one it listens on (behind a proxy). */
  resource?: string;
  port?: number;
  host?: string;
}

const TOOLS = [
  { name: "whoami", description: "Who the access token speaks for", inputSchema: { type: "object" as const } },
  { name: "list-notes", description: "Your notes", inputSchema: { type: "object" as const } },
  {
    name: "add-note",
    description: "Adds a note (needs notes:write)",
    inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] },
  },
];

/** The tools, whichever era the caller speaks: plain text out. */
function notesTools() {
  const notes = new Map<string, string[]>();
  return (name: string, args: { [key: string]: unknown } | undefined, authInfo: AuthInfo | undefined): string => {
    // The endpoint lets no request through without a verified token; a subject is the issuer's promise.
    const owner = authInfo?.subject ?? "";
    const mine = notes.get(owner) ?? [];
    switch (name) {
      case "whoami":
        return `${owner} via ${authInfo?.clientId ?? "an unknown client"}, scopes: ${authInfo?.scopes.join(" ")}`;
      case "list-notes":
        return mine.join("\n");
      case "add-note":
        notes.set(owner, [...mine, String(args?.["text"] ?? "")]);
        return `${mine.length + 1} note(s)`;
    }
    throw new RpcError(-32602, `no tool named ${name}`);
  };
}

export async function serveNotes(options: NotesServerOptions): Promise<StreamableHttpServer> {
  const run = notesTools();
  const serverInfo = { name: "protected-notes", version: "1.0.0" };
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  const server = v2026.createServer({
    serverInfo,
    handlers: {
      listTools: () => ({ ttlMs: 0, cacheScope: "private", tools: TOOLS }),
      callTool: (params, context) => text(run(params.name, params.arguments, context.authInfo)),
    },
  });
  const http = await serveStreamableHttp({
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    server,
    onSession: (session) =>
      v2025
        .createServer({
          serverInfo,
          handlers: {
            listTools: () => ({ tools: TOOLS }),
            callTool: (params, context) => text(run(params.name, params.arguments, context.authInfo)),
          },
        })
        .connect(session),
    auth: {
      ...(options.resource !== undefined ? { resource: options.resource } : {}),
      authorizationServers: [options.issuer],
      verify: jwtVerifier({ issuer: options.issuer, jwksUri: options.jwksUri }),
      requiredScopes: ["notes:read"],
      toolScopes: { "add-note": ["notes:write"] },
      impliedScopes: { "notes:write": ["notes:read"] },
      metadata: { resource_name: "Protected notes" },
    },
    onError: (error) => console.error(error.message),
  });
  return {
    ...http,
    close: async () => {
      await http.close();
      await server.close();
    },
  };
}

// The revisions a host speaks, newest first (the order it offers them in), and the types that span
// them. Each entry is a generated package; adding a revision to the host is one import and one
// entry in REVISIONS and in the three maps below. `draft` is left out: a host should not negotiate
// a revision that is still changing.
import * as r2024_11_05 from "../generated/2024-11-05/index.js";
import * as r2025_03_26 from "../generated/2025-03-26/index.js";
import * as r2025_06_18 from "../generated/2025-06-18/index.js";
import * as r2025_11_25 from "../generated/2025-11-25/index.js";
import * as r2026_07_28 from "../generated/2026-07-28/index.js";

export const REVISIONS = [r2026_07_28, r2025_11_25, r2025_06_18, r2025_03_26, r2024_11_05] as const satisfies readonly {
  REVISION: Revision;
}[];

export type RevisionModule = (typeof REVISIONS)[number];
/** Spelled from the map below rather than from REVISION, whose literal types widen to string. */
export type Revision = keyof Clients;

interface Clients {
  "2026-07-28": r2026_07_28.Client;
  "2025-11-25": r2025_11_25.Client;
  "2025-06-18": r2025_06_18.Client;
  "2025-03-26": r2025_03_26.Client;
  "2024-11-05": r2024_11_05.Client;
}

interface ServerRequests {
  "2026-07-28": r2026_07_28.ServerRequestMap;
  "2025-11-25": r2025_11_25.ServerRequestMap;
  "2025-06-18": r2025_06_18.ServerRequestMap;
  "2025-03-26": r2025_03_26.ServerRequestMap;
  "2024-11-05": r2024_11_05.ServerRequestMap;
}

interface ServerNotifications {
  "2026-07-28": r2026_07_28.ServerNotificationMap;
  "2025-11-25": r2025_11_25.ServerNotificationMap;
  "2025-06-18": r2025_06_18.ServerNotificationMap;
  "2025-03-26": r2025_03_26.ServerNotificationMap;
  "2024-11-05": r2024_11_05.ServerNotificationMap;
}

/** What a client method of every revision resolves to, as a union over the revisions. */
type Returned<K extends keyof Clients[Revision]> = {
  [R in Revision]: Clients[R][K] extends (...args: never[]) => Promise<infer T> ? T : never;
}[Revision];

/** A server→client request's params or result, in every revision that has the method. */
type ServerRequest<M extends string, P extends "params" | "result"> = {
  [R in Revision]: M extends keyof ServerRequests[R]
    ? P extends keyof ServerRequests[R][M]
      ? NonNullable<ServerRequests[R][M][P]>
      : never
    : never;
}[Revision];

/** A server notification's params, in every revision that has the method. */
type ServerNotification<M extends string> = {
  [R in Revision]: M extends keyof ServerNotifications[R]
    ? "params" extends keyof ServerNotifications[R][M]
      ? NonNullable<ServerNotifications[R][M]["params"]>
      : never
    : never;
}[Revision];

export type Tool = Returned<"listTools">["tools"][number];
export type Prompt = Returned<"listPrompts">["prompts"][number];
export type Resource = Returned<"listResources">["resources"][number];
export type ResourceTemplate = Returned<"listResourceTemplates">["resourceTemplates"][number];
export type CallToolResult = Returned<"callTool">;
export type GetPromptResult = Returned<"getPrompt">;
export type ReadResourceResult = Returned<"readResource">;
export type Implementation = NonNullable<Clients[Revision]["server"]["serverInfo"]>;

export type SamplingParams = ServerRequest<"sampling/createMessage", "params">;
export type SamplingResult = ServerRequest<"sampling/createMessage", "result">;
export type ElicitationParams = ServerRequest<"elicitation/create", "params">;
export type ElicitationResult = ServerRequest<"elicitation/create", "result">;
export type Root = ServerRequest<"roots/list", "result">["roots"][number];
export type LogMessageParams = ServerNotification<"notifications/message">;

export function revisionModule(revision: string): RevisionModule | undefined {
  return REVISIONS.find((module) => module.REVISION === revision);
}

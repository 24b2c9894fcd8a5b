// The revisions a host speaks, newest first (the order it offers them in), and the one its
// application sees (VIEW), whose types the host's public API has. Each entry is a generated
// package; adding a revision to the host is one import and one entry in REVISIONS and Clients. `draft` is left out: a host should not negotiate
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

/**
 * The revision the host shows its application (docs/decisions.md: the newest it speaks): every
 * item, result, request and notification of a server of another revision is converted to it at
 * run time (session.ts, runtime/projection/view.ts). Changing the view is this line.
 */
export const VIEW = r2026_07_28;
type View = typeof r2026_07_28;
type ViewRequests = r2026_07_28.ServerRequestMap;

/** What the view's client method resolves to. */
type Returned<K extends keyof Clients[Revision]> = Clients[View["REVISION"]][K] extends (
  ...args: never[]
) => Promise<infer T>
  ? T
  : never;

export type Tool = Returned<"listTools">["tools"][number];
export type Prompt = Returned<"listPrompts">["prompts"][number];
export type Resource = Returned<"listResources">["resources"][number];
export type ResourceTemplate = Returned<"listResourceTemplates">["resourceTemplates"][number];
export type CallToolResult = Returned<"callTool">;
export type GetPromptResult = Returned<"getPrompt">;
export type ReadResourceResult = Returned<"readResource">;
/** How a server introduces itself is shown as it sent it (the handshake is the session's business). */
export type Implementation = NonNullable<Clients[Revision]["server"]["serverInfo"]>;

export type SamplingParams = ViewRequests["sampling/createMessage"]["params"];
export type SamplingResult = ViewRequests["sampling/createMessage"]["result"];
export type ElicitationParams = ViewRequests["elicitation/create"]["params"];
export type ElicitationResult = ViewRequests["elicitation/create"]["result"];
export type Root = ViewRequests["roots/list"]["result"]["roots"][number];
export type LogMessageParams = r2026_07_28.ServerNotificationMap["notifications/message"]["params"];

export function revisionModule(revision: string): RevisionModule | undefined {
  return REVISIONS.find((module) => module.REVISION === revision);
}

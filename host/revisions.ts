// The revisions a host speaks and the one its application sees, with the types the host's public
// API has, named from the view's generated package. The list itself is generated from
// spec/revisions.json (../generated/revisions.ts: REVISIONS newest first, `draft` left out, the
// `Clients` map, VIEW the newest): adding a revision to the host is `mcp-gen sync --rev R --commit
// SHA` and `npm run generate`, nothing here.
import type { Clients, Revision, View, ViewNotifications, ViewRequests } from "../generated/revisions.js";
import { REVISIONS, type RevisionModule } from "../generated/revisions.js";

export { REVISIONS, VIEW } from "../generated/revisions.js";
export type { Revision, RevisionModule } from "../generated/revisions.js";

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
export type LogMessageParams = ViewNotifications["notifications/message"]["params"];

export function revisionModule(revision: string): RevisionModule | undefined {
  return REVISIONS.find((module) => module.REVISION === revision);
}

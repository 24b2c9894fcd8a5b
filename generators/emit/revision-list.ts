// generated/revisions.ts, in the repository's tree of every revision: the revisions the host
// speaks (host/revisions.ts builds its types on it). Owns, from spec/revisions.json alone: one
// import of each released revision's generated package, REVISIONS newest first (a draft is left
// out: a host does not negotiate a revision that is still changing), the `Clients` map from a
// revision string to its generated `Client`, and the view, the newest of them (VIEW and the
// types named from its module). Pure: the table in, unformatted TypeScript out; the repository
// build (cli/build.ts) formats it and `generate` writes it, `check` compares it.
import { InputError } from "../errors.js";
import { releasedRevisions, type RevisionTable } from "../spec/revisions.js";
import { GENERATED_BY } from "./banner.js";
import { stringLiteral } from "./code.js";

/** Where the list goes, relative to the repository's root. */
export const REVISION_LIST_FILE = "generated/revisions.ts";

/** The revisions a host speaks: the released ones, newest first (the order it offers them in). */
export const hostRevisions = releasedRevisions;

/** `2025-06-18` → `r2025_06_18`: a revision's module's local name. */
const localName = (revision: string) => `r${revision.replace(/\W/g, "_")}`;

export function emitRevisionList(table: RevisionTable): string {
  const revisions = hostRevisions(table);
  const view = revisions[0];
  if (view === undefined) {
    throw new InputError("spec/revisions.json has no released (dated) revision: the host needs one to speak");
  }
  const v = localName(view);
  const oldestFirst = [...revisions].reverse();
  return `// ${GENERATED_BY} from spec/revisions.json: the released revisions, newest first.
// Do not edit: regenerate with \`npm run generate\` (a revision is added with \`mcp-gen sync --rev R --commit SHA\`).
// host/revisions.ts names the host's types from it.

${oldestFirst.map((r) => `import * as ${localName(r)} from ${stringLiteral(`./${r}/index.js`)};`).join("\n")}

/** Each released revision's generated package, newest first: the order a host offers them in. */
export const REVISIONS = [${revisions.map(localName).join(", ")}] as const satisfies readonly { REVISION: Revision }[];

export type RevisionModule = (typeof REVISIONS)[number];
/** Spelled from the map below rather than from REVISION, whose literal types widen to string. */
export type Revision = keyof Clients;

/** Each revision's generated client. */
export interface Clients {
${revisions.map((r) => `  ${stringLiteral(r)}: ${localName(r)}.Client;`).join("\n")}
}

/**
 * The revision the host shows its application, the newest it speaks (docs/decisions.md): every
 * item, result, request and notification of a server of another revision is converted to it at
 * run time (host/session.ts, runtime/projection/view.ts).
 */
export const VIEW = ${v};
export type View = typeof ${v};
export type ViewRequests = ${v}.ServerRequestMap;
export type ViewNotifications = ${v}.ServerNotificationMap;
`;
}

// Every client by default: a generated registry of a session revision that answers clients of the
// other revisions beside it in the same generated tree, each at its own revision (the older
// session revisions, converted down by createMultiRevisionServer), and 2026-era clients through
// the newest stateless revision's server on the same registrations. The generated tree says which
// revisions are there and in what order (generated/<rev>/every-revision.ts); which of them have a
// handshake, their projection tables say. A `--out` tree holds one revision, and its registry
// serves that one only.
import type { SharedRegistrations } from "../server/registry.js";
import { REGISTRY } from "../server/registry.js";
import type { HttpBinding, Transport } from "../transport.js";
import { createMultiRevisionServer, type StatelessMcpServer } from "./multi-revision.js";
import type { RevisionProjection } from "./shapes.js";

/** Options of a registry serving every revision, besides its own revision's. */
export interface EveryRevisionOptions {
  /**
   * The revisions served besides the registry's own (default: every one mcp-gen generated beside
   * it); `[]` serves its own revision only.
   */
  revisions?: readonly string[];
}

/** What a registry serving every revision adds. */
export interface EveryRevisionServer {
  /** The revisions answered: the registry's own first, the stateless one (when served) last. */
  readonly versions: readonly string[];
  /**
   * The stateless revision's server on the same registrations, for an HTTP endpoint
   * (serveStreamableHttp takes the registry itself and finds it here); undefined when not served.
   */
  readonly stateless: StatelessMcpServer | undefined;
}

/** Another revision of the generated tree: its projection table, and its registry's `createMcpServer`. */
export interface SiblingRevision {
  readonly projection: RevisionProjection;
  /** Called with the user's options that every registry understands, and the shared registrations. */
  readonly create: (options: never) => SiblingServer;
}

interface SiblingServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  readonly http: HttpBinding;
}

/** What the registries of other revisions are given of the user's options. */
interface SharedOptions {
  readonly serverInfo: unknown;
  readonly instructions?: unknown;
  readonly onError?: unknown;
  readonly pageSize?: unknown;
}

/** The registry (and the options it was made with) as far as this needs them. */
interface OwnRegistry {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * The registry of `writtenFor` that `create` makes from `options`, answering clients of the
 * sibling revisions too: `older` (in order, before `writtenFor`) gives the session revisions
 * served by conversion, `newer` the stateless revision (the newest without a handshake). Its
 * `connect` routes each connection by its first message; its `close` closes the others' servers too.
 */
export function serveEveryRevision<O extends SharedOptions, S extends OwnRegistry>(
  create: (options: O) => S,
  options: O & EveryRevisionOptions,
  writtenFor: RevisionProjection,
  older: readonly SiblingRevision[],
  newer: readonly SiblingRevision[],
): S & EveryRevisionServer {
  const { revisions, ...rest } = options;
  const server = create(rest as unknown as O);
  const wanted = (sibling: SiblingRevision) =>
    revisions === undefined || revisions.includes(sibling.projection.revision);
  const known = [...older, ...newer].map((sibling) => sibling.projection.revision);
  const unknown = revisions?.filter((revision) => !known.includes(revision)) ?? [];
  if (unknown.length > 0)
    throw new TypeError(
      `revisions: ${unknown.join(", ")} not served beside ${writtenFor.revision} (known: ${known.join(", ") || "none"})`,
    );
  // Only what every revision's registry understands goes to the others; their own handlers and
  // events are the written-for registry's.
  const { serverInfo, instructions, onError, pageSize } = options;
  const shared: SharedOptions = {
    serverInfo,
    ...(instructions === undefined ? {} : { instructions }),
    ...(onError === undefined ? {} : { onError }),
    ...(pageSize === undefined ? {} : { pageSize }),
  };
  const served = (sibling: SiblingRevision) => ({
    revision: sibling.projection,
    // Each registry's own options type; what is passed is what they all have.
    create: (registrations: SharedRegistrations) => sibling.create({ ...shared, registrations } as never),
  });
  const stateless = [...newer].reverse().find((sibling) => sibling.projection.handshake === undefined);
  const own = { connect: server.connect, close: server.close };
  // The registry itself, with its own connect: the connections of its own revision go there.
  const registry = { connect: own.connect, [REGISTRY]: (server as { [REGISTRY]?: unknown })[REGISTRY] };
  const multi = createMultiRevisionServer({
    server: registry,
    writtenFor,
    alsoServes: older.filter((sibling) => sibling.projection.handshake !== undefined && wanted(sibling)).map(served),
    ...(stateless && wanted(stateless) ? { stateless: served(stateless) } : {}),
  });
  return Object.assign(server, {
    versions: multi.versions,
    stateless: multi.stateless,
    connect: multi.connect,
    close: async () => {
      await Promise.all([own.close(), multi.close()]);
    },
  });
}

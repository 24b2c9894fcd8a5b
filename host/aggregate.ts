// What one server offers (tools, prompts, resources, resource templates), under the host's ids,
// kept current. A list_changed notification refreshes its list; notifications that arrive while
// a refresh is running only ask for one more, so a server that floods them costs at most two
// listings per burst and cannot crowd out the other servers. Each refresh that changes a list
// emits one change event.
import { ErrorCode, RpcError, type JsonObject } from "../runtime/index.js";
import { qualify } from "./namespace.js";
import type { Prompt, Resource, ResourceTemplate, Revision, Tool } from "./revisions.js";
import { LISTS, LIST_KINDS, type ListKind, type Session } from "./session.js";

/** An item of an aggregated list: the server's own item with the host's id and where it comes from. */
export type HostItem<T> = T & {
  /** `<server>__<name>` (tools, prompts), `<server>__<uri>` (resources), `<server>__<uriTemplate>` (templates). */
  readonly id: string;
  readonly server: string;
  readonly revision: Revision;
};

export interface HostLists {
  tools: HostItem<Tool>[];
  prompts: HostItem<Prompt>[];
  resources: HostItem<Resource>[];
  resourceTemplates: HostItem<ResourceTemplate>[];
}

/** One list of one server changed (ids in the host's namespace). */
export interface HostChange {
  readonly server: string;
  readonly kind: ListKind;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Same id, new definition. */
  readonly changed: readonly string[];
}

export class Catalog {
  private readonly lists = new Map<ListKind, HostItem<JsonObject>[]>();
  private readonly running = new Map<ListKind, Promise<void>>();
  private readonly again = new Set<ListKind>();

  constructor(
    private readonly server: string,
    private readonly emit: (change: HostChange) => void,
  ) {}

  /** The generated client has validated every item as its revision's type. */
  items<K extends ListKind>(kind: K): HostLists[K] {
    return (this.lists.get(kind) ?? []) as unknown as HostLists[K];
  }

  /** Lists everything the session's server offers; a list that fails is reported and left empty. */
  async load(session: Session, report: (error: unknown) => void): Promise<void> {
    await Promise.all(LIST_KINDS.map((kind) => this.refresh(session, kind).catch(report)));
  }

  /** Fetches a list again; a call while one runs is folded into one more run after it. */
  refresh(session: Session, kind: ListKind): Promise<void> {
    const running = this.running.get(kind);
    if (running) {
      this.again.add(kind);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(kind);
        const items = await this.fetch(session, kind);
        this.replace(
          kind,
          items.map((item) => this.entry(kind, item, session.revision)),
        );
      } while (this.again.has(kind));
    })().finally(() => this.running.delete(kind));
    this.running.set(kind, run);
    return run;
  }

  /** A server may declare `resources` and still not list templates: that list is empty. */
  private async fetch(session: Session, kind: ListKind): Promise<JsonObject[]> {
    if (!session.offers(kind)) return [];
    try {
      return await session.list(kind);
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.MethodNotFound) return [];
      throw error;
    }
  }

  /** The server is gone: its items leave the aggregate. */
  clear(): void {
    for (const kind of LIST_KINDS) this.replace(kind, []);
  }

  private entry(kind: ListKind, item: JsonObject, revision: Revision): HostItem<JsonObject> {
    return { ...item, id: qualify(this.server, String(item[LISTS[kind].key])), server: this.server, revision };
  }

  private replace(kind: ListKind, after: HostItem<JsonObject>[]): void {
    const before = new Map((this.lists.get(kind) ?? []).map((item) => [item.id, JSON.stringify(item)]));
    this.lists.set(kind, after);
    const added: string[] = [];
    const changed: string[] = [];
    for (const item of after) {
      const old = before.get(item.id);
      if (old === undefined) added.push(item.id);
      else if (old !== JSON.stringify(item)) changed.push(item.id);
      before.delete(item.id);
    }
    const removed = [...before.keys()];
    if (added.length + removed.length + changed.length > 0)
      this.emit({ server: this.server, kind, added, removed, changed });
  }
}

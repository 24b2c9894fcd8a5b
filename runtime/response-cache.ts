// A client's cache of the results a server marks as fresh for a while (2026-07-28 and later: the
// `ttlMs` and `cacheScope` of cacheable results): served again while fresh, kept to the identity
// that fetched it unless the server says anyone may have it, and dropped when a notification
// says it changed. Which results, fields and notifications come from the revision's facts, which
// generated clients pass. The store is pluggable: in memory by default, or one many clients share.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching
import { isObject } from "./jsonrpc.js";
import type { JsonObject } from "./peer.js";

/** One cached result. */
export interface CachedResult {
  /** The result, as JSON text. */
  readonly result: string;
  /** When it stops being fresh, in ms on the cache's clock (`now`). */
  readonly expiresAt: number;
}

export type MaybePromise<T> = T | Promise<T>;

/**
 * Where cached results live. Keys are opaque strings; entries of one server, method and (where a
 * notification names it) resource start with a common prefix, which is how they are dropped.
 */
export interface ResponseCacheStore {
  get(key: string): MaybePromise<CachedResult | undefined>;
  set(key: string, entry: CachedResult): MaybePromise<void>;
  /** Drops every entry whose key starts with `prefix`. */
  invalidate(prefix: string): MaybePromise<void>;
}

/** The default store: a Map holding at most `maxEntries` (default 1000), the oldest dropped first. */
export class MemoryCacheStore implements ResponseCacheStore {
  private readonly entries = new Map<string, CachedResult>();

  private readonly maxEntries: number;

  constructor(maxEntries = 1000) {
    this.maxEntries = maxEntries;
  }

  get(key: string): CachedResult | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: CachedResult): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  invalidate(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

export interface ResponseCacheOptions {
  /** Default: a MemoryCacheStore of this client's own. */
  store?: ResponseCacheStore;
  /**
   * Names the server in the keys, so that one store can hold many servers' results and clients of
   * the same server can share public ones (a URL, say). Default: a name of this client's own.
   */
  server?: string;
  /**
   * Who is asking (a user, the subject of an access token): results the server keeps private are
   * served to this identity only. Default: an identity of this client's own.
   */
  identity?: string;
  /** The clock, in ms (default Date.now). */
  now?: () => number;
}

/** The revision's caching facts, from its model (generated clients pass them). */
export interface CachingFacts {
  /** Result fields: freshness in ms, and who may be served the result. */
  readonly ttl: string;
  readonly scope: string;
  /** The scope value of results anyone may be served. */
  readonly shared: string;
  /** Cacheable method → the params field its entries are found by when a notification names one (or null). */
  readonly methods: { readonly [method: string]: string | null };
  /** Notification → the methods whose results it makes stale (with `match`, only the one its params name). */
  readonly invalidations: {
    readonly [notification: string]: { readonly methods: readonly string[]; readonly match?: string };
  };
}

/** A name no other client picks: the default server and identity keep entries to this client. */
function ownName(): string {
  return `own:${crypto.randomUUID()}`;
}

/** JSON with object keys in order: the same params always give the same key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export class ResponseCache {
  private readonly store: ResponseCacheStore;
  private readonly server: string;
  private readonly identity: string;
  private readonly now: () => number;
  private readonly facts: CachingFacts;

  constructor(facts: CachingFacts, options: ResponseCacheOptions = {}) {
    this.facts = facts;
    this.store = options.store ?? new MemoryCacheStore();
    this.server = options.server ?? ownName();
    this.identity = options.identity ?? ownName();
    this.now = options.now ?? Date.now;
  }

  cacheable(method: string): boolean {
    return Object.hasOwn(this.facts.methods, method);
  }

  /** A fresh result of the same request, served to anyone or kept for this identity. */
  async lookup(method: string, params: JsonObject | undefined): Promise<JsonObject | undefined> {
    const key = this.key(method, params);
    for (const owner of [this.facts.shared, `private:${this.identity}`]) {
      const entry = await this.store.get(`${key}${JSON.stringify(owner)}`);
      if (entry && this.now() < entry.expiresAt) return JSON.parse(entry.result) as JsonObject;
    }
    return undefined;
  }

  /** Keeps a complete result for as long as the server says it is fresh (nothing when that is 0). */
  async keep(method: string, params: JsonObject | undefined, result: JsonObject): Promise<void> {
    const ttl = result[this.facts.ttl];
    if (typeof ttl !== "number" || !(ttl > 0)) return;
    const owner = result[this.facts.scope] === this.facts.shared ? this.facts.shared : `private:${this.identity}`;
    const entry = { result: JSON.stringify(result), expiresAt: this.now() + ttl };
    await this.store.set(`${this.key(method, params)}${JSON.stringify(owner)}`, entry);
  }

  /** Drops what a notification from the server says has changed. */
  async invalidate(notification: string, params: JsonObject | undefined): Promise<void> {
    const stale = this.facts.invalidations[notification];
    if (!stale) return;
    for (const method of stale.methods) {
      const named = stale.match === undefined ? undefined : params?.[stale.match];
      await this.store.invalidate(this.prefix(method, named));
    }
  }

  /** Server, method, the matched field's value, then the params: each a JSON value, NUL-separated. */
  private key(method: string, params: JsonObject | undefined): string {
    const match = this.facts.methods[method];
    // The client's own `_meta` (its version, capabilities and name) does not change the result.
    const rest: JsonObject = { ...params };
    delete rest["_meta"];
    return `${this.prefix(method, match ? params?.[match] : undefined)}${canonical(rest)}\u0000`;
  }

  private prefix(method: string, named: unknown): string {
    const head = `${JSON.stringify(this.server)}\u0000${JSON.stringify(method)}\u0000`;
    return named === undefined ? head : `${head}${canonical(named)}\u0000`;
  }
}

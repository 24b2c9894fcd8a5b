// Entries keyed by JSON-RPC request id that come and go with every request (a Peer's pending
// requests, the requests it is serving): an open-addressing hash table over three arrays.
//
// Not a Map: V8 rebuilds a Map's hash table every few dozen insertions and deletions and links
// the old table, entries and all, to the new one. Once a table is in the old generation (a full
// GC while it was current), every table made after it stays reachable from it until the next
// full GC, and each scavenge copies and promotes them with every entry they held. With 32
// requests in flight that was 1.7 MB promoted per scavenge and two fifths of the CPU time in GC
// (BENCHMARKS.md, round trips). These arrays are replaced only when the table grows or shrinks,
// and a deleted entry's slots are cleared, so nothing dead is kept. Not a plain object either: its
// dictionary is five times slower than a Map for this add-look-up-delete traffic.
import type { RequestId } from "./jsonrpc.js";

const INITIAL_CAPACITY = 16;

export class RequestIdMap<V> {
  /** Slot → key; undefined marks a free slot. Linear probing from the key's home slot. */
  private keys: (RequestId | undefined)[] = [];
  private entries: (V | undefined)[] = [];
  /** Slot → when its key was added, so that values() keeps the order of a Map. */
  private added: number[] = [];
  private mask = 0;
  /** 32 - log2(capacity): a hash's top bits pick the slot. */
  private shift = 0;
  private count = 0;
  private sequence = 0;

  constructor() {
    this.allocate(INITIAL_CAPACITY);
  }

  get size(): number {
    return this.count;
  }

  get(id: RequestId): V | undefined {
    const slot = this.find(id);
    return slot < 0 ? undefined : this.entries[slot];
  }

  has(id: RequestId): boolean {
    return this.find(id) >= 0;
  }

  set(id: RequestId, value: V): void {
    const found = this.find(id);
    if (found >= 0) {
      this.entries[found] = value;
      return;
    }
    // At most half full, so that probes stay short.
    if ((this.count + 1) * 2 > this.keys.length) this.resize(this.keys.length * 2);
    this.place(id, value, this.sequence++);
    this.count++;
  }

  delete(id: RequestId): boolean {
    let hole = this.find(id);
    if (hole < 0) return false;
    this.count--;
    // Backward-shift deletion: entries after the hole that may live there move up, so that every
    // key stays reachable from its home slot without tombstones.
    for (let slot = (hole + 1) & this.mask; ; slot = (slot + 1) & this.mask) {
      const key = this.keys[slot];
      if (key === undefined) break;
      const wanted = this.home(key);
      // The entry stays when its home lies cyclically after the hole and up to its slot.
      const stays = hole <= slot ? hole < wanted && wanted <= slot : hole < wanted || wanted <= slot;
      if (stays) continue;
      this.keys[hole] = key;
      this.entries[hole] = this.entries[slot];
      this.added[hole] = this.added[slot]!;
      hole = slot;
    }
    this.keys[hole] = undefined;
    this.entries[hole] = undefined;
    // After a burst, give the memory back; an eighth, so that steady traffic never resizes back and forth.
    if (this.keys.length > INITIAL_CAPACITY && this.count * 8 < this.keys.length) this.resize(this.keys.length / 2);
    return true;
  }

  /** The values in the order their keys were added, as a Map gives them. */
  values(): V[] {
    const slots: number[] = [];
    for (let slot = 0; slot < this.keys.length; slot++) if (this.keys[slot] !== undefined) slots.push(slot);
    return slots.sort((a, b) => this.added[a]! - this.added[b]!).map((slot) => this.entries[slot] as V);
  }

  clear(): void {
    this.count = 0;
    this.allocate(INITIAL_CAPACITY);
  }

  /**
   * Where probing for a key starts: Fibonacci hashing (the top bits of the hash times 2^32 / φ),
   * which scatters the ids a Peer counts up. Consecutive slots for consecutive ids would make one
   * run of every request in flight, and each deletion would walk it.
   */
  private home(id: RequestId): number {
    return Math.imul(hash(id), 0x9e3779b9) >>> this.shift;
  }

  /** The slot holding `id`, or -1. */
  private find(id: RequestId): number {
    for (let slot = this.home(id); ; slot = (slot + 1) & this.mask) {
      const key = this.keys[slot];
      if (key === undefined) return -1;
      // Strict equality: the id 1 and the id "1" are different requests, as in a Map.
      if (key === id) return slot;
    }
  }

  /** Puts a key that is not in the table into the first free slot from its home. */
  private place(id: RequestId, value: V | undefined, added: number): void {
    let slot = this.home(id);
    while (this.keys[slot] !== undefined) slot = (slot + 1) & this.mask;
    this.keys[slot] = id;
    this.entries[slot] = value;
    this.added[slot] = added;
  }

  /** Empty tables of `capacity` slots (a power of two). */
  private allocate(capacity: number): void {
    this.keys = new Array<RequestId | undefined>(capacity).fill(undefined);
    this.entries = new Array<V | undefined>(capacity).fill(undefined);
    this.added = new Array<number>(capacity).fill(0);
    this.mask = capacity - 1;
    this.shift = Math.clz32(capacity) + 1;
  }

  /** Moves every entry to tables of `capacity` slots. */
  private resize(capacity: number): void {
    const { keys, entries, added } = this;
    this.allocate(capacity);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== undefined) this.place(key, entries[i], added[i]!);
    }
  }
}

/**
 * The other side chooses the ids of its requests, so it must not be able to choose ids that all
 * land in one run of slots: keys are hashed with a seed drawn per process, and numbers beyond 32
 * bits or with a fraction by their digits (truncated, 2 ** 32 and 0 would share a slot).
 */
const SEED = Math.floor(Math.random() * 2 ** 32) | 0;

function hash(id: RequestId): number {
  if (typeof id === "number" && (id | 0) === id) return id ^ SEED;
  // FNV-1a over the UTF-16 code units, from the seed.
  const text = String(id);
  let hash = 0x811c9dc5 ^ SEED;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

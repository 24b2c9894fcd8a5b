// Registered items of one kind (tools, prompts, resources, resource templates) in registration
// order, listed in pages. A cursor names the registration number of the first item of the next
// page, so paging stays in order and skips nothing that stays registered while a client pages
// through, whatever is added or removed meanwhile. A reader may see only some items (`visible`):
// registries of two revisions share one catalog, and what one adds for its revision alone the
// other does not see.

const all = (): boolean => true;

export class Catalog<T> {
  private readonly byKey = new Map<string, { seq: number; value: T }>();
  /** Registration order: items with increasing `seq`. */
  private readonly ordered: { seq: number; key: string; value: T }[] = [];
  private next = 0;

  private readonly what: string;

  constructor(what: string) {
    this.what = what;
  }

  get size(): number {
    return this.ordered.length;
  }

  /** Whether any item is `visible`. */
  some(visible: (value: T) => boolean = all): boolean {
    return this.ordered.some((item) => visible(item.value));
  }

  get(key: string, visible: (value: T) => boolean = all): T | undefined {
    const found = this.byKey.get(key)?.value;
    return found !== undefined && visible(found) ? found : undefined;
  }

  values(visible: (value: T) => boolean = all): IterableIterator<T> {
    return (function* (items) {
      for (const item of items) if (visible(item.value)) yield item.value;
    })(this.ordered);
  }

  /** Adds an item; a key registered already is an error (remove it first). Returns the remover. */
  add(key: string, value: T): () => boolean {
    if (this.byKey.has(key)) throw new Error(`${this.what} ${JSON.stringify(key)} is already registered`);
    const entry = { seq: this.next++, key, value };
    this.byKey.set(key, entry);
    this.ordered.push(entry);
    return () => {
      if (this.byKey.get(key) !== entry) return false;
      this.byKey.delete(key);
      this.ordered.splice(this.ordered.indexOf(entry), 1);
      return true;
    };
  }

  /**
   * One page of at most `size` items from `cursor` on, and the cursor of the next page when there
   * is more. Throws a RangeError for a cursor this catalog did not hand out.
   */
  page(cursor: string | undefined, size: number, visible: (value: T) => boolean = all): { items: T[]; next?: string } {
    let from = 0;
    if (cursor !== undefined) {
      const seq = /^[0-9]{1,15}$/.test(cursor) ? Number(cursor) : NaN;
      if (!(seq < this.next)) throw new RangeError(`Invalid cursor`);
      from = this.firstAtOrAfter(seq);
    }
    const items: T[] = [];
    for (let i = from; i < this.ordered.length; i++) {
      const entry = this.ordered[i] as { seq: number; value: T };
      if (!visible(entry.value)) continue;
      if (items.length === size) return { items, next: String(entry.seq) };
      items.push(entry.value);
    }
    return { items };
  }

  private firstAtOrAfter(seq: number): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.ordered[mid] as { seq: number }).seq < seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

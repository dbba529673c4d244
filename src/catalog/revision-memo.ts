import type { Catalog } from './catalog.js';
import { Doorkeeper } from './doorkeeper.js';
import type { Representation } from './representation.js';

/** Bytes counted for an entry's bookkeeping (map slots, the entry object) on top of its key and value. */
const ENTRY_OVERHEAD = 160;

/** An entry larger than this share of the budget is not kept: one would evict many useful ones. */
const MAX_ENTRY_SHARE = 16;

interface Entry {
  cache: RevisionCache<unknown>;
  key: string;
  value: unknown;
  bytes: number;
}

/**
 * One byte budget shared by every per-URL memo of a process (search, since, pages, MCP results), so
 * what a stream of distinct requests can pin is a fixed total however the requests are spread.
 * Least recently used entries go first, across memos. Counted bytes are what the memos hold beyond
 * the catalog itself (a rendered body, its compressed variants, keys), not views of catalog bytes.
 */
export class MemoBudget {
  private readonly lru = new Set<Entry>();
  private revision = -1;
  bytes = 0;
  evictions = 0;
  /** Values not kept because they alone would take more than a sixteenth of the budget. */
  uncached = 0;

  constructor(readonly maxBytes: number) {}

  get entries(): number {
    return this.lru.size;
  }

  /** Counted bytes per memo name, for metrics. */
  bytesByName(): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.lru) out.set(e.cache.name, (out.get(e.cache.name) ?? 0) + e.bytes);
    return out;
  }

  /**
   * Every memo holds one revision's values: a newer revision empties them all (so no old catalog stays
   * pinned). False for an older revision (a request that began before a swap), which is not memoized.
   */
  sync(revision: number): boolean {
    if (revision < this.revision) return false;
    if (revision > this.revision) {
      this.revision = revision;
      for (const e of this.lru) e.cache.forget(e.key);
      this.lru.clear();
      this.bytes = 0;
    }
    return true;
  }

  /** Whether a value of this size may be kept. */
  fits(bytes: number): boolean {
    return bytes <= this.maxBytes / MAX_ENTRY_SHARE;
  }

  add(entry: Entry): void {
    this.lru.add(entry);
    this.bytes += entry.bytes;
    this.trim();
  }

  touch(entry: Entry): void {
    this.lru.delete(entry);
    this.lru.add(entry);
  }

  /** An entry grew after it was stored (a compressed variant arrived); ignored once it is gone. */
  grow(entry: Entry, bytes: number): void {
    if (!this.lru.has(entry)) return;
    entry.bytes += bytes;
    this.bytes += bytes;
    this.trim();
  }

  private trim(): void {
    for (const e of this.lru) {
      if (this.bytes <= this.maxBytes) break;
      this.lru.delete(e);
      e.cache.forget(e.key);
      this.bytes -= e.bytes;
      this.evictions++;
    }
  }
}

/** A rendered body's own bytes and compressed variants, for the memo budget. */
export const representationSize = (rep: Representation, grew: (bytes: number) => void) => rep.track(grew);

/**
 * A memo for values derived from one catalog revision (rendered search and since bodies, pages, MCP
 * results), bounded by the bytes of the shared budget. A new revision empties it, so nothing stale is
 * ever served. `sizeOf` says what a value holds and may report growth later (a compressed variant).
 */
export class RevisionCache<V> {
  private readonly map = new Map<string, Entry>();
  private readonly doorkeeper: Doorkeeper | null;

  constructor(
    private readonly budget: MemoBudget,
    readonly name: string,
    private readonly sizeOf: (value: V, grew: (bytes: number) => void) => number,
    /**
     * Keep a value only from its key's second request on: for keys mostly asked once (distinct
     * searches), whose values would only churn the budget and the heap, evicted before any reuse.
     */
    { fromSecondRequest = false } = {},
  ) {
    this.doorkeeper = fromSecondRequest ? new Doorkeeper() : null;
  }

  /** The cached value, or undefined (no insertion). */
  peek(revision: number, key: string): V | undefined {
    if (!this.budget.sync(revision)) return undefined;
    const e = this.map.get(key);
    if (!e) return undefined;
    this.budget.touch(e);
    return e.value as V;
  }

  get(revision: number, key: string, make: () => V): V {
    const hit = this.peek(revision, key);
    if (hit !== undefined) return hit;
    const value = make();
    if (!this.budget.sync(revision) || (this.doorkeeper && !this.doorkeeper.admits(key))) return value;
    const entry: Entry = { cache: this as RevisionCache<unknown>, key, value, bytes: 0 };
    entry.bytes = ENTRY_OVERHEAD + 2 * key.length + this.sizeOf(value, (bytes) => this.budget.grow(entry, bytes));
    if (!this.budget.fits(entry.bytes)) {
      this.budget.uncached++;
      return value;
    }
    this.map.set(key, entry);
    this.budget.add(entry);
    return value;
  }

  /** Called by the budget when it drops the entry. */
  forget(key: string): void {
    this.map.delete(key);
  }
}

/**
 * One value per catalog revision, outside the byte budget: for what every request of a revision needs
 * (the names map, /developers, the sitemap index), replaced when the revision changes.
 */
export function perRevision<T>(make: (c: Catalog) => T): (c: Catalog) => T {
  let revision = -1;
  let value: T;
  return (c) => {
    if (c.revision !== revision) {
      value = make(c);
      revision = c.revision;
    }
    return value;
  };
}

/**
 * Which keys were asked for once already: a cache that admits a key only on its second request keeps
 * one-off keys from allocating and from pushing out keys in use (Lucene's query cache and TinyLFU's
 * doorkeeper do the same). It remembers a 32-bit hash of each of the last `max` keys, not the keys: a raw
 * query string may be kilobytes, and a collision only admits a key one request early.
 */
export class Doorkeeper {
  private readonly seen = new Set<number>();

  constructor(private readonly max = 4096) {}

  /** True when the key was asked for before (and is then forgotten here: its cache keeps it now). */
  admits(key: string): boolean {
    const h = fnv1a(key);
    if (this.seen.delete(h)) return true;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.add(h);
    return false;
  }
}

/** FNV-1a over the key's UTF-16 code units. */
function fnv1a(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

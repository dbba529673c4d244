/**
 * Which keys were asked for once already: a cache that admits a key only on its second request keeps
 * one-off keys from allocating and from pushing out keys in use (Lucene's query cache and TinyLFU's
 * doorkeeper do the same). At most `max` keys are remembered; past that all are forgotten at once.
 */
export class Doorkeeper {
  private readonly seen = new Set<string>();

  constructor(private readonly max = 4096) {}

  /** True when the key was asked for before (and is then forgotten here: its cache keeps it now). */
  admits(key: string): boolean {
    if (this.seen.delete(key)) return true;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.add(key);
    return false;
  }
}

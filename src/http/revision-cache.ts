/**
 * A bounded memo for values derived from one catalog revision (rendered search and since bodies).
 * A new revision empties it, so nothing stale is ever served; least recently used entries go first.
 */
export class RevisionCache<V> {
  private revision = -1;
  private readonly map = new Map<string, V>();

  constructor(private readonly max: number) {}

  /** The cached value, or undefined (no insertion). */
  peek(revision: number, key: string): V | undefined {
    return revision === this.revision ? this.map.get(key) : undefined;
  }

  get(revision: number, key: string, make: () => V): V {
    if (revision !== this.revision) {
      this.map.clear();
      this.revision = revision;
    }
    let v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
      return v;
    }
    v = make();
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    return v;
  }
}

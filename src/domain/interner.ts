/** Equal values share one copy: dates, sources, slug lists and phrases repeat across 100k reviews. */
export class Interner<T> {
  private readonly seen = new Map<string, T>();
  get(key: string, make: () => T): T {
    let v = this.seen.get(key);
    if (v === undefined) this.seen.set(key, (v = make()));
    return v;
  }
}

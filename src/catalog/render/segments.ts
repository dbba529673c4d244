import type { Steps } from '../../threads/index.js';

/**
 * A body kept as buffers in order and never joined, so a render can view the previous body's runs of
 * carried items where they lie instead of copying them. An item never straddles two buffers: each has
 * one place.
 */
export class Segments {
  readonly length: number;
  /** One past each part's last byte, in body offsets. */
  private readonly ends: number[];

  constructor(readonly parts: readonly Buffer[]) {
    let at = 0;
    this.ends = parts.map((p) => (at += p.length));
    this.length = at;
  }

  /** The part holding body offset `at` (`at` < length). */
  private partAt(at: number): number {
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid] > at) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private startOf(k: number): number {
    return k === 0 ? 0 : this.ends[k - 1];
  }

  /** The first of these spans (in ascending order) that straddles two parts, or -1: one pass, not a search each. */
  firstStraddling(starts: Uint32Array, lengths: Uint32Array): number {
    let k = 0;
    for (let i = 0; i < starts.length; i++) {
      while (k < this.ends.length - 1 && this.ends[k] <= starts[i]) k++;
      if (starts[i] + lengths[i] > this.ends[k]) return i;
    }
    return -1;
  }

  /** Where bytes [start, start + length) are: their part and the offset in it. They must lie in one part. */
  place(start: number, length: number): { buffer: Buffer; at: number } {
    const k = this.parts.length === 1 ? 0 : this.partAt(start);
    if (start + length > this.ends[k]) throw new Error('Segments: the bytes straddle two parts');
    return { buffer: this.parts[k], at: start - this.startOf(k) };
  }

  /**
   * Visits these spans (ascending, none straddling two parts) with their part and offset in it: one
   * walk over the parts, not a search each.
   */
  *eachPlace(
    starts: Uint32Array,
    lengths: Uint32Array,
    visit: (i: number, buffer: Buffer, at: number, length: number) => void,
  ): Steps<void> {
    let k = 0;
    for (let i = 0; i < starts.length; i++) {
      while (k < this.ends.length - 1 && this.ends[k] <= starts[i]) k++;
      if (starts[i] + lengths[i] > this.ends[k]) throw new Error('Segments: the bytes straddle two parts');
      visit(i, this.parts[k], starts[i] - this.startOf(k), lengths[i]);
      if ((i & 4095) === 4095) yield;
    }
  }

  /** Appends to `out` views of bytes [start, end), one per part they lie in (no copy). */
  viewsInto(out: Buffer[], start: number, end: number): void {
    if (end <= start) return;
    for (let k = this.parts.length === 1 ? 0 : this.partAt(start); start < end; k++) {
      const from = this.startOf(k);
      const until = Math.min(end, this.ends[k]);
      out.push(this.parts[k].subarray(start - from, until - from));
      start = until;
    }
  }

  /** Bytes [start, end): a view when they lie in one part, else joined (for small spans). */
  bytes(start: number, end: number): Buffer {
    const views: Buffer[] = [];
    this.viewsInto(views, start, end);
    return views.length === 1 ? views[0] : Buffer.concat(views);
  }

  toString(start: number, end: number): string {
    return this.bytes(start, end).toString('utf8');
  }

  /**
   * Bytes of memory the parts keep alive: each distinct buffer once, whole (a view keeps all of it), at
   * `sizeOf(memory, end)` (`end`: one past the furthest byte the parts view in it).
   */
  heldBytes(sizeOf: (memory: ArrayBufferLike, end: number) => number): number {
    const ends = new Map<ArrayBufferLike, number>();
    for (const p of this.parts) ends.set(p.buffer, Math.max(ends.get(p.buffer) ?? 0, p.byteOffset + p.length));
    let n = 0;
    for (const [memory, end] of ends) n += sizeOf(memory, end);
    return n;
  }
}

import { Doorkeeper } from './doorkeeper.js';

/** A set of review positions as bits, one per review (newest first), 32 to a word. */
type Bits = Uint32Array;

/** What searches for one needle learned: the positions whose text was checked and, of those, the ones that hold it. */
export interface NeedleFindings {
  readonly checked: Bits;
  readonly matched: Bits;
}

/**
 * What one revision's text searches have learned, per needle, so that a needle asked again checks only
 * the texts no earlier search for it checked: the filter cache of search engines. Distinct queries
 * mostly share their words while their other filters differ, so the response memo misses where this
 * one hits. A needle is kept from its second search on (a Doorkeeper); past the byte budget the least
 * recently used goes, and its arrays serve the newcomer.
 */
export class NeedleMemo {
  private readonly kept = new Map<string, NeedleFindings>();
  private readonly doorkeeper = new Doorkeeper();
  private readonly scratch: NeedleFindings;
  private bytes = 0;

  constructor(
    private readonly words: number,
    private readonly budgetBytes: number,
  ) {
    this.scratch = { checked: new Uint32Array(words), matched: new Uint32Array(words) };
  }

  /** Needles kept (tests). */
  get size(): number {
    return this.kept.size;
  }

  /** What one kept needle costs: its two bitsets, their objects and its map slot, and its key. */
  private entryBytes(needle: string): number {
    return 8 * this.words + ENTRY_OVERHEAD + 2 * needle.length;
  }

  /** The findings kept for the needle, if any, without making it the most recently used (findings does). */
  peek(needle: string): NeedleFindings | undefined {
    return this.kept.get(needle);
  }

  /**
   * The needle's findings, to read and extend over words [first, last]: the kept ones, or (a needle not
   * kept yet) scratch ones cleared over that range, valid until the next call.
   */
  findings(needle: string, first: number, last: number): NeedleFindings {
    const hit = this.kept.get(needle);
    if (hit) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      this.kept.delete(needle);
      this.kept.set(needle, hit);
      return hit;
    }
    const cost = this.entryBytes(needle);
    if (cost > this.budgetBytes || !this.doorkeeper.admits(needle)) {
      this.scratch.checked.fill(0, first, last + 1);
      this.scratch.matched.fill(0, first, last + 1);
      return this.scratch;
    }
    // The least recently used go until the newcomer fits; the first one's arrays serve it.
    let reused: NeedleFindings | null = null;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes + cost <= this.budgetBytes) break;
      this.kept.delete(oldest);
      this.bytes -= this.entryBytes(oldest);
      reused ??= entry;
    }
    if (reused) {
      reused.checked.fill(0);
      reused.matched.fill(0);
    }
    const entry = reused ?? { checked: new Uint32Array(this.words), matched: new Uint32Array(this.words) };
    this.kept.set(needle, entry);
    this.bytes += cost;
    return entry;
  }
}

/** A kept needle's bytes beyond its bitsets' contents and its key: the typed arrays, the findings object, the map slot. */
const ENTRY_OVERHEAD = 400;

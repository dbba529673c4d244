// Corpus order kept under change. Rows are newest first (date desc; within a date the caller's order),
// and several builders report "the first k" of some rows in that order, so each keeps its rows in a list
// in corpus order that a revision updates where its rows go, instead of rebuilding it from every row.
import type { Row } from './rows.js';

/** A change that does not fit the rows a kept state is at (a row not held, or not among its date): the state is then passed over afresh. */
export class ChangeMismatch extends Error {}

/** Where rows stand in one corpus (newest first), found by date and then among the rows of that date. */
export class Positions {
  private readonly known = new Map<Row, number>();

  constructor(private readonly rows: readonly Row[]) {}

  /** The row's index; throws when it is not among the rows of its date (not in this corpus, or the corpus out of order). */
  of(row: Row): number {
    const at = this.known.get(row);
    if (at !== undefined) return at;
    const rows = this.rows;
    for (let i = firstNotNewer(rows.length, (k) => rows[k], row.review.date); i < rows.length; i++) {
      if (rows[i].review.date !== row.review.date) break;
      // Every row of the date scanned is remembered, so placing several rows of one date scans it once.
      this.known.set(rows[i], i);
      if (rows[i] === row) return i;
    }
    throw new ChangeMismatch(`Positions: review ${row.review.id} is not in the corpus among its date`);
  }
}

/** Entries per block: a change splices one block, and a scan skips a block its summary rules out. */
const BLOCK = 256;

/** What a block keeps about its entries: made empty, then each entry added (a removal makes it again). */
export interface Summary<E, S> {
  empty(): S;
  add(summary: S, entry: E): void;
}

interface Block<E, S> {
  items: E[];
  /** Made when a scan first asks (a list filled from an image, or a block changed, is not summarised until then). */
  summary?: S;
}

/**
 * Entries (of rows) in corpus order, in blocks; a row's entries stand together, in the order the row
 * gives them. A list with a `summary` of each block lets a scan skip the blocks it rules out.
 */
export class Ordered<E, S = undefined> {
  private readonly blocks: Block<E, S>[] = [];
  size = 0;

  constructor(
    private readonly rowOf: (entry: E) => Row,
    private readonly summary?: Summary<E, S>,
  ) {}

  /** An entry of a row that comes after every row held (a pass in corpus order). */
  push(entry: E): void {
    let last = this.blocks[this.blocks.length - 1];
    if (!last || last.items.length >= BLOCK) this.blocks.push((last = { items: [] }));
    last.items.push(entry);
    // A list grown by pushes has room for about 30 % more entries than it holds; a full block is done growing.
    if (last.items.length === BLOCK) last.items = last.items.slice();
    if (last.summary !== undefined) this.summary?.add(last.summary, entry);
    this.size++;
  }

  /** A row's entries at its place in the corpus `at` describes (which holds every row held here). */
  insert(row: Row, entries: readonly E[], at: Positions): void {
    const date = row.review.date;
    const mine = at.of(row);
    let [b, i] = this.firstNotNewer(date);
    // Past the rows of its date that come before it.
    while (b < this.blocks.length) {
      const other = this.rowOf(this.blocks[b].items[i]);
      if (other.review.date !== date || at.of(other) > mine) break;
      if (++i === this.blocks[b].items.length) [b, i] = [b + 1, 0];
    }
    if (b === this.blocks.length) {
      if (b === 0) this.blocks.push({ items: [] });
      else b--;
      i = this.blocks[b].items.length;
    }
    const block = this.blocks[b];
    block.items.splice(i, 0, ...entries);
    const summary = block.summary;
    if (this.summary && summary !== undefined) for (const e of entries) this.summary.add(summary, e);
    this.size += entries.length;
    if (block.items.length > 2 * BLOCK)
      this.blocks.splice(b, 1, { items: block.items.slice(0, BLOCK) }, { items: block.items.slice(BLOCK) });
  }

  /** Every entry of the row; throws when it holds none. */
  remove(row: Row): void {
    const date = row.review.date;
    let [b, i] = this.firstNotNewer(date);
    while (b < this.blocks.length) {
      const other = this.rowOf(this.blocks[b].items[i]);
      if (other === row || other.review.date !== date) break;
      if (++i === this.blocks[b].items.length) [b, i] = [b + 1, 0];
    }
    let removed = 0;
    // A row's entries may run across the end of a block.
    while (b < this.blocks.length && this.rowOf(this.blocks[b].items[i]) === row) {
      const items = this.blocks[b].items;
      let end = i;
      while (end < items.length && this.rowOf(items[end]) === row) end++;
      items.splice(i, end - i);
      removed += end - i;
      if (items.length === 0) this.blocks.splice(b, 1);
      else {
        // Its summary is made again when a scan asks.
        this.blocks[b] = { items };
        if (i === items.length) [b, i] = [b + 1, 0];
      }
    }
    if (removed === 0) throw new ChangeMismatch(`Ordered: review ${row.review.id} is not held`);
    this.size -= removed;
  }

  /** Fills an empty list with entries in corpus order (a state read back from a corpus image: row-image.ts), in the blocks pushes would make. */
  fill(entries: readonly E[]): void {
    if (this.size !== 0) throw new Error('Ordered.fill: the list is not empty');
    for (let i = 0; i < entries.length; i += BLOCK) this.blocks.push({ items: entries.slice(i, i + BLOCK) });
    this.size = entries.length;
  }

  /** Every entry, in order. */
  each(visit: (entry: E) => void): void {
    for (const block of this.blocks) for (const e of block.items) visit(e);
  }

  /** Ids of the first `k` entries' rows. */
  firstIds(k: number): string[] {
    const ids: string[] = [];
    for (const block of this.blocks) {
      for (const e of block.items) {
        if (ids.length === k) return ids;
        ids.push(this.rowOf(e).review.id);
      }
    }
    return ids;
  }

  /** The entries in order to `visit`, but for the blocks `skip` rules out by their summary (asked when the scan reaches them; a list without summaries asks nothing). */
  scan(visit: (entry: E) => void, skip: (summary: S) => boolean): void {
    const made = this.summary;
    for (const block of this.blocks) {
      if (made) {
        if (block.summary === undefined) {
          const summary = made.empty();
          for (const e of block.items) made.add(summary, e);
          block.summary = summary;
        }
        if (skip(block.summary)) continue;
      }
      for (const e of block.items) visit(e);
    }
  }

  /** The block and index of the first entry not newer than `date` (the end when none). */
  private firstNotNewer(date: string): [number, number] {
    const blocks = this.blocks;
    const b = firstNotNewer(blocks.length, (k) => this.rowOf(blocks[k].items[blocks[k].items.length - 1]), date);
    if (b === blocks.length) return [b, 0];
    const items = blocks[b].items;
    return [b, firstNotNewer(items.length, (k) => this.rowOf(items[k]), date)];
  }
}

/** A list of rows themselves (with a summary of each block, when given). */
export const rowList = <S = undefined>(summary?: Summary<Row, S>): Ordered<Row, S> => new Ordered((row: Row) => row, summary);

/** The first of `n` rows (newest first) not newer than `date`: a binary search. */
function firstNotNewer(n: number, rowAt: (k: number) => Row, date: string): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rowAt(mid).review.date > date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Corpus order kept under change. Rows are newest first (date desc; within a date the caller's order),
// and several builders report "the first k" of some rows in that order, so each keeps its rows in a list
// in corpus order that a revision updates where its rows go, instead of rebuilding it from every row.
import type { Row } from './rows.js';

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
    throw new Error(`Positions: review ${row.review.id} is not in the corpus among its date`);
  }
}

/** Entries (of rows) in corpus order; a row's entries stand together, in the order the row gives them. */
export class Ordered<E> {
  readonly items: E[] = [];

  constructor(private readonly rowOf: (entry: E) => Row) {}

  /** Entries of a row that comes after every row held (a pass in corpus order). */
  push(entry: E): void {
    this.items.push(entry);
  }

  /** A row's entries at its place in the corpus `at` describes (which holds every row held here). */
  insert(row: Row, entries: readonly E[], at: Positions): void {
    const items = this.items;
    const date = row.review.date;
    const mine = at.of(row);
    let i = firstNotNewer(items.length, (k) => this.rowOf(items[k]), date);
    while (i < items.length && this.rowOf(items[i]).review.date === date && at.of(this.rowOf(items[i])) < mine) i++;
    items.splice(i, 0, ...entries);
  }

  /** Every entry of the row; throws when it holds none. */
  remove(row: Row): void {
    const items = this.items;
    const date = row.review.date;
    let i = firstNotNewer(items.length, (k) => this.rowOf(items[k]), date);
    while (i < items.length && this.rowOf(items[i]) !== row && this.rowOf(items[i]).review.date === date) i++;
    let end = i;
    while (end < items.length && this.rowOf(items[end]) === row) end++;
    if (end === i) throw new Error(`Ordered: review ${row.review.id} is not held`);
    items.splice(i, end - i);
  }

  /** Ids of the first `k` entries' rows. */
  firstIds(k: number): string[] {
    const n = Math.min(k, this.items.length);
    const ids: string[] = new Array(n);
    for (let i = 0; i < n; i++) ids[i] = this.rowOf(this.items[i]).review.id;
    return ids;
  }
}

/** A list of rows themselves. */
export const rowList = (): Ordered<Row> => new Ordered((row: Row) => row);

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

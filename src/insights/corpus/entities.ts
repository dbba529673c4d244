// Technicians, services and service areas from each review's explicit attribution, and problems from the
// text analysis. Every entity of the business profile is listed (zero reviews included, so a client sees
// the whole team); an attributed id missing from the profile is listed under its id rather than dropped.
import type { EntityInsight, ProblemInsight } from '../../domain/index.js';
import { round } from '../score.js';
import { ChangeMismatch, type Ordered, type Positions, rowList } from './order.js';
import { percent } from './percent.js';
import { RowImageError, type StateIn, type StateOut } from './row-image.js';
import { type Accumulator, mean, type Row } from './rows.js';

const EXAMPLES = 5;
const TOP_ASPECTS = 3;

interface Acc {
  reviews: number;
  ratingSum: number;
  positive: number;
  /** Mentions per aspect, indexed like the taxonomy's aspect list (a typed array beats a Map at 100k rows). */
  aspects: Int32Array;
  /** The entity's reviews in corpus order: the examples are the first. */
  rows: Ordered<Row>;
}

/** Strings in code-unit order (0 when equal, so a comparator can go on to the next key). */
const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class EntityAccumulator implements Accumulator {
  private readonly acc = new Map<string, Acc>();
  private readonly names = new Map<string, string>();

  constructor(
    known: { id: string; name: string }[],
    private readonly aspectIds: string[],
    private readonly idsOf: (row: Row) => readonly string[],
  ) {
    for (const { id, name } of known) {
      this.names.set(id, name);
      this.get(id);
    }
  }

  private get(id: string): Acc {
    let a = this.acc.get(id);
    if (!a) {
      a = { reviews: 0, ratingSum: 0, positive: 0, aspects: new Int32Array(this.aspectIds.length), rows: rowList() };
      this.acc.set(id, a);
    }
    return a;
  }

  add(row: Row, at?: Positions): void {
    const ids = this.idsOf(row);
    for (let k = 0; k < ids.length; k++) {
      if (ids.indexOf(ids[k]) !== k) continue;
      const a = this.get(ids[k]);
      this.count(a, row, 1);
      if (at) a.rows.insert(row, [row], at);
      else a.rows.push(row);
    }
  }

  remove(row: Row): void {
    const ids = this.idsOf(row);
    for (let k = 0; k < ids.length; k++) {
      if (ids.indexOf(ids[k]) !== k) continue;
      const a = this.acc.get(ids[k]);
      if (!a) throw new ChangeMismatch(`EntityAccumulator: ${ids[k]} is not held`);
      this.count(a, row, -1);
      a.rows.remove(row);
      // An id the profile does not name is listed only while reviews attribute it.
      if (a.reviews === 0 && !this.names.has(ids[k])) this.acc.delete(ids[k]);
    }
  }

  save(out: StateOut): void {
    out.uint(this.acc.size);
    for (const [id, a] of this.acc) {
      out.string(id);
      out.uint(a.reviews);
      out.float(a.ratingSum);
      out.uint(a.positive);
      for (const n of a.aspects) out.uint(n);
      out.rows(a.rows);
    }
  }

  load(input: StateIn<Row>): void {
    // The profile's entities stand first, made by the constructor (as in a pass); the others follow in the state's order.
    for (let k = input.uint(); k > 0; k--) {
      const a = this.get(input.string());
      a.reviews = input.uint();
      a.ratingSum = input.float();
      a.positive = input.uint();
      for (let i = 0; i < a.aspects.length; i++) a.aspects[i] = input.uint();
      a.rows.fill(input.rows());
    }
  }

  private count(a: Acc, row: Row, sign: 1 | -1): void {
    a.reviews += sign;
    a.ratingSum += sign * row.review.rating;
    if (row.polarity === 'positive') a.positive += sign;
    for (let mask = row.aspectMask, bit = 0; mask !== 0; mask >>>= 1, bit++) if (mask & 1) a.aspects[bit] += sign;
  }

  result(): EntityInsight[] {
    const out: EntityInsight[] = [];
    for (const [id, a] of this.acc) {
      out.push({
        id,
        name: this.names.get(id) ?? id,
        review_count: a.reviews,
        avg_rating: a.reviews === 0 ? null : round(mean(a.ratingSum, a.reviews), 2),
        positive_pct: percent(a.positive, a.reviews),
        top_aspects: this.topAspects(a.aspects),
        example_review_ids: a.rows.firstIds(EXAMPLES),
      });
    }
    // Ids the profile does not name come and go, so they stand in the map in another order than a pass
    // meets them; that order never shows: the order is total (count, name, then id, which is unique), so
    // no two entities tie, whatever order they stand in.
    return out.sort((x, y) => y.review_count - x.review_count || codeUnitOrder(x.name, y.name) || codeUnitOrder(x.id, y.id));
  }

  private topAspects(counts: Int32Array): string[] {
    return this.aspectIds
      .map((id, i) => ({ id, n: counts[i] }))
      .filter((x) => x.n > 0)
      .sort((x, y) => y.n - x.n || (x.id < y.id ? -1 : 1))
      .slice(0, TOP_ASPECTS)
      .map((x) => x.id);
  }
}

export class ProblemAccumulator implements Accumulator {
  private readonly labels: Map<string, string>;
  /** Per problem, its reviews in corpus order (once per time a review names it, as they are counted). */
  private readonly acc = new Map<string, Ordered<Row>>();

  constructor(taxonomy: { id: string; label: string }[]) {
    this.labels = new Map(taxonomy.map((p) => [p.id, p.label]));
  }

  add(row: Row, at?: Positions): void {
    let placed: Map<Ordered<Row>, Row[]> | undefined;
    for (const id of row.analysis.problems) {
      if (!this.labels.has(id)) continue;
      let a = this.acc.get(id);
      if (!a) {
        a = rowList();
        this.acc.set(id, a);
      }
      if (!at) a.push(row);
      else {
        placed ??= new Map();
        placed.set(a, [...(placed.get(a) ?? []), row]);
      }
    }
    if (placed) for (const [a, mine] of placed) a.insert(row, mine, at as Positions);
  }

  remove(row: Row): void {
    for (const id of new Set(row.analysis.problems)) {
      const a = this.acc.get(id);
      if (!a) continue;
      a.remove(row);
      if (a.size === 0) this.acc.delete(id);
    }
  }

  save(out: StateOut): void {
    out.uint(this.acc.size);
    for (const [id, a] of this.acc) {
      out.string(id);
      out.rows(a);
    }
  }

  load(input: StateIn<Row>): void {
    for (let k = input.uint(); k > 0; k--) {
      const id = input.string();
      if (!this.labels.has(id)) throw new RowImageError(`the state names a problem this taxonomy has not: ${id}`);
      const a = rowList();
      a.fill(input.rows());
      this.acc.set(id, a);
    }
  }

  result(): ProblemInsight[] {
    return [...this.acc]
      .map(([id, a]) => ({
        id,
        label: this.labels.get(id) as string,
        review_count: a.size,
        example_review_ids: a.firstIds(EXAMPLES),
      }))
      .sort((x, y) => y.review_count - x.review_count || (x.id < y.id ? -1 : 1));
  }
}

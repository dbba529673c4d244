// Technicians, services and service areas from each review's explicit attribution, and problems from the
// text analysis. Every entity of the business profile is listed (zero reviews included, so a client sees
// the whole team); an attributed id missing from the profile is listed under its id rather than dropped.
import type { EntityInsight, ProblemInsight } from '../../domain/index.js';
import { round } from '../score.js';
import { percent } from './percent.js';
import { type Accumulator, mean, type Row } from './rows.js';

const EXAMPLES = 5;
const TOP_ASPECTS = 3;

interface Acc {
  reviews: number;
  ratingSum: number;
  positive: number;
  /** Mentions per aspect, indexed like the taxonomy's aspect list (a typed array beats a Map at 100k rows). */
  aspects: Int32Array;
  examples: string[];
}

export class EntityAccumulator implements Accumulator<EntityInsight[]> {
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
      a = { reviews: 0, ratingSum: 0, positive: 0, aspects: new Int32Array(this.aspectIds.length), examples: [] };
      this.acc.set(id, a);
    }
    return a;
  }

  add(row: Row): void {
    const ids = this.idsOf(row);
    for (let k = 0; k < ids.length; k++) {
      if (ids.indexOf(ids[k]) !== k) continue;
      const a = this.get(ids[k]);
      a.reviews++;
      a.ratingSum += row.review.rating;
      if (row.polarity === 'positive') a.positive++;
      for (let mask = row.aspectMask, bit = 0; mask !== 0; mask >>>= 1, bit++) if (mask & 1) a.aspects[bit]++;
      if (a.examples.length < EXAMPLES) a.examples.push(row.review.id);
    }
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
        example_review_ids: a.examples,
      });
    }
    return out.sort((x, y) => y.review_count - x.review_count || (x.name < y.name ? -1 : 1));
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

export class ProblemAccumulator implements Accumulator<ProblemInsight[]> {
  private readonly labels: Map<string, string>;
  private readonly acc = new Map<string, { count: number; examples: string[] }>();

  constructor(taxonomy: { id: string; label: string }[]) {
    this.labels = new Map(taxonomy.map((p) => [p.id, p.label]));
  }

  add(row: Row): void {
    for (const id of row.analysis.problems) {
      if (!this.labels.has(id)) continue;
      let a = this.acc.get(id);
      if (!a) {
        a = { count: 0, examples: [] };
        this.acc.set(id, a);
      }
      a.count++;
      if (a.examples.length < EXAMPLES) a.examples.push(row.review.id);
    }
  }

  result(): ProblemInsight[] {
    return [...this.acc]
      .map(([id, a]) => ({ id, label: this.labels.get(id) as string, review_count: a.count, example_review_ids: a.examples }))
      .sort((x, y) => y.review_count - x.review_count || (x.id < y.id ? -1 : 1));
  }
}

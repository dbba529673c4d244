// Technicians, services and service areas from each review's explicit attribution, and problems from the
// text analysis. Every entity of the business profile is listed (zero reviews included, so a client sees
// the whole team); an attributed id missing from the profile is listed under its id rather than dropped.
import type { EntityInsight, ProblemInsight } from '../../domain/insights.js';
import { percent } from './percent.js';
import { mean, topKeys, type Row } from './rows.js';
import { round } from '../score.js';

const EXAMPLES = 5;
const TOP_ASPECTS = 3;

interface Acc {
  reviews: number;
  ratingSum: number;
  positive: number;
  aspects: Map<string, number>;
  examples: string[];
}

export function buildEntities(rows: Row[], known: { id: string; name: string }[], idsOf: (row: Row) => readonly string[]): EntityInsight[] {
  const acc = new Map<string, Acc>();
  const names = new Map<string, string>();
  const get = (id: string): Acc => {
    let a = acc.get(id);
    if (!a) {
      a = { reviews: 0, ratingSum: 0, positive: 0, aspects: new Map(), examples: [] };
      acc.set(id, a);
    }
    return a;
  };
  for (const { id, name } of known) {
    names.set(id, name);
    get(id);
  }
  for (const row of rows) {
    const ids = idsOf(row);
    for (let k = 0; k < ids.length; k++) {
      if (ids.indexOf(ids[k]) !== k) continue;
      const a = get(ids[k]);
      a.reviews++;
      a.ratingSum += row.review.rating;
      if (row.polarity === 'positive') a.positive++;
      for (const aspect of row.analysis.aspects) a.aspects.set(aspect.id, (a.aspects.get(aspect.id) ?? 0) + 1);
      if (a.examples.length < EXAMPLES) a.examples.push(row.review.id);
    }
  }
  const out: EntityInsight[] = [];
  for (const [id, a] of acc) {
    out.push({
      id,
      name: names.get(id) ?? id,
      review_count: a.reviews,
      avg_rating: a.reviews === 0 ? null : round(mean(a.ratingSum, a.reviews), 2),
      positive_pct: percent(a.positive, a.reviews),
      top_aspects: topKeys(a.aspects, TOP_ASPECTS),
      example_review_ids: a.examples,
    });
  }
  return out.sort((x, y) => y.review_count - x.review_count || (x.name < y.name ? -1 : 1));
}

export function buildProblems(rows: Row[], taxonomy: { id: string; label: string }[]): ProblemInsight[] {
  const labels = new Map(taxonomy.map((p) => [p.id, p.label]));
  const acc = new Map<string, { count: number; examples: string[] }>();
  for (const row of rows) {
    for (const id of row.analysis.problems) {
      if (!labels.has(id)) continue;
      const a = acc.get(id) ?? { count: 0, examples: [] };
      a.count++;
      if (a.examples.length < EXAMPLES) a.examples.push(row.review.id);
      acc.set(id, a);
    }
  }
  return [...acc]
    .map(([id, a]) => ({ id, label: labels.get(id) as string, review_count: a.count, example_review_ids: a.examples }))
    .sort((x, y) => y.review_count - x.review_count || (x.id < y.id ? -1 : 1));
}

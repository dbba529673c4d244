// Aspect insights: per aspect, how many reviews mention it and with which polarity (review-level, as stored
// in each analysis's `aspects`), the most frequent phrases, newest examples and the strongest quotes.
import type { AspectInsight, Polarity } from '../../domain/index.js';
import { round } from '../score.js';
import { percentages } from './percent.js';
import { sentenceText, TopQuotes } from './quotes.js';
import { type Accumulator, mean, type Row, topKeys } from './rows.js';

const TOP_PHRASES = 5;
const EXAMPLES = 5;
const QUOTES_PER_POLARITY = 2;
const MAX_QUOTES = 3;

interface Acc {
  counts: Record<Polarity, number>;
  scoreSum: number;
  phrases: Map<string, number>;
  examples: string[];
  quotes: { positive: TopQuotes; negative: TopQuotes };
}

export class AspectAccumulator implements Accumulator<AspectInsight[]> {
  private readonly acc = new Map<string, Acc>();

  constructor(private readonly taxonomy: { id: string; label: string }[]) {
    for (const { id } of taxonomy) {
      this.acc.set(id, {
        counts: { positive: 0, neutral: 0, negative: 0, conflict: 0 },
        scoreSum: 0,
        phrases: new Map(),
        examples: [],
        quotes: { positive: new TopQuotes(QUOTES_PER_POLARITY), negative: new TopQuotes(QUOTES_PER_POLARITY) },
      });
    }
  }

  add(row: Row): void {
    // Review-level aspects only: each carries its phrase and the sentence to quote, so the hot loop never
    // touches the sentences (at 100k reviews the cost of this pass is memory traffic).
    for (const aspect of row.analysis.aspects) {
      const a = this.acc.get(aspect.id);
      // An analysis from another taxonomy (vertical changed, not yet recomputed) has ids we do not report.
      if (!a) continue;
      a.counts[aspect.polarity]++;
      a.scoreSum += aspect.score;
      if (a.examples.length < EXAMPLES) a.examples.push(row.review.id);
      if (aspect.phrase !== '') a.phrases.set(aspect.phrase, (a.phrases.get(aspect.phrase) ?? 0) + 1);
      if (aspect.polarity !== 'positive' && aspect.polarity !== 'negative') continue;
      const top = a.quotes[aspect.polarity];
      const strength = Math.abs(aspect.score);
      if (!top.accepts(strength)) continue;
      const text = sentenceText(row, aspect.sentence);
      if (text !== null) top.offer({ reviewId: row.review.id, text, polarity: aspect.polarity, strength });
    }
  }

  result(): AspectInsight[] {
    const out = this.taxonomy.map(({ id, label }): AspectInsight => {
      const a = this.acc.get(id) as Acc;
      const { positive, neutral, negative, conflict } = a.counts;
      const mentions = positive + neutral + negative + conflict;
      const [positivePct, neutralPct, negativePct, conflictPct] = percentages([positive, neutral, negative, conflict]);
      return {
        id,
        label,
        mention_count: mentions,
        positive_count: positive,
        neutral_count: neutral,
        negative_count: negative,
        conflict_count: conflict,
        positive_pct: positivePct,
        neutral_pct: neutralPct,
        negative_pct: negativePct,
        conflict_pct: conflictPct,
        score: round(mean(a.scoreSum, mentions), 3),
        top_phrases: topKeys(a.phrases, TOP_PHRASES),
        example_review_ids: a.examples,
        quotes: balancedQuotes(a, positive >= negative),
      };
    });
    return out.sort((x, y) => y.mention_count - x.mention_count);
  }
}

/** The best quote of each polarity, then one more of the majority polarity: a fair picture in three lines. */
function balancedQuotes(a: Acc, mostlyPositive: boolean) {
  const [major, minor] = mostlyPositive
    ? [a.quotes.positive.items, a.quotes.negative.items]
    : [a.quotes.negative.items, a.quotes.positive.items];
  const chosen = [major[0], minor[0], major[1]].filter((q) => q !== undefined).slice(0, MAX_QUOTES);
  return chosen.map((q) => ({ review_id: q.reviewId, text: q.text, sentiment: q.polarity }));
}

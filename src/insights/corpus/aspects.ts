// Aspect insights: per aspect, how many reviews mention it and with which polarity (review-level, as stored
// in each analysis's `aspects`), the most frequent phrases, newest examples and the strongest quotes.
import type { AspectInsight, Polarity, ReviewAspect } from '../../domain/index.js';
import { Ordered, type Positions } from './order.js';
import { percentages } from './percent.js';
import { sentenceText, TopQuotes } from './quotes.js';
import { type Accumulator, bump, milli, milliMean, type Row, topKeys } from './rows.js';

const TOP_PHRASES = 5;
const EXAMPLES = 5;
const QUOTES_PER_POLARITY = 2;
const MAX_QUOTES = 3;

/** One aspect of one row, as an aspect's mentions keep it. */
interface Mention {
  row: Row;
  aspect: ReviewAspect;
}

interface Acc {
  counts: Record<Polarity, number>;
  /** Scores in thousandths (rows.ts milli). */
  scoreSum: number;
  phrases: Map<string, number>;
  /** Every mention in corpus order: the examples are its first, the quotes its strongest. */
  mentions: Ordered<Mention>;
  /** The quotes of the mentions as they are; null when a mention came or went since they were chosen. */
  quotes: { positive: TopQuotes; negative: TopQuotes } | null;
}

export class AspectAccumulator implements Accumulator {
  private readonly acc = new Map<string, Acc>();

  constructor(private readonly taxonomy: { id: string; label: string }[]) {
    for (const { id } of taxonomy) {
      this.acc.set(id, {
        counts: { positive: 0, neutral: 0, negative: 0, conflict: 0 },
        scoreSum: 0,
        phrases: new Map(),
        mentions: new Ordered((m) => m.row),
        quotes: null,
      });
    }
  }

  add(row: Row, at?: Positions): void {
    // Review-level aspects only: each carries its phrase and the sentence to quote, so the hot loop never
    // touches the sentences (at 100k reviews the cost of this pass is memory traffic).
    let placed: Map<Acc, Mention[]> | undefined;
    for (const aspect of row.analysis.aspects) {
      const a = this.count(aspect, 1);
      if (!a) continue;
      const mention = { row, aspect };
      if (!at) a.mentions.push(mention);
      else {
        placed ??= new Map();
        const mine = placed.get(a);
        if (mine) mine.push(mention);
        else placed.set(a, [mention]);
      }
    }
    if (placed) for (const [a, mine] of placed) a.mentions.insert(row, mine, at as Positions);
  }

  remove(row: Row): void {
    const seen = new Set<Acc>();
    for (const aspect of row.analysis.aspects) {
      const a = this.count(aspect, -1);
      if (a && !seen.has(a)) {
        seen.add(a);
        a.mentions.remove(row);
      }
    }
  }

  /** Counts a mention in (+1) or out (-1); its aspect's record, or undefined for an id not reported. */
  private count(aspect: ReviewAspect, sign: 1 | -1): Acc | undefined {
    const a = this.acc.get(aspect.id);
    // An analysis from another taxonomy (vertical changed, not yet recomputed) has ids we do not report.
    if (!a) return undefined;
    a.counts[aspect.polarity] += sign;
    a.scoreSum += sign * milli(aspect.score);
    if (aspect.phrase !== '') bump(a.phrases, aspect.phrase, sign);
    // Only positive and negative mentions are quoted.
    if (aspect.polarity === 'positive' || aspect.polarity === 'negative') a.quotes = null;
    return a;
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
        score: milliMean(a.scoreSum, mentions),
        top_phrases: topKeys(a.phrases, TOP_PHRASES),
        example_review_ids: a.mentions.firstIds(EXAMPLES),
        quotes: balancedQuotes((a.quotes ??= quotesOf(a.mentions.items)), positive >= negative),
      };
    });
    return out.sort((x, y) => y.mention_count - x.mention_count);
  }
}

/**
 * The strongest quotes of each polarity, offered in corpus order: which survive depends on the order
 * (ties keep the newer; a wording or review already kept turns a later one away), so an aspect whose
 * mentions changed chooses again from all of them rather than patching the last choice.
 */
function quotesOf(mentions: readonly Mention[]): { positive: TopQuotes; negative: TopQuotes } {
  const quotes = { positive: new TopQuotes(QUOTES_PER_POLARITY), negative: new TopQuotes(QUOTES_PER_POLARITY) };
  for (const { row, aspect } of mentions) {
    if (aspect.polarity !== 'positive' && aspect.polarity !== 'negative') continue;
    const top = quotes[aspect.polarity];
    const strength = Math.abs(aspect.score);
    if (!top.accepts(strength)) continue;
    const text = sentenceText(row, aspect.sentence);
    if (text !== null) top.offer({ reviewId: row.review.id, text, polarity: aspect.polarity, strength });
  }
  return quotes;
}

/** The best quote of each polarity, then one more of the majority polarity: a fair picture in three lines. */
function balancedQuotes(quotes: { positive: TopQuotes; negative: TopQuotes }, mostlyPositive: boolean) {
  const [major, minor] = mostlyPositive ? [quotes.positive.items, quotes.negative.items] : [quotes.negative.items, quotes.positive.items];
  const chosen = [major[0], minor[0], major[1]].filter((q) => q !== undefined).slice(0, MAX_QUOTES);
  return chosen.map((q) => ({ review_id: q.reviewId, text: q.text, sentiment: q.polarity }));
}

// Aspect insights: per aspect, how many reviews mention it and with which polarity (review-level, as stored
// in each analysis's `aspects`), the most frequent phrases, newest examples and the strongest quotes.
import type { AspectInsight, Polarity, ReviewAspect } from '../../domain/index.js';
import type { HeldAspect } from './held-row.js';
import { Ordered, type Positions } from './order.js';
import { percentages } from './percent.js';
import { sentenceText, TopQuotes, Wordings } from './quotes.js';
import { type Accumulator, bump, milliMean, type Row, topKeys } from './rows.js';

const TOP_PHRASES = 5;
const EXAMPLES = 5;
const QUOTES_PER_POLARITY = 2;
const MAX_QUOTES = 3;

/** One aspect of one row, as an aspect's mentions keep it: the aspect itself, which knows its row. */
type Mention = HeldAspect;

type Quoted = 'positive' | 'negative';

const rowOfMention = (m: Mention): Row => m.row;
/** A block of quotable mentions summarised by its wordings, so a scan skips the blocks that cannot move the quotes kept. */
const wordings = {
  empty: () => new Wordings(QUOTES_PER_POLARITY + 1),
  add: (w: Wordings, m: Mention) => w.add(sentenceText(m), Math.abs(m.score)),
};

interface Acc {
  counts: Record<Polarity, number>;
  /** Scores in thousandths (rows.ts milli). */
  scoreSum: number;
  phrases: Map<string, number>;
  /** Every mention in corpus order: the examples are its first. */
  mentions: Ordered<Mention>;
  /** The positive and the negative mentions in corpus order, the quotes their strongest. */
  quotable: Record<Quoted, Ordered<Mention, Wordings>>;
  /** The quotes of the mentions as they are; null when a quotable mention came or went since they were chosen. */
  quotes: Record<Quoted, TopQuotes> | null;
}

export class AspectAccumulator implements Accumulator {
  private readonly acc = new Map<string, Acc>();

  constructor(private readonly taxonomy: { id: string; label: string }[]) {
    for (const { id } of taxonomy) {
      this.acc.set(id, {
        counts: { positive: 0, neutral: 0, negative: 0, conflict: 0 },
        scoreSum: 0,
        phrases: new Map(),
        mentions: new Ordered(rowOfMention),
        quotable: { positive: new Ordered(rowOfMention, wordings), negative: new Ordered(rowOfMention, wordings) },
        quotes: null,
      });
    }
  }

  add(row: Row, at?: Positions): void {
    // Review-level aspects only: each carries its phrase and the sentence to quote, so the hot loop never
    // touches the sentences (at 100k reviews the cost of this pass is memory traffic).
    let placed: Map<Ordered<Mention, unknown>, Mention[]> | undefined;
    for (const aspect of row.analysis.aspects) {
      const a = this.count(aspect, 1);
      if (!a) continue;
      for (const list of listsOf(a, aspect)) {
        if (!at) list.push(aspect);
        else {
          placed ??= new Map();
          const mine = placed.get(list);
          if (mine) mine.push(aspect);
          else placed.set(list, [aspect]);
        }
      }
    }
    if (placed) for (const [list, mine] of placed) list.insert(row, mine, at as Positions);
  }

  remove(row: Row): void {
    const lists = new Set<Ordered<Mention, unknown>>();
    for (const aspect of row.analysis.aspects) {
      const a = this.count(aspect, -1);
      if (a) for (const list of listsOf(a, aspect)) lists.add(list);
    }
    for (const list of lists) list.remove(row);
  }

  /** Counts a mention in (+1) or out (-1); its aspect's record, or undefined for an id not reported. */
  private count(aspect: HeldAspect, sign: 1 | -1): Acc | undefined {
    const a = this.acc.get(aspect.id);
    // An analysis from another taxonomy (vertical changed, not yet recomputed) has ids we do not report.
    if (!a) return undefined;
    a.counts[aspect.polarity] += sign;
    a.scoreSum += sign * aspect.scoreMilli;
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
        quotes: balancedQuotes((a.quotes ??= quotesOf(a.quotable)), positive >= negative),
      };
    });
    return out.sort((x, y) => y.mention_count - x.mention_count);
  }
}

/** The lists a mention stands in: its aspect's mentions, and its polarity's when that is quoted. */
const listsOf = (a: Acc, aspect: ReviewAspect): Ordered<Mention, unknown>[] =>
  aspect.polarity === 'positive' || aspect.polarity === 'negative' ? [a.mentions, a.quotable[aspect.polarity]] : [a.mentions];

/**
 * The strongest quotes of each polarity, offered in corpus order: which survive depends on the order
 * (ties keep the newer; a wording or review already kept turns a later one away), so an aspect whose
 * quotable mentions changed chooses again from all of them rather than patching the last choice. The
 * scan skips the blocks of mentions that cannot move them, which is most of them.
 */
function quotesOf(quotable: Record<Quoted, Ordered<Mention, Wordings>>): Record<Quoted, TopQuotes> {
  const quotes = { positive: new TopQuotes(QUOTES_PER_POLARITY), negative: new TopQuotes(QUOTES_PER_POLARITY) };
  for (const polarity of ['positive', 'negative'] as const) {
    const top = quotes[polarity];
    quotable[polarity].scan(
      (aspect) => {
        const strength = Math.abs(aspect.score);
        if (!top.accepts(strength)) return;
        const text = sentenceText(aspect);
        if (text !== null) top.offer({ reviewId: aspect.row.id, text, polarity, strength });
      },
      (w) => top.unmovedBy(w),
    );
  }
  return quotes;
}

/** The best quote of each polarity, then one more of the majority polarity: a fair picture in three lines. */
function balancedQuotes(quotes: Record<Quoted, TopQuotes>, mostlyPositive: boolean) {
  const [major, minor] = mostlyPositive ? [quotes.positive.items, quotes.negative.items] : [quotes.negative.items, quotes.positive.items];
  const chosen = [major[0], minor[0], major[1]].filter((q) => q !== undefined).slice(0, MAX_QUOTES);
  return chosen.map((q) => ({ review_id: q.reviewId, text: q.text, sentiment: q.polarity }));
}

// Aspect insights: per aspect, how many reviews mention it and with which polarity (review-level, as stored
// in each analysis's `aspects`), the most frequent phrases, newest examples and the strongest quotes.
import { type AspectInsight, POLARITIES, type Polarity } from '../../domain/index.js';
import { type Ordered, type Positions, rowList } from './order.js';
import { percentages } from './percent.js';
import { sentenceText, TopQuotes, Wordings } from './quotes.js';
import { RowImageError, type StateIn, type StateOut } from './row-image.js';
import { type Accumulator, bump, milliMean, type Row, topKeys } from './rows.js';

const TOP_PHRASES = 5;
const EXAMPLES = 5;
const QUOTES_PER_POLARITY = 2;
const MAX_QUOTES = 3;
/** The polarities quoted (each has its list and its quotes). */
const QUOTED = ['positive', 'negative'] as const;

type Quoted = (typeof QUOTED)[number];

/** A block of quotable rows summarised by the wordings of their mentions, so a scan skips the blocks that cannot move the quotes kept. */
const wordings = (id: string, polarity: Quoted) => ({
  empty: () => new Wordings(QUOTES_PER_POLARITY + 1),
  add: (w: Wordings, row: Row) => row.eachAspect(id, polarity, (k) => w.add(row, k, Math.abs(row.aspectScore(k)))),
});

interface Acc {
  counts: Record<Polarity, number>;
  /** Scores in thousandths (rows.ts milli). */
  scoreSum: number;
  phrases: Map<string, number>;
  /** Every row mentioning the aspect, in corpus order: the examples are its first. */
  mentions: Ordered<Row>;
  /** The rows with a positive and with a negative mention, in corpus order, the quotes their strongest. */
  quotable: Record<Quoted, Ordered<Row, Wordings>>;
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
        mentions: rowList(),
        quotable: {
          positive: rowList(wordings(id, 'positive')),
          negative: rowList(wordings(id, 'negative')),
        },
        quotes: null,
      });
    }
  }

  add(row: Row, at?: Positions): void {
    // Review-level aspects only: each carries its phrase and the sentence to quote, so the hot loop never
    // touches the sentences (at 100k reviews the cost of this pass is memory traffic).
    for (let k = 0; k < row.aspectCount; k++) {
      const a = this.count(row, k, 1);
      if (!a) continue;
      for (const list of listsOf(a, row, k)) {
        if (at) list.insert(row, [row], at);
        else list.push(row);
      }
    }
  }

  remove(row: Row): void {
    for (let k = 0; k < row.aspectCount; k++) {
      const a = this.count(row, k, -1);
      if (a) for (const list of listsOf(a, row, k)) list.remove(row);
    }
  }

  save(out: StateOut): void {
    for (const { id } of this.taxonomy) {
      const a = this.acc.get(id) as Acc;
      out.string(id);
      for (const p of POLARITIES) out.uint(a.counts[p]);
      out.float(a.scoreSum);
      out.counts(a.phrases);
      for (const list of [a.mentions, a.quotable.positive, a.quotable.negative]) out.rows(list);
      // The quotes as chosen, so a state taken back scans only the lists a revision changes.
      for (const polarity of QUOTED) TopQuotes.save(out, a.quotes?.[polarity] ?? null);
    }
  }

  load(input: StateIn<Row>): void {
    for (const { id } of this.taxonomy) {
      const a = this.acc.get(id) as Acc;
      if (input.string() !== id) throw new RowImageError('the state is of another taxonomy');
      for (const p of POLARITIES) a.counts[p] = input.uint();
      a.scoreSum = input.float();
      input.counts(a.phrases);
      for (const list of [a.mentions, a.quotable.positive, a.quotable.negative]) list.fill(input.rows());
      const [positive, negative] = QUOTED.map(() => TopQuotes.load(input, QUOTES_PER_POLARITY));
      if (positive && negative) a.quotes = { positive, negative };
      else if (positive || negative) throw new RowImageError('the state has half an aspect’s quotes');
    }
  }

  /** Counts aspect k of the row in (+1) or out (-1); its aspect's record, or undefined for an id not reported. */
  private count(row: Row, k: number, sign: 1 | -1): Acc | undefined {
    const a = this.acc.get(row.aspectId(k));
    // An analysis from another taxonomy (vertical changed, not yet recomputed) has ids we do not report.
    if (!a) return undefined;
    const polarity = row.aspectPolarity(k);
    a.counts[polarity] += sign;
    a.scoreSum += sign * row.aspectScoreMilli(k);
    const phrase = row.aspectPhrase(k);
    if (phrase !== '') bump(a.phrases, phrase, sign);
    // Only positive and negative mentions are quoted.
    if (polarity === 'positive' || polarity === 'negative') a.quotes = null;
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
        quotes: balancedQuotes((a.quotes ??= quotesOf(id, a.quotable)), positive >= negative),
      };
    });
    return out.sort((x, y) => y.mention_count - x.mention_count);
  }
}

/**
 * The lists aspect k of the row puts the row in: its aspect's mentions, and its polarity's when that is
 * quoted; only from the row's first aspect of that id (and polarity), so a row stands in a list once (an
 * analysis names an aspect once; the scans read every aspect of the id the row has).
 */
function listsOf(a: Acc, row: Row, k: number): Ordered<Row, unknown>[] {
  const id = row.aspectId(k);
  const polarity = row.aspectPolarity(k);
  const lists: Ordered<Row, unknown>[] = row.findAspect(id) === k ? [a.mentions] : [];
  if ((polarity === 'positive' || polarity === 'negative') && row.findAspect(id, polarity) === k) lists.push(a.quotable[polarity]);
  return lists;
}

/**
 * The strongest quotes of each polarity, offered in corpus order: which survive depends on the order
 * (ties keep the newer; a wording or review already kept turns a later one away), so an aspect whose
 * quotable mentions changed chooses again from all of them rather than patching the last choice. The
 * scan skips the blocks of mentions that cannot move them, which is most of them.
 */
function quotesOf(id: string, quotable: Record<Quoted, Ordered<Row, Wordings>>): Record<Quoted, TopQuotes> {
  const quotes = { positive: new TopQuotes(QUOTES_PER_POLARITY), negative: new TopQuotes(QUOTES_PER_POLARITY) };
  for (const polarity of QUOTED) {
    const top = quotes[polarity];
    quotable[polarity].scan(
      (row) =>
        row.eachAspect(id, polarity, (k) => {
          const strength = Math.abs(row.aspectScore(k));
          if (!top.accepts(strength)) return;
          const text = sentenceText(row, k);
          if (text !== null) top.offer({ reviewId: row.id, text, polarity, strength });
        }),
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

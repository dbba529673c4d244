// Quotable sentences. A quote is always text.slice(start, end) of the review it names, so it is an exact
// substring by construction; a row keeps only sentences of a quote's length (held-row.ts), readable in a card
// or an agent's answer.
import type { Polarity } from '../../domain/index.js';
import { type Positions, rowList } from './order.js';
import type { StateIn, StateOut } from './row-image.js';
import type { Accumulator, Row } from './rows.js';

interface QuoteCandidate {
  reviewId: string;
  text: string;
  polarity: Polarity;
  /** How strongly the sentence says it (|score|); higher is better, ties keep the newer review. */
  strength: number;
}

/** The text of the sentence aspect k of a row quotes, or null when it has none (a row keeps only the quotable ones, held-row.ts). */
export function sentenceText(row: Row, k: number): string | null {
  const start = row.aspectStart(k);
  return start < 0 ? null : (row.text as string).slice(start, row.aspectEnd(k));
}

/** Keeps the best `k` candidates; rows arrive newest first, so equal strength keeps the earlier (newer). */
export class TopQuotes {
  readonly items: QuoteCandidate[] = [];

  constructor(private readonly k: number) {}

  /** Cheap pre-check, so callers slice a sentence out of its review only when it could be kept. */
  accepts(strength: number): boolean {
    return strength > this.floor();
  }

  /** The strength a candidate must exceed: the weakest kept once there are k, else none. */
  floor(): number {
    return this.items.length < this.k ? Number.NEGATIVE_INFINITY : this.items[this.k - 1].strength;
  }

  /** Whether no candidate of `w` could be kept as things stand: each is too weak, or says what is kept. */
  unmovedBy(w: Wordings): boolean {
    for (let i = 0; i < w.texts.length; i++) {
      if (this.items.some((q) => q.text === w.texts[i])) continue;
      // The strongest candidate with a wording not kept.
      return w.strengths[i] <= this.floor();
    }
    return true;
  }

  /** Writes the quotes kept, or that none were chosen (null: chosen again when asked), into a corpus image. */
  static save(out: StateOut, top: TopQuotes | null): void {
    // 0 for none chosen, else 1 + how many are kept.
    const items = top?.items ?? [];
    out.uint(top === null ? 0 : 1 + items.length);
    for (const q of items) {
      out.string(q.reviewId);
      out.string(q.text);
      out.string(q.polarity);
      out.float(q.strength);
    }
  }

  /** What save wrote, as quotes that keep the best `k`. */
  static load(input: StateIn<Row>, k: number): TopQuotes | null {
    const n = input.uint();
    if (n === 0) return null;
    const top = new TopQuotes(k);
    for (let i = 1; i < n; i++)
      top.items.push({ reviewId: input.string(), text: input.string(), polarity: input.string() as Polarity, strength: input.float() });
    return top;
  }

  offer(candidate: QuoteCandidate): void {
    if (!this.accepts(candidate.strength)) return;
    // Templated reviews repeat sentences word for word; one review and one wording appear once.
    if (this.items.some((q) => q.reviewId === candidate.reviewId || q.text === candidate.text)) return;
    let at = this.items.length;
    while (at > 0 && this.items[at - 1].strength < candidate.strength) at--;
    this.items.splice(at, 0, candidate);
    if (this.items.length > this.k) this.items.pop();
  }
}

/**
 * The strongest few distinct wordings of some candidates (a block of a list of them), each with its
 * greatest strength, strongest first: `room` more than a TopQuotes keeps, so that whatever wordings it
 * keeps, the strongest other wording is here, and TopQuotes.unmovedBy can tell a scan to skip the block.
 */
export class Wordings {
  readonly texts: string[] = [];
  readonly strengths: number[] = [];

  constructor(private readonly room: number) {}

  /** The sentence aspect k of the row quotes, as a candidate this strong. */
  add(row: Row, k: number, strength: number): void {
    const { texts, strengths } = this;
    // Nothing changes once `room` wordings are kept and each is at least as strong (this wording kept or
    // not): asked first, so most candidates of a block are never cut out of their review's text.
    if (texts.length === this.room && strength <= strengths[this.room - 1]) return;
    const text = sentenceText(row, k);
    // A candidate without a quotable sentence is never offered.
    if (text === null) return;
    const had = texts.indexOf(text);
    if (had >= 0) {
      if (strengths[had] >= strength) return;
      texts.splice(had, 1);
      strengths.splice(had, 1);
    } else if (texts.length === this.room) {
      // Stronger than the weakest kept (above): that one goes. A wording dropped is weaker than every one
      // kept, which is all a scan asks.
      texts.pop();
      strengths.pop();
    }
    let at = texts.length;
    while (at > 0 && strengths[at - 1] < strength) at--;
    texts.splice(at, 0, text);
    strengths.splice(at, 0, strength);
  }
}

/**
 * The corpus's pull quote: the strongest praise of an aspect (the sentence a review's positive aspect
 * points at), from a 4–5 star review when any exists. Like an aspect's quotes, it is chosen again from
 * its candidates (the reviews praising any aspect, in corpus order) when they change.
 */
export class PullQuoteAccumulator implements Accumulator {
  private readonly best = new Candidates();
  private readonly fallback = new Candidates();

  add(row: Row, at?: Positions): void {
    if (praises(row)) this.of(row).add(row, at);
  }

  remove(row: Row): void {
    if (praises(row)) this.of(row).remove(row);
  }

  save(out: StateOut): void {
    this.best.save(out);
    this.fallback.save(out);
  }

  load(input: StateIn<Row>): void {
    this.best.load(input);
    this.fallback.load(input);
  }

  private of(row: Row): Candidates {
    return row.review.rating >= 4 ? this.best : this.fallback;
  }

  result(): { text: string; reviewId: string | null } {
    const chosen = this.best.top() ?? this.fallback.top();
    return chosen ? { text: chosen.text, reviewId: chosen.reviewId } : { text: '', reviewId: null };
  }
}

const praises = (row: Row): boolean => row.findAspect(null, 'positive') >= 0;

/** Reviews praising an aspect, in corpus order, and the quote they give (null once they change). */
class Candidates {
  /** Each block summarised by the wordings of its praise, so a scan skips the blocks that cannot move the quote kept. */
  private readonly rows = rowList({
    empty: () => new Wordings(2),
    add: (w: Wordings, row: Row) => {
      row.eachAspect(null, 'positive', (k) => w.add(row, k, row.aspectScore(k)));
    },
  });
  private chosen: TopQuotes | null = null;

  add(row: Row, at?: Positions): void {
    if (at) this.rows.insert(row, [row], at);
    else this.rows.push(row);
    this.chosen = null;
  }

  remove(row: Row): void {
    this.rows.remove(row);
    this.chosen = null;
  }

  save(out: StateOut): void {
    out.rows(this.rows);
    TopQuotes.save(out, this.chosen);
  }

  load(input: StateIn<Row>): void {
    this.rows.fill(input.rows());
    this.chosen = TopQuotes.load(input, 1);
  }

  top(): QuoteCandidate | undefined {
    if (!this.chosen) {
      const top = (this.chosen = new TopQuotes(1));
      this.rows.scan(
        (row) => {
          row.eachAspect(null, 'positive', (k) => {
            const score = row.aspectScore(k);
            if (!top.accepts(score)) return;
            const text = sentenceText(row, k);
            if (text !== null) top.offer({ reviewId: row.review.id, text, polarity: 'positive', strength: score });
          });
        },
        (w) => top.unmovedBy(w),
      );
    }
    return this.chosen.items[0];
  }
}

// A row of the insights (rows.ts Row), as few objects as it can be, whether a corpus keeps it between
// revisions or buildInsights makes it for one pass. A Row is three objects (the row, its
// review and its analysis: 200 bytes at 64-bit pointers before any list or string); this one holds their
// fields side by side and is its own `review` and `analysis` (120 bytes). Its aspects carry where their
// sentence lies, instead of a sparse list of sentence objects, and are the aspect lists' entries (aspects.ts),
// instead of a pair object per mention in each list; rows share their lists of ids, and keep scores as
// small integers. At 100k demo reviews the corpus thread's heap after an update is 93 MB, against 146 MB
// for three objects a row.
import type { Polarity, ReviewAspect } from '../../domain/index.js';
import { polarityOfScore } from '../score.js';
import type { CorpusReview, InsightAnalysis } from './rows.js';

/**
 * Scores (sentiment: 3 decimals, aspects: 2) in whole thousandths. The builders sum them so: a sum that rows
 * leave and join in any order stays exact, so a kept sum and a fresh pass agree to the bit. A row keeps them
 * so: a small integer is stored in the field itself, where any other number would be an object of its own
 * (16 bytes; 286k of them at 100k demo reviews).
 */
const milli = (score: number): number => Math.round(score * 1000);

/** A score its thousandths do not give back exactly (an older engine's, say), kept as it is. */
class ExactScore {
  constructor(readonly value: number) {}
}

/** A score as a row keeps it: its thousandths, or itself, boxed. −0, which rounding makes of small negative scores, is kept as 0 (`+ 0`): equal, and a sum or JSON reads them alike. */
function keptScore(score: number): number | ExactScore {
  const m = milli(score);
  return m / 1000 === score && Math.abs(m) <= 1_000_000 ? m + 0 : new ExactScore(score);
}

const scoreOf = (kept: number | ExactScore): number => (typeof kept === 'number' ? kept / 1000 : kept.value);
const milliOf = (kept: number | ExactScore): number => (typeof kept === 'number' ? kept : milli(kept.value));

/** A kept row's aspect: the analysis's, the span of the sentence it quotes (start −1 for none), and its row. */
export class HeldAspect implements ReviewAspect {
  readonly id: string;
  readonly polarity: ReviewAspect['polarity'];
  private readonly keptScore: number | ExactScore;
  readonly phrase: string;
  readonly sentence: number;
  readonly start: number;
  readonly end: number;

  constructor(
    aspect: ReviewAspect,
    span: { start: number; end: number } | undefined,
    readonly row: HeldRow,
  ) {
    this.id = aspect.id;
    this.polarity = aspect.polarity;
    this.keptScore = keptScore(aspect.score);
    this.phrase = aspect.phrase;
    this.sentence = aspect.sentence;
    this.start = span ? span.start : -1;
    this.end = span ? span.end : -1;
  }

  get score(): number {
    return scoreOf(this.keptScore);
  }

  /** The score in whole thousandths, as the builders sum it. */
  get scoreMilli(): number {
    return milliOf(this.keptScore);
  }
}

export class HeldRow implements CorpusReview, InsightAnalysis {
  readonly id: string;
  readonly rating: number;
  readonly date: string;
  readonly text: string | null;
  readonly technicians: string[];
  readonly services: string[];
  readonly service_area: string | null;
  private readonly keptSentiment: number | ExactScore;
  readonly aspects: HeldAspect[];
  readonly problems: string[];
  readonly phrases: string[];
  /** Bit i set when the review mentions taxonomy aspect i: entity builders read this, not the analysis. */
  readonly aspectMask: number;

  /** `aspectIndex`: taxonomy aspect id → bit (aspectMask); `shared`: the list of ids to keep for a list of technician, service or problem ids. */
  constructor(
    review: CorpusReview,
    analysis: InsightAnalysis,
    aspectIndex: ReadonlyMap<string, number>,
    shared: (ids: string[]) => string[],
  ) {
    this.id = review.id;
    this.rating = review.rating;
    this.date = review.date;
    this.text = review.text;
    this.technicians = shared(review.technicians);
    this.services = shared(review.services);
    this.service_area = review.service_area;
    this.keptSentiment = keptScore(analysis.sentiment);
    // An empty list stays the one the caller shares.
    this.aspects =
      analysis.aspects.length === 0
        ? (analysis.aspects as HeldAspect[])
        : analysis.aspects.map((a) => new HeldAspect(a, analysis.sentences[a.sentence], this));
    this.problems = shared(analysis.problems);
    this.phrases = analysis.phrases;
    let mask = 0;
    for (const a of analysis.aspects) {
      const bit = aspectIndex.get(a.id);
      if (bit !== undefined) mask |= 1 << bit;
    }
    this.aspectMask = mask;
  }

  get sentiment(): number {
    return scoreOf(this.keptSentiment);
  }

  /** The sentiment in whole thousandths, as the builders sum it. */
  get sentimentMilli(): number {
    return milliOf(this.keptSentiment);
  }

  /** The review's overall polarity, from its sentiment score (made when read: one field less per row). */
  get polarity(): Polarity {
    return polarityOfScore(this.sentiment);
  }

  get review(): this {
    return this;
  }

  get analysis(): this {
    return this;
  }

  /** The sentences the aspects quote, at their indexes (made when asked: the row image reads it). */
  get sentences(): InsightAnalysis['sentences'] {
    const out: InsightAnalysis['sentences'][number][] = [];
    for (const a of this.aspects) if (a.start >= 0) out[a.sentence] = { start: a.start, end: a.end };
    return out;
  }
}

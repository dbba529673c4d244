// A row a corpus keeps between revisions, as few objects as it can be. A Row is three objects (the row, its
// review and its analysis: 200 bytes at 64-bit pointers before any list or string); this one holds their
// fields side by side and is its own `review` and `analysis` (136 bytes). Its aspects carry where their
// sentence lies, instead of a sparse list of sentence objects, and are their own mentions (aspects.ts),
// instead of a pair object per mention in each list; rows share their lists of ids. At 100k demo reviews the
// corpus thread's heap after an update holds 1.3M objects in 101 MB, against 2.8M in 146 MB.
import type { Polarity, ReviewAspect } from '../../domain/index.js';
import { polarityOfScore } from '../score.js';
import { aspectMaskOf, type CorpusReview, type InsightAnalysis, type Row } from './rows.js';

/** A kept row's aspect: the analysis's, the span of the sentence it quotes (start −1 for none), and its row. */
export class HeldAspect implements ReviewAspect {
  readonly id: string;
  readonly polarity: ReviewAspect['polarity'];
  readonly score: number;
  readonly phrase: string;
  readonly sentence: number;
  readonly start: number;
  readonly end: number;

  constructor(
    aspect: ReviewAspect,
    span: { start: number; end: number } | undefined,
    readonly row: Row,
  ) {
    this.id = aspect.id;
    this.polarity = aspect.polarity;
    this.score = aspect.score;
    this.phrase = aspect.phrase;
    this.sentence = aspect.sentence;
    this.start = span ? span.start : -1;
    this.end = span ? span.end : -1;
  }

  /** As a mention of its row (aspects.ts), it is its own aspect. */
  get aspect(): ReviewAspect {
    return this;
  }
}

export class HeldRow implements Row, CorpusReview, InsightAnalysis {
  readonly id: string;
  readonly rating: number;
  readonly date: string;
  readonly text: string | null;
  readonly technicians: string[];
  readonly services: string[];
  readonly service_area: string | null;
  readonly sentiment: number;
  readonly aspects: HeldAspect[];
  readonly problems: string[];
  readonly phrases: string[];
  readonly polarity: Polarity;
  readonly aspectMask: number;

  /** `aspectIndex`: as rowOf's; `shared`: the list of ids to keep for a list of technician, service or problem ids. */
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
    this.sentiment = analysis.sentiment;
    // An empty list stays the one the caller shares.
    this.aspects =
      analysis.aspects.length === 0
        ? (analysis.aspects as HeldAspect[])
        : analysis.aspects.map((a) => new HeldAspect(a, analysis.sentences[a.sentence], this));
    this.problems = shared(analysis.problems);
    this.phrases = analysis.phrases;
    this.polarity = polarityOfScore(analysis.sentiment);
    this.aspectMask = aspectMaskOf(analysis.aspects, aspectIndex);
  }

  get review(): CorpusReview {
    return this;
  }

  get analysis(): InsightAnalysis {
    return this;
  }

  /** The sentences the aspects quote, at their indexes (made when asked: the row image reads it). */
  get sentences(): InsightAnalysis['sentences'] {
    const out: InsightAnalysis['sentences'][number][] = [];
    for (const a of this.aspects) if (a.start >= 0) out[a.sentence] = { start: a.start, end: a.end };
    return out;
  }
}

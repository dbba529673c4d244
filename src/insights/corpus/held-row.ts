// A row of the insights (rows.ts Row), as few objects as it can be, whether a corpus keeps it between
// revisions or buildInsights makes it for one pass. A Row is three objects (the row, its review and its
// analysis: 200 bytes at 64-bit pointers before any list or string); this one holds their fields side by
// side and is its own `review` and `analysis` (120 bytes, and 8 for its place in an image). Its aspects and phrases are slots of one list:
// six slots an aspect (48 bytes, where an object each was 96 with its place in a list), with the span of
// the sentence it quotes instead of a sparse list of sentence objects. The aspect lists hold the rows
// themselves (aspects.ts); rows share their lists of ids and keep scores as small integers. At 100k demo
// reviews the corpus thread's heap after an update is 77 MB, against 146 MB for three objects a row.
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

/** An aspect's slots in a row's list (the phrases follow them): its id, phrase, kept score, sentence × 4 + polarity, and the quoted span (start −1 for none). */
const SLOTS = 6;
const [ID, PHRASE, SCORE, SENTENCE, START, END] = [0, 1, 2, 3, 4, 5];
const POLARITIES: readonly ReviewAspect['polarity'][] = ['positive', 'negative', 'neutral', 'conflict'];

type Slot = string | number | ExactScore;

/** A quote is a sentence of this many characters: readable in a card or an agent's answer. */
const MIN_QUOTE_CHARS = 25;
const MAX_QUOTE_CHARS = 280;
/** Non-whitespace test without allocating a trimmed copy of every review text. */
const HAS_TEXT = /\S/;
const ONE_BYTE = /^[\0-\xff]*$/;

type Span = { start: number; end: number } | undefined;

/** Whether a sentence of the text can be quoted: inside it, and of a quote's length. */
const quotable = (span: Span, text: string): span is { start: number; end: number } =>
  span !== undefined &&
  span.start >= 0 &&
  span.end <= text.length &&
  span.end - span.start >= MIN_QUOTE_CHARS &&
  span.end - span.start <= MAX_QUOTE_CHARS;

/**
 * How a row keeps its review's text: the part it quotes from, as a copy of its own (a row a corpus keeps
 * between revisions), or the text itself (a row of one pass, gone with the text: cutting it would only cost).
 */
export type TextKeeping = 'copy' | 'view';

/** A copy of text.slice(from, to) of its own: a slice of a text the collector has kept would keep all of it. */
function copyOf(text: string, from: number, to: number): string {
  const part = text.slice(from, to);
  return ONE_BYTE.test(part) ? Buffer.from(part, 'latin1').toString('latin1') : Buffer.from(part, 'utf16le').toString('utf16le');
}

/**
 * What a row keeps of its review's text, and where that starts in it: null when it has none; for a kept row
 * ('copy') the text from the first quotable sentence its aspects point at to the last (all that is ever quoted),
 * one character of it when none is (so it still counts as a review with text). A kept text gives itself back, so rows read from their
 * image (row-image.ts) are the rows written.
 */
function keptText(text: string | null, analysis: InsightAnalysis, keeping: TextKeeping): { text: string | null; from: number } {
  if (text === null || !HAS_TEXT.test(text)) return { text: null, from: 0 };
  if (keeping === 'view') return { text, from: 0 };
  let from = text.length;
  let to = 0;
  for (const a of analysis.aspects) {
    const span = analysis.sentences[a.sentence];
    if (!quotable(span, text)) continue;
    from = Math.min(from, span.start);
    to = Math.max(to, span.end);
  }
  if (to === 0) return { text: text[text.search(HAS_TEXT)], from: 0 };
  return { text: from === 0 && to === text.length ? text : copyOf(text, from, to), from };
}

/** The aspects' slots (each quoted span as it lies in the kept text), then the phrases: one list a row (its phrases alone are the list it was given). */
function slotsOf(analysis: InsightAnalysis, text: string | null, kept: { text: string | null; from: number }): Slot[] {
  const { aspects, sentences, phrases } = analysis;
  if (aspects.length === 0) return phrases;
  // Made at its length, so the list has no room to spare.
  const slots: Slot[] = new Array(aspects.length * SLOTS + phrases.length);
  let at = 0;
  for (const a of aspects) {
    const span = sentences[a.sentence];
    // A text kept at all is the review's (text is then not null).
    const quoted = kept.text !== null && quotable(span, text as string);
    slots[at + ID] = a.id;
    slots[at + PHRASE] = a.phrase;
    slots[at + SCORE] = keptScore(a.score);
    slots[at + SENTENCE] = a.sentence * 4 + POLARITIES.indexOf(a.polarity);
    slots[at + START] = quoted ? span.start - kept.from : -1;
    slots[at + END] = quoted ? span.end - kept.from : -1;
    at += SLOTS;
  }
  for (const phrase of phrases) slots[at++] = phrase;
  return slots;
}

export class HeldRow implements CorpusReview, InsightAnalysis {
  readonly id: string;
  readonly rating: number;
  readonly date: string;
  /** What the row keeps of the review's text (keptText): the part its quotes are cut from. */
  readonly text: string | null;
  readonly technicians: string[];
  readonly services: string[];
  readonly service_area: string | null;
  private readonly keptSentiment: number | ExactScore;
  /** SLOTS entries per review-level aspect of the analysis, in its order, then its phrases. */
  private readonly slots: readonly Slot[];
  /** How many review-level aspects the row holds; aspect k (0 ≤ k < aspectCount) is read by the methods below. */
  readonly aspectCount: number;
  readonly problems: string[];
  /** Bit i set when the review mentions taxonomy aspect i: entity builders read this, not the analysis. */
  readonly aspectMask: number;
  /** Its index in the last image of its corpus (row-image.ts ImagedRow). */
  place = -1;

  /** `aspectIndex`: taxonomy aspect id → bit (aspectMask); `shared`: the list of ids to keep for a list of technician, service or problem ids; `keeping`: how to keep the quoted part of the text. */
  constructor(
    review: CorpusReview,
    analysis: InsightAnalysis,
    aspectIndex: ReadonlyMap<string, number>,
    shared: (ids: string[]) => string[],
    keeping: TextKeeping,
  ) {
    this.id = review.id;
    this.rating = review.rating;
    this.date = review.date;
    const kept = keptText(review.text, analysis, keeping);
    this.text = kept.text;
    this.technicians = shared(review.technicians);
    this.services = shared(review.services);
    this.service_area = review.service_area;
    this.keptSentiment = keptScore(analysis.sentiment);
    this.slots = slotsOf(analysis, review.text, kept);
    this.aspectCount = analysis.aspects.length;
    this.problems = shared(analysis.problems);
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

  /** Whether the review has text (any but white space). */
  get hasText(): boolean {
    return this.text !== null;
  }

  get review(): this {
    return this;
  }

  get analysis(): this {
    return this;
  }

  /** How many key phrases the row holds; phrase i (0 ≤ i < phraseCount) is phraseAt(i). */
  get phraseCount(): number {
    return this.slots.length - this.aspectCount * SLOTS;
  }

  phraseAt(i: number): string {
    return this.slots[this.aspectCount * SLOTS + i] as string;
  }

  /** The key phrases as a list (made when asked: the row image and tests read it; the builders read phraseAt). */
  get phrases(): string[] {
    return this.slots.slice(this.aspectCount * SLOTS) as string[];
  }

  aspectId(k: number): string {
    return this.slots[k * SLOTS + ID] as string;
  }

  aspectPolarity(k: number): ReviewAspect['polarity'] {
    return POLARITIES[(this.slots[k * SLOTS + SENTENCE] as number) % 4];
  }

  aspectScore(k: number): number {
    return scoreOf(this.slots[k * SLOTS + SCORE] as number | ExactScore);
  }

  /** The score in whole thousandths, as the builders sum it. */
  aspectScoreMilli(k: number): number {
    return milliOf(this.slots[k * SLOTS + SCORE] as number | ExactScore);
  }

  aspectPhrase(k: number): string {
    return this.slots[k * SLOTS + PHRASE] as string;
  }

  /** The span in `text` of the sentence aspect k quotes: start −1 when there is none to quote. */
  aspectStart(k: number): number {
    return this.slots[k * SLOTS + START] as number;
  }

  aspectEnd(k: number): number {
    return this.slots[k * SLOTS + END] as number;
  }

  /** The first k at or after `from` of an aspect with this id (any, for null) and polarity (any, when not given), or −1. */
  findAspect(id: string | null, polarity?: ReviewAspect['polarity'], from = 0): number {
    for (let k = from; k < this.aspectCount; k++)
      if ((id === null || this.aspectId(k) === id) && (polarity === undefined || this.aspectPolarity(k) === polarity)) return k;
    return -1;
  }

  /** Calls `visit` with each k findAspect finds, in order. */
  eachAspect(id: string | null, polarity: ReviewAspect['polarity'] | undefined, visit: (k: number) => void): void {
    for (let k = this.findAspect(id, polarity); k >= 0; k = this.findAspect(id, polarity, k + 1)) visit(k);
  }

  private aspectSentence(k: number): number {
    return Math.floor((this.slots[k * SLOTS + SENTENCE] as number) / 4);
  }

  /** The aspects as the analysis gave them (made when asked: the row image and tests read them). */
  get aspects(): ReviewAspect[] {
    const out: ReviewAspect[] = new Array(this.aspectCount);
    for (let k = 0; k < out.length; k++)
      out[k] = {
        id: this.aspectId(k),
        polarity: this.aspectPolarity(k),
        score: this.aspectScore(k),
        phrase: this.aspectPhrase(k),
        sentence: this.aspectSentence(k),
      };
    return out;
  }

  /** The sentences the aspects quote, at their indexes, as they lie in `text` (made when asked: the row image reads it). */
  get sentences(): InsightAnalysis['sentences'] {
    const out: InsightAnalysis['sentences'][number][] = [];
    for (let k = 0; k < this.aspectCount; k++)
      if (this.aspectStart(k) >= 0) out[this.aspectSentence(k)] = { start: this.aspectStart(k), end: this.aspectEnd(k) };
    return out;
  }
}

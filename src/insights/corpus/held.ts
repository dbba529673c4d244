// Rows a corpus keeps between revisions. Each analysis is reduced to what the insight builders read
// (sentiment, review-level aspects, problems, phrases and the sentences its aspects quote), its strings
// shared across rows: no stored analysis is parsed again, and a kept row costs a few hundred bytes instead
// of the whole parsed analysis. The builders' state over them is kept too, so a revision moves it by its
// changed rows instead of passing over every row (state.ts).
import { type CorpusAnalysis, type Insights, Interner, type ReviewAspect } from '../../domain/index.js';
import { loadTaxonomyLabels, type TaxonomyLabels } from '../lexicon.js';
import { ENGINE_VERSION } from '../version.js';
import { aspectIndexOf } from './build.js';
import { HeldRow } from './held-row.js';
import { ChangeMismatch } from './order.js';
import { decodeRows, encodeRows } from './row-image.js';
import { type CorpusReview, type InsightAnalysis, newestFirst, type Row } from './rows.js';
import { CorpusInsights, type InsightsBusiness, type RowChange } from './state.js';
import { readStoredAnalysis } from './stored-analysis.js';

/** What of a profile the builders read besides the vertical (the maker is one vertical's). */
const profileKey = (b: InsightsBusiness): string =>
  JSON.stringify([b.name, ...[b.technicians, b.services, b.service_areas].map((xs) => xs.map((x) => [x.id, x.name]))]);

/** The empty list every row without aspects, problems or phrases shares (frozen: the builders only read). */
const NONE = Object.freeze([]) as never[];

export class InsightRows {
  private readonly lex: TaxonomyLabels;
  private readonly aspectIndex: Map<string, number>;
  /** One copy of each phrase, id and polarity string, however many rows hold it. */
  private readonly strings = new Interner<string>();
  /**
   * One copy of each list of technician, service or problem ids (a few dozen distinct ones, against a
   * list per row), frozen since rows share it. Phrases are not: their combinations are mostly a row's own.
   */
  private readonly idLists = new Interner<string[]>();
  /** The state of the last insights asked for, the rows it is at and the profile it was built for. */
  private last: { rows: readonly Row[]; profile: string; state: CorpusInsights } | null = null;

  constructor(vertical: string) {
    this.lex = loadTaxonomyLabels(vertical);
    this.aspectIndex = aspectIndexOf(this.lex);
  }

  /** The row of a review and its analysis, keeping none of the analysis's own objects. */
  row(review: CorpusReview, analysis: CorpusAnalysis): Row {
    return this.held(review, this.compact(analysis));
  }

  /** What a row and the review's mentions are made of, of a stored analysis's JSON (stored-analysis.ts). */
  read(json: string): CorpusAnalysis {
    return readStoredAnalysis(json);
  }

  /**
   * `preamble` and the rows as bytes (row-image.ts), for a maker that starts again to take them back with
   * fromImage; with the builders' state when this maker's last insights were of these rows.
   */
  image(rows: readonly Row[], preamble?: Buffer): Buffer {
    const last = this.last;
    if (last?.rows !== rows) return encodeRows(rows, preamble);
    return encodeRows(rows, preamble, (out) => {
      out.string(this.stateKey(last.profile));
      last.state.save(out);
    });
  }

  /**
   * The rows of an image, their strings shared with this maker's rows. With `business`, the builders'
   * state the image holds for its profile is taken back too, so keep() and the next insights() over
   * these rows pass over none. RowImageError when it is not an image.
   */
  fromImage(bytes: Buffer, business?: InsightsBusiness): Row[] {
    const profile = business && profileKey(business);
    let state: CorpusInsights | undefined;
    const rows = decodeRows(
      bytes,
      (s) => this.intern(s),
      NONE,
      (review, analysis) => this.held(review, analysis),
      (input) => {
        // A state of another profile (its entities are another's), other rules, engine or taxonomy is not taken.
        if (!business || !profile || input.string() !== this.stateKey(profile)) return false;
        try {
          state = CorpusInsights.load(business, this.lex, input);
          return true;
        } catch {
          // Not a state these rows can take (damaged): the rows read are still good, and keep() makes one by a pass.
          state = undefined;
          return false;
        }
      },
    );
    if (state && profile) this.last = { rows, profile, state };
    return rows;
  }

  /** What a saved state is for: the builders' rules, the engine and taxonomy its rows were analysed by, the profile. */
  private stateKey(profile: string): string {
    return JSON.stringify([CorpusInsights.RULES, ENGINE_VERSION, this.lex.version, profile]);
  }

  /**
   * Holds the builders' state over these rows, made by a pass unless taken back from their image; none when
   * they are not newest first (insights() then passes over a sorted copy).
   */
  keep(business: InsightsBusiness, rows: readonly Row[]): 'image' | 'pass' {
    const profile = profileKey(business);
    if (this.last?.rows === rows && this.last.profile === profile) return 'image';
    this.last = null;
    const sorted = newestFirst(rows);
    if (sorted === rows) this.last = { rows, profile, state: CorpusInsights.of(business, rows, this.lex) };
    return 'pass';
  }

  /** The kept row, its id lists shared with other rows'. */
  private held(review: CorpusReview, analysis: InsightAnalysis): Row {
    return new HeldRow(review, analysis, this.aspectIndex, (xs) => this.idList(xs), 'copy');
  }

  /**
   * buildInsights of these rows' reviews and analyses (per_review an empty placeholder). With `since`
   * (the rows of the previous call and what changed from them), the previous call's state is moved by
   * the change instead of passing over every row; whenever it cannot be (another business profile,
   * other rows, rows out of order), the rows are passed over as without it.
   */
  insights(input: {
    business: InsightsBusiness;
    rows: readonly Row[];
    generatedAt: string;
    since?: RowChange & { rows: readonly Row[] };
  }): Insights {
    const profile = profileKey(input.business);
    const last = this.last;
    // Let go first: a state that fails midway is not to be moved again.
    this.last = null;
    // Placing a row costs about three times what a pass spends on it (100k rows added to an empty corpus:
    // 1.2 s against 0.34 s), so a change of a quarter of the rows or more is a pass.
    const { since } = input;
    const small = since !== undefined && (since.added.length + since.removed.length) * 4 < input.rows.length;
    if (since && small && last?.rows === since.rows && last.profile === profile) {
      try {
        last.state.update(since, input.rows);
        this.last = { ...last, rows: input.rows };
        return last.state.document(input.rows, input.generatedAt);
      } catch (err) {
        // Not the change of these rows: the pass below starts over. Anything else is a defect, not a cue to pass.
        if (!(err instanceof ChangeMismatch)) throw err;
      }
    }
    const rows = newestFirst(input.rows);
    const state = CorpusInsights.of(input.business, rows, this.lex);
    // Kept for the next call only when it is at the caller's own list (not a sorted copy of it).
    if (rows === input.rows) this.last = { rows, profile, state };
    return state.document(rows, input.generatedAt);
  }

  /**
   * What a kept row is made of: its aspects with their strings shared, and the analysis's own sentences
   * and problems, which the row reads as it is made and does not keep (it keeps the quoted spans, and
   * shares one list per distinct list of problems).
   */
  private compact(a: CorpusAnalysis): InsightAnalysis {
    const aspects = a.aspects.length === 0 ? NONE : a.aspects.map((x) => this.aspect(x));
    return { sentiment: a.sentiment, aspects, problems: a.problems, phrases: this.list(a.phrases), sentences: a.sentences };
  }

  private aspect(x: ReviewAspect): ReviewAspect {
    return {
      id: this.intern(x.id),
      polarity: this.intern(x.polarity) as ReviewAspect['polarity'],
      score: x.score,
      phrase: this.intern(x.phrase),
      sentence: x.sentence,
    };
  }

  private list(xs: string[]): string[] {
    return xs.length === 0 ? NONE : xs.map((x) => this.intern(x));
  }

  private idList(xs: string[]): string[] {
    if (xs.length === 0) return NONE;
    // Ids hold no NUL: the joined key names one list.
    return this.idLists.get(xs.join('\0'), () => Object.freeze(xs.map((x) => this.intern(x))) as string[]);
  }

  private intern(s: string): string {
    return this.strings.get(s, () => s);
  }
}

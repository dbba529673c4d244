import type { AnalysisInput, Business, CorpusAnalysis, Insights, ReviewAnalysis, StoredReview } from '../domain/index.js';

/** A published review as the corpus insights read it (its attributions include the mentions its analysis found). */
export type CorpusReview = Pick<StoredReview, 'id' | 'rating' | 'date' | 'text' | 'technicians' | 'services' | 'service_area'>;

/** What an analyzer is made for: the profile's vertical and the names it attributes mentions to. */
export interface AnalyzerOptions {
  vertical: string;
  technicians: Business['technicians'];
  services: Business['services'];
  serviceAreas: Business['service_areas'];
}

/**
 * The NLP engine as the catalog uses it. The composition root (app/, cli/, a test) hands it in, so the
 * catalog never imports the engine; `module` is the URL of a module whose `engine` export is this
 * object, which is how a worker thread (given only data) gets the same engine.
 */
export interface Engine {
  /** Part of every analysis key and of the stored snapshots' format: another version analyses again. */
  version: string;
  module: string;
  createAnalyzer(options: AnalyzerOptions): { analyze(input: AnalysisInput): ReviewAnalysis };
  /** Rows a corpus keeps between revisions, and the insights of a list of them. */
  insightRows(vertical: string): InsightRowMaker;
}

/** A kept row: what the insights read of a review and its analysis (its inside is the engine's). */
export interface InsightRow {
  readonly review: CorpusReview;
}

/** What the insights read of a profile (the engine asks no more, so a row list is all it is given besides). */
type InsightsBusiness = { vertical: string; name?: string } & {
  [K in 'technicians' | 'services' | 'service_areas']: Pick<Business[K][number], 'id' | 'name'>[];
};

export interface InsightRowMaker {
  row(review: CorpusReview, analysis: CorpusAnalysis): InsightRow;
  /** What `row` and the review's mentions read of an analysis stored as JSON, without parsing all of it. */
  read(json: string): CorpusAnalysis;
  /**
   * Rows as bytes after `preamble` (one buffer), with the state of the maker's last insights when they
   * were of these rows; and back from the bytes after it (an error when they are not an image this engine
   * wrote), with that state when `business` is the profile it was made for.
   */
  image(rows: readonly InsightRow[], preamble?: Buffer): Buffer;
  fromImage(bytes: Buffer, business?: InsightsBusiness): InsightRow[];
  /**
   * Makes the maker's state over the rows (as insights() would), unless it holds it, taken back with them from
   * their image: says which ('image' or 'pass'; 'pass' too for rows not newest first, which insights() passes over sorted).
   */
  keep(business: InsightsBusiness, rows: readonly InsightRow[]): 'image' | 'pass';
  /**
   * buildInsights of the rows' reviews and analyses, with per_review an empty placeholder. `since`: the
   * rows of the maker's previous call, and which of them `rows` lacks and which it adds (the others in
   * the same order), so the maker can update that call's result rather than pass over every row.
   */
  insights(input: {
    business: InsightsBusiness;
    rows: readonly InsightRow[];
    generatedAt: string;
    since?: { rows: readonly InsightRow[]; removed: readonly InsightRow[]; added: readonly InsightRow[] };
  }): Insights;
}

/** What createAnalyzer makes: one profile's analyzer. */
export type Analyzer = ReturnType<Engine['createAnalyzer']>;

/** The engine a worker thread was given the module of. */
export const loadEngine = async (module: string): Promise<Engine> => ((await import(module)) as { engine: Engine }).engine;

/** The analyzer's view of a business profile. */
export const analyzerOptions = (b: Business): AnalyzerOptions => ({
  vertical: b.vertical,
  technicians: b.technicians,
  services: b.services,
  serviceAreas: b.service_areas,
});

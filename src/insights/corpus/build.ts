// buildInsights: the whole /insights.json from published reviews and their stored analyses. Pure and
// linear in the corpus (one pass, one sort at most); a corpus that keeps its rows (held.ts) makes the
// same document from them without parsing any analysis again.
import type { Insights, ReviewAnalysis } from '../../domain/index.js';
import { loadTaxonomyLabels, type TaxonomyLabels } from '../lexicon.js';
import { type AnalysesOf, analysisAt, type CorpusReview, prepareRows, type Row } from './rows.js';
import { CorpusInsights, type InsightsBusiness } from './state.js';

export interface BuildInsightsInput {
  business: InsightsBusiness;
  reviews: CorpusReview[];
  /** By review id, or a list at the same positions as `reviews`. */
  analyses: AnalysesOf;
  generatedAt: string;
}

export function buildInsights(input: BuildInsightsInput): Insights {
  const lex = loadTaxonomyLabels(input.business.vertical);
  const rows = prepareRows(input.reviews, input.analyses, aspectIndexOf(lex));
  const insights = insightsOfRows(input.business, rows, input.generatedAt, lex);
  // 100k keys cost more to build than the rest of the document, and the catalog renders and looks up
  // analyses without them: built on first read, in corpus order (redefining keeps the key's position),
  // from the caller's analyses (a row keeps only what the insights read).
  let perReview: Record<string, ReviewAnalysis> | undefined;
  return Object.defineProperty(insights, 'per_review', {
    enumerable: true,
    configurable: true,
    get: () => (perReview ??= perReviewOf(input, rows)),
  });
}

/** The caller's analyses by review id, in the rows' order. */
function perReviewOf({ reviews, analyses }: BuildInsightsInput, rows: readonly Row[]): Record<string, ReviewAnalysis> {
  const at = analysisAt(reviews, analyses);
  const byId = new Map(reviews.map((r, i) => [r.id, at(i) as ReviewAnalysis]));
  return Object.fromEntries(rows.map((r) => [r.id, byId.get(r.id) as ReviewAnalysis]));
}

/** Taxonomy aspect id → its bit in a row's aspect mask. */
export const aspectIndexOf = (lex: TaxonomyLabels): Map<string, number> => new Map(lex.aspects.map((a, i) => [a.id, i]));

/**
 * The insights of rows already newest first, with per_review an empty placeholder (keeping its place
 * in the key order): buildInsights, and a corpus that keeps its rows between revisions, both end here.
 */
export function insightsOfRows(business: InsightsBusiness, rows: readonly Row[], generatedAt: string, lex: TaxonomyLabels): Insights {
  return CorpusInsights.of(business, rows, lex).document(rows, generatedAt);
}

import type { Business, StoredReview } from '../domain/index.js';

/** What an analysis is made from. */
export type AnalysisSource = Pick<StoredReview, 'id' | 'rating' | 'text' | 'title' | 'language'>;

/**
 * "Analyse these reviews", given to an import by its caller (the catalog makes it): ingest never runs
 * the analyzer itself. The analyses are the stored form (JSON text), in input order.
 */
export interface AnalyseReviews {
  /** The engine the analyses are made by: part of the key they are stored under. */
  readonly engine: string;
  analyse(business: Business, reviews: readonly AnalysisSource[], onProgress?: (done: number, total: number) => void): Promise<string[]>;
}

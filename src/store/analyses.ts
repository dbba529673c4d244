import { type Business, hashOf } from '../domain/index.js';

/** What an analysis depends on besides its review: the engine and the names the profile lets it mention. */
export interface AnalysisContext {
  engine: string;
  business: Business;
}

/**
 * The one analysis cache key: the review's stored version and the context. An analysis stored under
 * another key (new text, new engine, renamed technicians) is stale. Byte-identical to the keys stored
 * before the store computed it, so existing databases keep their analyses.
 */
export const analysisKey = (version: string, { engine, business: b }: AnalysisContext) =>
  `${version}|${hashOf([engine, b.vertical, b.technicians, b.services, b.service_areas])}`;

/** An analysis to store: the review, the version of it that was analysed, and the analysis (JSON). */
export interface AnalysisWrite {
  reviewId: string;
  version: string;
  analysis: string;
}

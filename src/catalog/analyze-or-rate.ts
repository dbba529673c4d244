import type { ReviewAnalysis } from '../domain/index.js';
import type { AnalysisInput, Engine } from './engine.js';

type Analyzer = ReturnType<Engine['createAnalyzer']>;

/** A review's analysis, and why the engine could not read its text (null when it could). */
export interface Analysed {
  analysis: ReviewAnalysis;
  failure: string | null;
}

/**
 * The review's analysis; when the engine throws on its text, the analysis of its rating and title alone
 * (no sentences, no aspects) and the error. An engine fault on one review then costs that review its
 * aspects, not the import, re-analysis or revision holding it (one such review held back every later
 * revision). It is stored like any analysis, so the next engine version analyses it again.
 */
export function analyzeOrRate(analyzer: Analyzer, input: AnalysisInput): Analysed {
  try {
    return { analysis: analyzer.analyze(input), failure: null };
  } catch (err) {
    const failure = err instanceof Error ? (err.stack ?? err.message) : String(err);
    return { analysis: analyzer.analyze({ ...input, text: null }), failure };
  }
}

/** A review whose text the engine could not read, and why. */
export type AnalysisFailure = [reviewId: string, error: string];

/** Told of a review whose analysis is its rating's alone because the engine threw on its text. */
export type OnAnalysisFailure = (reviewId: string, error: string) => void;

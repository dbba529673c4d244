import type { AnalysisInput, ReviewAnalysis } from '../domain/index.js';
import { errorText } from '../threads/index.js';
import type { Analyzer } from './engine.js';

/** A review's analysis, and why the engine could not read its text (null when it could). */
interface Analysed {
  analysis: ReviewAnalysis;
  failure: string | null;
}

/** A plain sentence any vertical's engine reads: one that fails on it is broken, not stumped by one review. */
const PLAIN: AnalysisInput = { id: 'plain', rating: 5, text: 'The work was done well and on time.', title: null, language: null };

/**
 * The review's analysis; when the engine throws on its text, the analysis of its rating and title alone
 * (no sentences, no aspects, no mentions from the text) and the error. An engine fault on one review then costs that
 * review its aspects, not the import, re-analysis or revision holding it (one such review held back every later
 * revision). It is stored like any analysis, so the next engine version analyses it again. A fault the engine also
 * shows on a plain sentence (a data file it could not load) is thrown, as before: stored, its analyses would stand
 * for every review until the next engine version.
 */
export function analyzeOrRate(analyzer: Analyzer, input: AnalysisInput): Analysed {
  let failure: string;
  try {
    return { analysis: analyzer.analyze(input), failure: null };
  } catch (err) {
    if (throws(() => analyzer.analyze(PLAIN))) throw err;
    failure = errorText(err);
  }
  try {
    return { analysis: analyzer.analyze({ ...input, text: null }), failure };
  } catch {
    // The title was the trouble too: the rating alone.
    return { analysis: analyzer.analyze({ ...input, text: null, title: null }), failure };
  }
}

function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

/** A review whose text the engine could not read, and why. */
export type AnalysisFailure = [reviewId: string, error: string];

/** Told of a review whose analysis is its rating's and title's alone because the engine threw on its text. */
export type OnAnalysisFailure = (reviewId: string, error: string) => void;

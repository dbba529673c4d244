// Public face of the insights engine: per-review analysis (createAnalyzer) and corpus insights
// (buildInsights). Both are pure: no I/O beyond reading the taxonomy files that ship beside the engine.

export type { AnalysisInput, Insights, ReviewAnalysis } from '../domain/index.js';
export type { Analyzer, AnalyzerOptions } from './analyzer.js';
export { createAnalyzer, sentenceEvidence } from './analyzer.js';
export type { BuildInsightsInput } from './corpus/build.js';
export { buildInsights } from './corpus/build.js';
export { percentages } from './corpus/percent.js';
export type { CorpusReview } from './corpus/rows.js';
export { linearRegression, studentTwoSided } from './corpus/stats.js';
export { TREND_RULE } from './corpus/temporal.js';
export { engine } from './engine.js';
// For the trainer and the evaluation tools (tools/absa/): features, the model file's shape and its loader.
export { categoryFeatures, type Features, polarityFeatures, type SentenceEvidence } from './features.js';
export { VERTICALS } from './lexicon.js';
export {
  compileModel,
  type MlpFile,
  MODEL_FORMAT,
  type Model,
  ModelFile,
  modelAspects,
  modelUrl,
  modelWeightsUrl,
  POLARITY_CLASSES,
  sigmoidProbabilities,
  TRAINED_VERTICALS,
  weightTable,
} from './model.js';
export { decodeModel, encodeModel } from './model-weights.js';
export { editDistance, SpellFixer } from './spelling.js';
export { decodeVectors, encodeVectors, wordVectors } from './vectors.js';
export { ENGINE_VERSION } from './version.js';

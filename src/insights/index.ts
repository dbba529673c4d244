// Public face of the insights engine: per-review analysis (createAnalyzer) and corpus insights
// (buildInsights). Both are pure: no I/O beyond reading the taxonomy files that ship beside the engine.
export { ENGINE_VERSION } from './version.js';
export { createAnalyzer, sentenceEvidence } from './analyzer.js';
// For the trainer and the evaluation tools (tools/absa/): features, the model file's shape and its loader.
export { categoryFeatures, polarityFeatures, type Features, type SentenceEvidence } from './features.js';
export { compileModel, MODEL_FORMAT, ModelFile, modelUrl, POLARITY_CLASSES } from './model.js';
export type { Analyzer, AnalysisInput, AnalyzerOptions } from './analyzer.js';
export { buildInsights } from './corpus/build.js';
export type { BuildInsightsInput } from './corpus/build.js';
export type { CorpusReview } from './corpus/rows.js';
export { TREND_RULE } from './corpus/temporal.js';
export { VERTICALS } from './lexicon.js';
export type { Insights, ReviewAnalysis } from '../domain/index.js';
export { editDistance, SpellFixer } from './spelling.js';
export { linearRegression, studentTwoSided } from './corpus/stats.js';
export { percentages } from './corpus/percent.js';

export { type Assembled, assembleSet, type Batch } from './assembly.js';
export { DEFAULT_TRAIN } from './logistic.js';
export { DEFAULT_MLP, trainMlp, trainMlpMean } from './mlp.js';
export { type NearTwin, nearTwins, wordsOf } from './near-twins.js';
export { evaluate, mapCategories, type Prediction, parseBatchXml, parseSemEvalXml, predict, semEvalXml } from './semeval.js';
export { buildSplits, isDev, type SplitSource } from './split.js';
export {
  CONFIGS,
  DEFAULT_CATEGORY,
  DEFAULT_POLARITY,
  lexiconDigest,
  loadTraining,
  prepare,
  ROOT,
  serializeModel,
  sha256,
  trainedPaths,
  trainModel,
} from './trainer.js';
export { writeRefusal } from './write-guard.js';

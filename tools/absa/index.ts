export { evaluate, mapCategories, parseSemEvalXml, predict, type Prediction } from './semeval.js';
export { DEFAULT_TRAIN } from './logistic.js';
export { CONFIGS, DEFAULT_CATEGORY, DEFAULT_POLARITY, lexiconDigest, loadTraining, prepare, ROOT, serializeModel, sha256, trainModel } from './trainer.js';

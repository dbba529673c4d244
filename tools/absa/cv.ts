// Measures a training configuration without touching the shipped weights:
//   node --import tsx tools/absa/cv.ts --vertical NAME [--folds K] [--eval FILE]... [--epochs N --rate R --l2 L --min-count M --threshold T]
// K-fold cross-validation over the vertical's training files (folds by position, so runs repeat exactly),
// and/or a model trained on all of them scored on each --eval file. Prints the same figures as eval:absa.
import { readFileSync } from 'node:fs';
import { compileModel, createAnalyzer, type Analyzer } from '../../src/insights/index.js';
import { DEFAULT_TRAIN, type TrainOptions } from './logistic.js';
import { evaluate, mapCategories, parseSemEvalXml, predict, type EvalResult, type GoldSentence, type Prediction } from './semeval.js';
import { CONFIGS, loadTraining, prepare, trainModel } from './trainer.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
function args(name: string): string[] {
  return process.argv.flatMap((a, i) => (a === `--${name}` && process.argv[i + 1] ? [process.argv[i + 1]] : []));
}

const vertical = arg('vertical') ?? 'home_services';
const base = CONFIGS[vertical];
if (!base) throw new Error(`no training configuration for ${vertical}`);
const priors = arg('priors');
const config = {
  ...base,
  threshold: Number(arg('threshold') ?? base.threshold),
  words: arg('words') === undefined ? base.words : arg('words') === 'true',
  lexiconFirst: arg('lexicon-first') === undefined ? base.lexiconFirst : arg('lexicon-first') === 'true',
  priors: priors === undefined ? base.priors : priors === 'none' ? null : Object.fromEntries(priors.split(',').map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])])),
};
const opts: TrainOptions = {
  ...DEFAULT_TRAIN,
  epochs: Number(arg('epochs') ?? DEFAULT_TRAIN.epochs),
  rate: Number(arg('rate') ?? DEFAULT_TRAIN.rate),
  l2: Number(arg('l2') ?? DEFAULT_TRAIN.l2),
  minCount: Number(arg('min-count') ?? DEFAULT_TRAIN.minCount),
};
const folds = Number(arg('folds') ?? 0);
const lexiconOnly = process.argv.includes('--lexicon-only');

const { sentences, files } = loadTraining(config);
const prepared = prepare(config, sentences);
const pct = (x: number) => (x * 100).toFixed(2);
const line = (name: string, r: EvalResult) =>
  `${name.padEnd(40)} P ${pct(r.precision)}  R ${pct(r.recall)}  F1 ${pct(r.f1)}  polarity ${pct(r.polarityAccuracy)} (${r.polarityTotal})  ` +
  `confusion ${['positive', 'negative', 'neutral', 'conflict'].map((g) => `${g[0]}:${['positive', 'negative', 'neutral', 'conflict'].map((p) => r.confusion[g]?.[p] ?? 0).join('/')}`).join(' ')}`;

function analyzerFor(train: typeof prepared): Analyzer {
  if (lexiconOnly) return createAnalyzer({ vertical, technicians: [], services: [], serviceAreas: [], model: null });
  const model = compileModel(trainModel(config, train, files, opts));
  return createAnalyzer({ vertical, technicians: [], services: [], serviceAreas: [], model });
}

if (folds > 1) {
  const predictions = new Map<string, Prediction>();
  for (let k = 0; k < folds; k++) {
    const analyzer = analyzerFor(prepared.filter((_, i) => i % folds !== k));
    prepared.forEach((p, i) => {
      if (i % folds === k) predictions.set(`${i}`, predict(analyzer, p.sentence));
    });
  }
  const indexed = sentences.map((s, i) => ({ ...s, id: `${i}` }));
  process.stdout.write(`${line(`${vertical} ${folds}-fold CV (${sentences.length})`, evaluate(indexed, (s) => predictions.get(s.id)!))}\n`);
}

const evals = args('eval');
if (evals.length > 0) {
  const analyzer = analyzerFor(prepared);
  for (const file of evals) {
    const gold: GoldSentence[] = mapCategories(parseSemEvalXml(readFileSync(file, 'utf8')), vertical).sentences;
    const r = evaluate(gold, (s) => predict(analyzer, s));
    process.stdout.write(`${line(file.split('/').slice(-2).join('/'), r)}\n`);
  }
}

// Measures a training configuration without touching the shipped weights:
//   node --import tsx tools/absa/cv.ts --vertical NAME [--folds K] [--score-first N] [--eval FILE]... [--epochs N --rate R --l2 L --min-count M --threshold T]
// The vertical's category-only files (untrained.xml, contrast.xml since 2.14.0) train the category model in every fold
// and are never scored; --category-only none leaves them out (as before 2.14.0), --category-only a.xml,b.xml names others.
// --tune-thresholds measures per-aspect category thresholds chosen on the folds' predictions (see tuneThresholds).
// K-fold cross-validation over the vertical's training files (folds by position, so runs repeat exactly),
// and/or a model trained on all of them scored on each --eval file. Prints the same figures as eval:absa.
import { readFileSync } from 'node:fs';
import { POLARITIES } from '../../src/domain/index.js';
import {
  type Analyzer,
  categoryFeatures,
  compileModel,
  createAnalyzer,
  type Model,
  modelAspects,
  sigmoidProbabilities,
} from '../../src/insights/index.js';
import type { TrainOptions } from './logistic.js';
import { DEFAULT_MLP } from './mlp.js';
import { type EvalResult, evaluate, type GoldSentence, mapCategories, type Prediction, parseSemEvalXml, predict } from './semeval.js';
import {
  CONFIGS,
  DEFAULT_CATEGORY,
  DEFAULT_POLARITY,
  loadTraining,
  prepare,
  taxonomyAspects,
  trainModel,
  type VerticalConfig,
} from './trainer.js';

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
// --cat-mlp HIDDEN:MIX[:RUNS] / --pol-mlp HIDDEN:MIX[:RUNS] mix a perceptron (the mean of RUNS, default 1) into the
// category / polarity model ("none": without); --mlp-epochs, --mlp-rate, --mlp-l2 set its training.
const mlp = (name: string, current: VerticalConfig['categoryMlp']): VerticalConfig['categoryMlp'] => {
  const v = arg(name);
  if (v === undefined) return current;
  if (v === 'none') return null;
  const [hidden, mix, runs = 1] = v.split(':').map(Number);
  return {
    ...DEFAULT_MLP,
    hidden,
    mix,
    runs,
    epochs: Number(arg('mlp-epochs') ?? DEFAULT_MLP.epochs),
    rate: Number(arg('mlp-rate') ?? DEFAULT_MLP.rate),
    l2: Number(arg('mlp-l2') ?? DEFAULT_MLP.l2),
  };
};
const config: VerticalConfig = {
  ...base,
  categoryMlp: mlp('cat-mlp', base.categoryMlp),
  polarityMlp: mlp('pol-mlp', base.polarityMlp),
  threshold: Number(arg('threshold') ?? base.threshold),
  lexicon: (arg('lexicon') ?? base.lexicon) as 'attached' | 'all' | 'none',
  lexiconMin: Number(arg('lexicon-min') ?? base.lexiconMin),
  category: arg('category') === undefined ? base.category : arg('category') === 'true',
  anyThreshold: arg('any') === undefined ? base.anyThreshold : arg('any') === 'none' ? null : Number(arg('any')),
  words: arg('words') === undefined ? base.words : arg('words') === 'true',
  lexiconFirst: arg('lexicon-first') === undefined ? base.lexiconFirst : arg('lexicon-first') === 'true',
  categoryVectors: Number(arg('cat-vectors') ?? base.categoryVectors),
  polarityVectors: Number(arg('pol-vectors') ?? base.polarityVectors),
  categoryOnlyFiles:
    arg('category-only') === undefined ? base.categoryOnlyFiles : arg('category-only') === 'none' ? [] : arg('category-only')!.split(','),
  polarityFiles:
    arg('pool') === undefined
      ? base.polarityFiles
      : arg('pool')!
          .split(',')
          .filter((x) => x !== '')
          .map((vp) => {
            // vertical:path[:excluded|excluded…]
            const [vertical, path, exclude] = vp.split(':');
            return { vertical, path, exclude: exclude?.split('|') ?? [] };
          }),
  priors:
    priors === undefined
      ? base.priors
      : priors === 'none'
        ? null
        : Object.fromEntries(priors.split(',').map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])])),
};
const options = (prefix: string, base: TrainOptions): TrainOptions => ({
  ...base,
  seed: Number(arg(`${prefix}seed`) ?? base.seed),
  epochs: Number(arg(`${prefix}epochs`) ?? base.epochs),
  rate: Number(arg(`${prefix}rate`) ?? base.rate),
  l2: Number(arg(`${prefix}l2`) ?? base.l2),
  minCount: Number(arg(`${prefix}min-count`) ?? base.minCount),
  bags: Number(arg(`${prefix}bags`) ?? base.bags),
});
// --seed, --rate etc. set the polarity model's options, --cat-seed, --cat-rate etc. the category model's (the
// category perceptron takes the category seed).
const opts = { category: options('cat-', DEFAULT_CATEGORY), polarity: options('', { ...DEFAULT_POLARITY, ...config.polarityTrain }) };
const folds = Number(arg('folds') ?? 0);
const lexiconOnly = process.argv.includes('--lexicon-only');

const { sentences, polarityOnly, categoryOnly, files } = loadTraining(config);
const prepared = prepare(vertical, sentences, config.categoryVectors);
const pct = (x: number) => (x * 100).toFixed(2);
const line = (name: string, r: EvalResult) =>
  `${name.padEnd(40)} P ${pct(r.precision)}  R ${pct(r.recall)}  F1 ${pct(r.f1)}  polarity ${pct(r.polarityAccuracy)} (${r.polarityTotal})  ` +
  `confusion ${POLARITIES.map((g) => `${g[0]}:${POLARITIES.map((p) => r.confusion[g]?.[p] ?? 0).join('/')}`).join(' ')}`;

function modelFor(train: typeof prepared): Model | null {
  return lexiconOnly ? null : compileModel(trainModel(config, train, { polarityOnly, categoryOnly, files }, opts));
}
function analyzerFor(model: Model | null): Analyzer {
  return createAnalyzer({ vertical, technicians: [], services: [], serviceAreas: [], model });
}

if (folds > 1) {
  const predictions = new Map<string, Prediction>();
  const outOfFold: OutOfFold[] = [];
  for (let k = 0; k < folds; k++) {
    const model = modelFor(prepared.filter((_, i) => i % folds !== k));
    const analyzer = analyzerFor(model);
    prepared.forEach((p, i) => {
      if (i % folds !== k) return;
      predictions.set(`${i}`, predict(analyzer, p.sentence));
      const c = model?.category;
      if (c)
        outOfFold[i] = {
          p,
          z: sigmoidProbabilities(c.weights, c.mlp, categoryFeatures(p.evidence, config.categoryVectors)),
        };
    });
  }
  // --score-first N scores only the first N sentences (those of an earlier train split) while every fold
  // still trains on the rest, so added training sentences are measured on the sentences that were there before.
  const indexed = sentences.map((s, i) => ({ ...s, id: `${i}` })).slice(0, Number(arg('score-first') ?? sentences.length));
  const result = evaluate(indexed, (s) => predictions.get(s.id)!);
  process.stdout.write(`${line(`${vertical} ${folds}-fold CV (${sentences.length})`, result)}\n`);
  if (process.argv.includes('--per-category')) {
    for (const [c, { tp, fp, fn }] of Object.entries(result.perCategory).sort()) {
      process.stdout.write(`  ${c.padEnd(24)} tp ${tp} fp ${fp} fn ${fn}  F1 ${pct((2 * tp) / Math.max(1, 2 * tp + fp + fn))}\n`);
    }
  }
  if (process.argv.includes('--tune-thresholds')) tuneThresholds(outOfFold);
  const showErrors = Number(arg('errors') ?? 0);
  let shown = 0;
  for (const s of indexed) {
    if (shown >= showErrors) break;
    const p = predictions.get(s.id)!;
    const gold = s.categories
      .map((c) => `${c.category}:${c.polarity}`)
      .sort()
      .join(' ');
    const pred = [...p.categories]
      .map((c) => `${c}:${p.polarityOf(c)}`)
      .sort()
      .join(' ');
    const polarityOnly = process.argv.includes('--polarity-errors');
    if (polarityOnly ? s.categories.every((c) => p.polarityOf(c.category) === c.polarity) : gold === pred) continue;
    shown++;
    process.stdout.write(
      `${s.text}\n   gold: ${gold}\n   pred: ${pred}\n   pol:  ${s.categories.map((c) => `${c.category}:${p.polarityOf(c.category)}`).join(' ')}\n`,
    );
  }
}

const evals = args('eval');
if (evals.length > 0) {
  const analyzer = analyzerFor(modelFor(prepared));
  for (const file of evals) {
    const gold: GoldSentence[] = mapCategories(parseSemEvalXml(readFileSync(file, 'utf8')), vertical).sentences;
    const r = evaluate(gold, (s) => predict(analyzer, s));
    process.stdout.write(`${line(file.split('/').slice(-2).join('/'), r)}\n`);
  }
}

interface OutOfFold {
  p: (typeof prepared)[number];
  z: Float64Array;
}

/**
 * --tune-thresholds: per-aspect thresholds and the "some aspect" threshold by coordinate ascent on micro F1
 * over the out-of-fold category probabilities. To say what that choice is worth on sentences it did not see,
 * it is also made on the even-numbered sentences and scored on the odd ones, and the reverse.
 */
function tuneThresholds(rows: OutOfFold[]): void {
  const { aspects, defaultAspect } = taxonomyAspects(vertical);
  const n = aspects.length;
  type Choice = { thresholds: Float64Array; anyThreshold: number | null };
  const f1 = (set: OutOfFold[], t: Choice): number => {
    let common = 0;
    let retrieved = 0;
    let relevant = 0;
    for (const { p, z } of set) {
      const ids = modelAspects(
        { aspects, lexicon: config.lexicon, lexiconMin: config.lexiconMin, ...t },
        z,
        p.evidence.result.aspects,
        defaultAspect,
      );
      const gold = new Set(p.sentence.categories.map((c) => c.category));
      retrieved += ids.length;
      relevant += gold.size;
      for (const id of ids) if (gold.has(id)) common++;
    }
    return retrieved + relevant === 0 ? 0 : (2 * common) / (retrieved + relevant);
  };
  const grid = Array.from({ length: 23 }, (_, i) => 0.15 + i * 0.025);
  const tune = (set: OutOfFold[]): Choice => {
    const t: Choice = { thresholds: new Float64Array(n).fill(config.threshold), anyThreshold: config.anyThreshold };
    for (let pass = 0; pass < 3; pass++) {
      for (let k = 0; k < n; k++) {
        let best = t.thresholds[k];
        let bestF1 = f1(set, t);
        for (const v of grid) {
          t.thresholds[k] = v;
          const f = f1(set, t);
          if (f > bestF1 + 1e-9) [best, bestF1] = [v, f];
        }
        t.thresholds[k] = best;
      }
      let bestAny = t.anyThreshold;
      let bestF1 = f1(set, t);
      for (const v of [null, ...grid, 0.75, 0.8]) {
        const f = f1(set, { ...t, anyThreshold: v });
        if (f > bestF1 + 1e-9) [bestAny, bestF1] = [v, f];
      }
      t.anyThreshold = bestAny;
    }
    return t;
  };
  const shipped: Choice = {
    thresholds: new Float64Array(n).fill(config.threshold),
    anyThreshold: config.anyThreshold,
  };
  const halves = [rows.filter((_, i) => i % 2 === 0), rows.filter((_, i) => i % 2 === 1)];
  for (const [a, b] of [
    [0, 1],
    [1, 0],
  ]) {
    process.stdout.write(
      `thresholds chosen on half ${a}, scored on half ${b}: F1 ${pct(f1(halves[b], shipped))} with the configured ones → ${pct(f1(halves[b], tune(halves[a])))}\n`,
    );
  }
  const all = tune(rows);
  const chosen = aspects.map((a, k) => `${a}=${Math.round(all.thresholds[k] * 1000) / 1000}`).join(',');
  process.stdout.write(
    `chosen on all: F1 ${pct(f1(rows, shipped))} → ${pct(f1(rows, all))}, any ${all.anyThreshold === null ? 'none' : Math.round(all.anyThreshold * 1000) / 1000}, thresholds ${chosen}\n`,
  );
}

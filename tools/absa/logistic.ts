// Logistic regression for the engine's models: one-vs-rest (multi-label) and multinomial (softmax), trained
// by AdaGrad stochastic gradient descent with L2 on the weights an example touches. Deterministic: examples
// are visited in an order shuffled by a seeded generator, features in their listed order, and the result is
// rounded to fixed decimals, so the same data and seed give the same bytes.
import { prng } from '../../src/demo/index.js';
import type { Features } from '../../src/insights/index.js';

export interface TrainOptions {
  seed: number;
  epochs: number;
  /** AdaGrad base step. */
  rate: number;
  /** L2 strength per update. */
  l2: number;
  /** Features seen in fewer examples than this are dropped (names only the training data used once). */
  minCount: number;
  decimals: number;
  /** Models trained with seeds seed, seed+1, …, whose weights are averaged (less dependence on the visiting order). */
  bags: number;
}

export const DEFAULT_TRAIN: TrainOptions = { seed: 20260, epochs: 30, rate: 0.02, l2: 1e-4, minCount: 2, decimals: 4, bags: 1 };

function shuffled(n: number, rnd: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Names used by at least `minCount` examples; everything else is dropped before training. */
function vocabulary(examples: { f: Features }[], minCount: number): Set<string> {
  const counts = new Map<string, number>();
  for (const e of examples) for (const n of e.f.names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const keep = new Set<string>();
  for (const [n, c] of counts) if (c >= minCount || n === 'bias') keep.add(n);
  return keep;
}

/** An example with its kept features as row offsets into the weight table (a name's row is resolved once). */
interface Kept {
  offsets: Int32Array;
  values: Float64Array;
  weight: number;
}

/**
 * Trains `width` outputs. `gradient(z, out)` turns the example's linear scores into the loss gradient per
 * output (prediction minus target); `weight` scales an example's update.
 */
function sgd(
  examples: { f: Features; weight: number }[],
  width: number,
  opts: TrainOptions,
  gradient: (index: number, z: Float64Array, out: Float64Array) => void,
): Map<string, Float64Array> {
  const vocab = vocabulary(examples, opts.minCount);
  const row = new Map<string, number>();
  const kept: Kept[] = examples.map((e) => {
    const offsets: number[] = [];
    const values: number[] = [];
    e.f.names.forEach((n, i) => {
      if (!vocab.has(n)) return;
      let r = row.get(n);
      if (r === undefined) {
        r = row.size;
        row.set(n, r);
      }
      offsets.push(r * width);
      values.push(e.f.values[i]);
    });
    return { offsets: Int32Array.from(offsets), values: Float64Array.from(values), weight: e.weight };
  });
  // The bags' mean, added bag by bag in the table's layout.
  const mean = new Float64Array(row.size * width);
  for (let bag = 0; bag < opts.bags; bag++) {
    const w = fit(kept, row.size, width, { ...opts, seed: opts.seed + bag }, gradient);
    for (let i = 0; i < mean.length; i++) mean[i] += w[i] / opts.bags;
  }
  return rounded(new Map([...row].map(([name, r]) => [name, mean.subarray(r * width, (r + 1) * width)])), opts.decimals);
}

/** One run of AdaGrad over the examples; the weights of every row, `width` entries each, in one table. */
function fit(
  kept: Kept[],
  rows: number,
  width: number,
  opts: TrainOptions,
  gradient: (index: number, z: Float64Array, out: Float64Array) => void,
): Float64Array {
  const w = new Float64Array(rows * width);
  const g = new Float64Array(rows * width);
  const { rate, l2 } = opts;
  const rnd = prng(opts.seed);
  const z = new Float64Array(width);
  const grad = new Float64Array(width);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const idx of shuffled(kept.length, rnd)) {
      const { offsets, values, weight } = kept[idx];
      z.fill(0);
      for (let i = 0; i < offsets.length; i++) {
        const o = offsets[i];
        const v = values[i];
        for (let k = 0; k < width; k++) z[k] += w[o + k] * v;
      }
      gradient(idx, z, grad);
      for (let i = 0; i < offsets.length; i++) {
        const o = offsets[i];
        const v = values[i];
        for (let k = 0; k < width; k++) {
          const d = weight * grad[k] * v + l2 * w[o + k];
          if (d === 0) continue;
          g[o + k] += d * d;
          w[o + k] -= (rate * d) / Math.sqrt(g[o + k]);
        }
      }
    }
  }
  return w;
}

/** Weights rounded to fixed decimals, names sorted, all-zero rows dropped. */
function rounded(w: Map<string, Float64Array>, decimals: number): Map<string, Float64Array> {
  const f = 10 ** decimals;
  const out = new Map<string, Float64Array>();
  for (const name of [...w.keys()].sort()) {
    const row = w.get(name)!.map((x) => Math.round(x * f) / f + 0);
    if (row.some((x) => x !== 0)) out.set(name, row);
  }
  return out;
}

/** One-vs-rest: an independent sigmoid per label. */
export function trainOneVsRest(
  examples: { f: Features; labels: Set<number> }[],
  width: number,
  opts: TrainOptions,
): Map<string, Float64Array> {
  return sgd(
    examples.map((e) => ({ f: e.f, weight: 1 })),
    width,
    opts,
    (idx, z, out) => {
      const labels = examples[idx].labels;
      for (let k = 0; k < width; k++) out[k] = 1 / (1 + Math.exp(-z[k])) - (labels.has(k) ? 1 : 0);
    },
  );
}

/** Multinomial: one softmax over the classes. */
export function trainSoftmax(
  examples: { f: Features; y: number; weight: number }[],
  width: number,
  opts: TrainOptions,
): Map<string, Float64Array> {
  return sgd(examples, width, opts, (idx, z, out) => {
    let max = -Infinity;
    for (let k = 0; k < width; k++) max = Math.max(max, z[k]);
    let sum = 0;
    for (let k = 0; k < width; k++) {
      out[k] = Math.exp(z[k] - max);
      sum += out[k];
    }
    for (let k = 0; k < width; k++) out[k] = out[k] / sum - (k === examples[idx].y ? 1 : 0);
  });
}

// A one-hidden-layer perceptron over the same sparse features as the logistic models: each feature name has a
// row of `hidden` input weights (the "bias" feature is the hidden layer's bias), a tanh layer, and a dense
// output layer read as independent sigmoids (multi-label) or one softmax. Trained by AdaGrad; deterministic:
// seeded initialisation and visiting order, names in sorted order, weights rounded to fixed decimals.
import { prng } from '../../src/demo/index.js';
import type { Features } from '../../src/insights/index.js';
import type { TrainOptions } from './logistic.js';

/** The logistic trainer's options (one network, so no bags) plus the hidden layer's width. */
export type MlpOptions = Omit<TrainOptions, 'bags'> & { hidden: number };

export const DEFAULT_MLP: MlpOptions = { seed: 20260, epochs: 12, rate: 0.05, l2: 1e-5, minCount: 2, decimals: 4, hidden: 24 };

export interface Mlp {
  /** Input weights per feature name, `hidden` entries each. */
  input: Map<string, Float64Array>;
  /** Output layer: `hidden + 1` rows (the last is the bias) of one entry per output. */
  output: Float64Array[];
}

type Loss = 'sigmoid' | 'softmax';

export function trainMlp(examples: { f: Features; target: (k: number) => number }[], width: number, loss: Loss, opts: MlpOptions): Mlp {
  const counts = new Map<string, number>();
  for (const e of examples) for (const n of e.f.names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const names = [...counts.keys()].filter((n) => (counts.get(n) ?? 0) >= opts.minCount || n === 'bias').sort();
  const rnd = prng(opts.seed);
  const H = opts.hidden;
  const uniform = (scale: number) => (rnd() * 2 - 1) * scale;
  const input = new Map<string, Float64Array>();
  const inputG = new Map<string, Float64Array>();
  for (const n of names) {
    input.set(
      n,
      Float64Array.from({ length: H }, () => uniform(0.1)),
    );
    inputG.set(n, new Float64Array(H).fill(1e-8));
  }
  const outScale = Math.sqrt(6 / (H + width));
  const output = Array.from({ length: H + 1 }, (_, j) => Float64Array.from({ length: width }, () => (j === H ? 0 : uniform(outScale))));
  const outputG = Array.from({ length: H + 1 }, () => new Float64Array(width).fill(1e-8));

  const kept = examples.map((e) => {
    const rows: Float64Array[] = [];
    const grads: Float64Array[] = [];
    const values: number[] = [];
    e.f.names.forEach((n, i) => {
      const w = input.get(n);
      if (w) {
        rows.push(w);
        grads.push(inputG.get(n)!);
        values.push(e.f.values[i]);
      }
    });
    return { rows, grads, values, target: e.target };
  });

  const h = new Float64Array(H);
  const z = new Float64Array(width);
  const g = new Float64Array(width);
  const dh = new Float64Array(H);
  const { rate, l2 } = opts;
  const step = (w: Float64Array, acc: Float64Array, k: number, d: number) => {
    const dd = d + l2 * w[k];
    acc[k] += dd * dd;
    w[k] -= (rate * dd) / Math.sqrt(acc[k]);
  };
  const order = Array.from({ length: kept.length }, (_, i) => i);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const idx of order) {
      const e = kept[idx];
      forward(e.rows, e.values, output, h, z);
      outputGradient(z, loss, e.target, g);
      dh.fill(0);
      for (let j = 0; j < H; j++) {
        const out = output[j];
        for (let k = 0; k < width; k++) dh[j] += g[k] * out[k];
        dh[j] *= 1 - h[j] * h[j];
      }
      for (let j = 0; j <= H; j++) {
        const a = j === H ? 1 : h[j];
        const out = output[j];
        const acc = outputG[j];
        for (let k = 0; k < width; k++) step(out, acc, k, g[k] * a);
      }
      for (let i = 0; i < e.rows.length; i++) {
        const row = e.rows[i];
        const acc = e.grads[i];
        const v = e.values[i];
        for (let j = 0; j < H; j++) step(row, acc, j, dh[j] * v);
      }
    }
  }
  const round = rounder(opts.decimals);
  const rounded = new Map<string, Float64Array>();
  for (const n of names) {
    const row = input.get(n)!.map(round);
    if (row.some((x) => x !== 0)) rounded.set(n, row);
  }
  return { input: rounded, output: output.map((row) => row.map(round)) };
}

/** Rounds to fixed decimals, and -0 to 0, so that weights serialise the same on every run. */
function rounder(decimals: number): (x: number) => number {
  const f = 10 ** decimals;
  return (x) => Math.round(x * f) / f + 0;
}

/**
 * `runs` networks trained with seeds seed, seed+1, …, as one: their hidden layers side by side and their output rows
 * divided by `runs`, so its outputs are the mean of theirs before the sigmoid or softmax. One run is returned as it is.
 */
export function trainMlpMean(
  examples: { f: Features; target: (k: number) => number }[],
  width: number,
  loss: Loss,
  opts: MlpOptions & { runs: number },
): Mlp {
  const nets = Array.from({ length: opts.runs }, (_, r) => trainMlp(examples, width, loss, { ...opts, seed: opts.seed + r }));
  if (nets.length === 1) return nets[0];
  const H = opts.hidden;
  const round = rounder(opts.decimals);
  const mean = (x: number) => round(x / nets.length);
  const input = new Map<string, Float64Array>();
  for (const name of [...new Set(nets.flatMap((n) => [...n.input.keys()]))].sort()) {
    const row = new Float64Array(H * nets.length);
    nets.forEach((n, r) => {
      const part = n.input.get(name);
      if (part) row.set(part, r * H);
    });
    input.set(name, row);
  }
  const output = nets.flatMap((n) => n.output.slice(0, H).map((row) => row.map(mean)));
  output.push(Float64Array.from({ length: width }, (_, k) => mean(nets.reduce((sum, n) => sum + n.output[H][k], 0))));
  return { input, output };
}

function forward(rows: Float64Array[], values: number[], output: Float64Array[], h: Float64Array, z: Float64Array): void {
  const H = h.length;
  h.fill(0);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const v = values[i];
    for (let j = 0; j < H; j++) h[j] += row[j] * v;
  }
  for (let j = 0; j < H; j++) h[j] = Math.tanh(h[j]);
  z.set(output[H]);
  const width = z.length;
  for (let j = 0; j < H; j++) {
    const out = output[j];
    const a = h[j];
    for (let k = 0; k < width; k++) z[k] += a * out[k];
  }
}

function outputGradient(z: Float64Array, loss: Loss, target: (k: number) => number, out: Float64Array): void {
  if (loss === 'sigmoid') {
    for (let k = 0; k < z.length; k++) out[k] = 1 / (1 + Math.exp(-z[k])) - target(k);
    return;
  }
  let max = -Infinity;
  for (let k = 0; k < z.length; k++) max = Math.max(max, z[k]);
  let sum = 0;
  for (let k = 0; k < z.length; k++) {
    out[k] = Math.exp(z[k] - max);
    sum += out[k];
  }
  for (let k = 0; k < z.length; k++) out[k] = out[k] / sum - target(k);
}

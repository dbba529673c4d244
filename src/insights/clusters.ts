// Word clusters: 40,000 frequent English words grouped by meaning (model/word-clusters.txt, built once by
// tools/absa/build-clusters.ts from GloVe vectors). The trained models read a word's cluster beside the
// word itself, so what they learnt from "polite" carries over to words of its cluster they never saw.
import { readFileSync } from 'node:fs';

let cached: Map<string, number> | null = null;

/** Word → cluster number (its line among the file's cluster lines). */
export function wordClusters(): Map<string, number> {
  if (cached) return cached;
  const map = new Map<string, number>();
  const lines = readFileSync(new URL('./model/word-clusters.txt', import.meta.url), 'utf8').split('\n');
  let cluster = 0;
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    for (const word of line.split(' ')) map.set(word, cluster);
    cluster++;
  }
  cached = map;
  return map;
}

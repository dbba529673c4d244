// Near twins between labelled sets: two sentences sharing at least half their words (Jaccard over lowercased
// words), the rule the held-out sets and the later training additions were assembled by (data/absa/README.md). A held-out
// sentence with a twin in what trains would measure memory, not reading.
import type { GoldSentence } from './semeval.js';

/** A sentence's words: lowercased runs of letters, digits and apostrophes (as the assembly scripts split them). */
export function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9']+/g) ?? []);
}

export interface NearTwin {
  /** The sentence of `sentences`. */
  id: string;
  /** Its twin in `against`. */
  twin: string;
  jaccard: number;
}

/**
 * Every pair (a sentence of `sentences`, one of `against`) whose word sets have Jaccard ≥ `threshold`, in
 * `sentences`' order. Prefix filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007): with the
 * words of every set in one fixed order, rarest first, two sets at Jaccard ≥ t share a word among the first
 * n − ⌈t·n⌉ + 1 of each (n its size), so only pairs sharing such a word are compared, not all of them.
 */
export function nearTwins(sentences: readonly GoldSentence[], against: readonly GoldSentence[], threshold = 0.5): NearTwin[] {
  const sets = (list: readonly GoldSentence[]) => list.map((s) => ({ id: s.id, words: wordsOf(s.text) }));
  const left = sets(sentences);
  const right = sets(against);
  const count = new Map<string, number>();
  for (const { words } of [...left, ...right]) for (const w of words) count.set(w, (count.get(w) ?? 0) + 1);
  const prefix = (words: Set<string>): string[] => {
    const ordered = [...words].sort((a, b) => count.get(a)! - count.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
    // t·n can come out a hair over a whole number (0.28 × 25); one word too many in a prefix costs a comparison, one
    // too few could miss a pair.
    return ordered.slice(0, ordered.length - Math.ceil(threshold * ordered.length - 1e-9) + 1);
  };
  const index = new Map<string, number[]>();
  right.forEach(({ words }, j) => {
    for (const w of prefix(words)) {
      const list = index.get(w);
      if (list) list.push(j);
      else index.set(w, [j]);
    }
  });
  const twins: NearTwin[] = [];
  for (const { id, words } of left) {
    if (words.size === 0) continue;
    const candidates = new Set(prefix(words).flatMap((w) => index.get(w) ?? []));
    for (const j of [...candidates].sort((a, b) => a - b)) {
      const other = right[j].words;
      let shared = 0;
      for (const w of words) if (other.has(w)) shared++;
      const jaccard = shared / (words.size + other.size - shared);
      if (jaccard >= threshold) twins.push({ id, twin: right[j].id, jaccard });
    }
  }
  return twins;
}

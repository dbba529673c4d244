// Typo tolerance for the lexicons: a word the English model does not know ("magnificant", "recimmend") is
// read as the lexicon word it is one edit from (two for long words), when exactly one such word exists.
// The first letter must agree, which keeps unknown names from turning into opinion words.

import { cappedMemo } from './capped-memo.js';

/** Shortest unknown word that is corrected at all, and the shortest allowed two edits. */
const MIN_LENGTH = 6;
const TWO_EDITS_FROM = 8;
/** Corrections remembered per fixer. */
const MEMO_CAP = 20_000;

export class SpellFixer {
  private readonly byInitial = new Map<string, string[]>();
  private readonly known = new Set<string>();
  /** The correction of each unknown word, or null. */
  private readonly corrected = cappedMemo((word) => this.search(word), MEMO_CAP);

  constructor(words: Iterable<string>) {
    for (const w of words) {
      if (!/^[a-z]+$/.test(w) || w.length < MIN_LENGTH - 1 || this.known.has(w)) continue;
      this.known.add(w);
      const list = this.byInitial.get(w[0]) ?? [];
      list.push(w);
      this.byInitial.set(w[0], list);
    }
  }

  /** The lexicon word an unknown word is a typo of, or null. */
  fix(word: string): string | null {
    if (word.length < MIN_LENGTH || this.known.has(word)) return null;
    return this.corrected(word);
  }

  private search(word: string): string | null {
    const limit = word.length >= TWO_EDITS_FROM ? 2 : 1;
    let best: string | null = null;
    let bestDistance = limit + 1;
    let tie = false;
    for (const candidate of this.byInitial.get(word[0]) ?? []) {
      if (Math.abs(candidate.length - word.length) > limit) continue;
      const d = editDistance(word, candidate, bestDistance + 1);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
        tie = false;
      } else if (d === bestDistance && best !== null) {
        tie = true;
      }
    }
    return best !== null && !tie ? best : null;
  }
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent transpositions), or
 * `cap` when it is at least `cap`.
 */
export function editDistance(a: string, b: string, cap: number): number {
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin >= cap) return cap;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n], cap);
}

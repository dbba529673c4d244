// What makes one labelled sentence unusable, whoever reads it: the assembly of a held-out set and the first split of
// a vertical both refuse these (one stops at the first, the other lists them all).
import { wordsOf } from './near-twins.js';
import type { GoldSentence } from './semeval.js';

/** The sentence's faults, in reading order: no words (it could never be anyone's near twin), a label outside `aspects`, a label given twice. */
export function sentenceFaults(s: GoldSentence, aspects: ReadonlySet<string>): string[] {
  const faults: string[] = [];
  if (wordsOf(s.text).size === 0) faults.push('no words in its text');
  const seen = new Set<string>();
  for (const { category } of s.categories) {
    if (!aspects.has(category)) faults.push(`"${category}" is not an aspect of the vertical`);
    if (seen.has(category)) faults.push(`"${category}" is labelled twice`);
    seen.add(category);
  }
  return faults;
}

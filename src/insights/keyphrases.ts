// Key phrases for topics: runs of common nouns ("water heater", "garbage disposal"), head noun lemmatised
// so "water heaters" and "water heater" group together. Proper nouns are left to the entity matcher and
// generic nouns ("time", "job") are dropped because every review has them.

import type { Lexicon } from './lexicon.js';
import type { Token } from './nlp.js';

const MAX_WORDS = 3;
const MIN_HEAD_LENGTH = 3;

export function keyPhrases(tokens: Token[], lex: Lexicon, into: Set<string>): void {
  let run: Token[] = [];
  const flush = (): void => {
    if (run.length > 0) {
      const words = run.slice(-MAX_WORDS);
      const head = words[words.length - 1];
      const headForm = /^[a-z][a-z-]*$/.test(head.lemma) ? head.lemma : head.normal;
      if (headForm.length >= MIN_HEAD_LENGTH && !lex.genericNouns.has(headForm) && !lex.genericNouns.has(head.normal)) {
        into.add([...words.slice(0, -1).map((t) => t.normal), headForm].join(' '));
      }
    }
    run = [];
  };
  for (const t of tokens) {
    if (t.pos === 'NOUN' && /^[a-z][a-z-]*$/.test(t.normal)) run.push(t);
    else flush();
  }
  flush();
}

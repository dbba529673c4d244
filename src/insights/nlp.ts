// The one place that talks to wink-nlp: turns text into sentences of tokens with character offsets.
// The rest of the engine works on these plain arrays, so it does not depend on wink's API.

import { createRequire } from 'node:module';
import type { Model } from 'wink-eng-lite-web-model';
import type winkNLP from 'wink-nlp';
import type { ItsFunction } from 'wink-nlp';
import { cappedMemo } from './capped-memo.js';

export interface Token {
  /** Lowercased surface form (wink's `normal`, which also expands contractions: "n't" → "not"). */
  normal: string;
  lemma: string;
  /** Universal POS tag (NOUN, ADJ, VERB, …). */
  pos: string;
  /** wink's negation scope: the token follows a negation within its clause. */
  negated: boolean;
  /** A word (letters only) that the English model's vocabulary does not know, in any case: maybe a typo. */
  oov: boolean;
  /** UTF-16 offsets into the analysed text. */
  start: number;
  end: number;
}

export interface ParsedSentence {
  start: number;
  end: number;
  tokens: Token[];
}

const WORD = /[\p{L}\p{N}]/u;

interface Wink {
  nlp: ReturnType<typeof winkNLP>;
  its: ReturnType<typeof winkNLP>['its'];
  lemmaOf: ItsFunction<string>;
  firstUnknownId: number;
}
let loaded: Wink | null = null;

/**
 * The English model is loaded on first use, not at import: a server that loads a stored snapshot
 * never analyses anything, and should not pay for the model at start. Even evaluating the model's
 * module costs about 0.3 s of CPU, so both packages are required here rather than imported.
 */
function wink(): Wink {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const model = require('wink-eng-lite-web-model') as Model;
  const nlp = (require('wink-nlp') as typeof winkNLP)(model, ['sbd', 'negation', 'pos']);
  const its = nlp.its;
  loaded = {
    nlp,
    its,
    // wink's type declarations give `its.lemma` an addons parameter its `out()` signature does not accept,
    // although `out(its.lemma)` is the documented call.
    lemmaOf: its.lemma as unknown as ItsFunction<string>,
    // wink numbers its vocabulary first and every word it meets later after it: the id of a nonsense word read
    // first is where the unknown words begin.
    firstUnknownId: (nlp.readDoc('qzxqjvkz').tokens().out(its.uniqueId) as number[])[0],
  };
  return loaded;
}
const LETTERS = /^[a-z]+$/;
/** Words remembered by each lookup below. */
const KNOWN_CAP = 50_000;

/** Whether the vocabulary knows a lowercased form. */
const isKnown = cappedMemo((lower) => {
  const { nlp, its, firstUnknownId } = wink();
  const ids = nlp.readDoc(lower).tokens().out(its.uniqueId) as number[];
  return ids.length !== 1 || ids[0] < firstUnknownId;
}, KNOWN_CAP);

/**
 * A word directly followed by one punctuation mark ("Bob's," "wasnt.") goes down a path of wink's own: the word is
 * taken whole, neither split ("Bob" "'s") nor expanded ("was" "nt"); a contraction taken so has no lemma, and a
 * possessive is learned whole, so that from then on it is read whole everywhere and a text would tokenise by what
 * the process had read before it. A space before the mark keeps wink on its ordinary path. Abbreviations that end in
 * a full stop ("Dr.", "a.m.") are words of wink's vocabulary and keep theirs.
 */
const BEFORE_MARK = /(?<=\p{L})(?=(?!['’])\p{P}(?![\p{L}\p{N}]))/gu;
/** Longer words are never abbreviations; the bound keeps the look back constant on a text without spaces. */
const LONGEST_ABBREVIATION = 16;
/** Whether wink reads a word and the full stop after it as one token (an abbreviation). */
const isAbbreviation = cappedMemo((word) => wink().nlp.readDoc(`${word}.`).tokens().length() === 1, KNOWN_CAP);

/** The text as wink should read it: a space between a word and the one punctuation mark after it (see above). */
function spacedForWink(text: string): string {
  return text.replace(BEFORE_MARK, (_, at: number) => {
    if (text[at] !== '.') return ' ';
    const from = Math.max(0, at - LONGEST_ABBREVIATION - 1);
    const word = /\S*$/u.exec(text.slice(from, at))?.[0] ?? '';
    // Reading a word with an apostrophe before a full stop, even to ask, would teach wink that word whole.
    const keep = word.length <= LONGEST_ABBREVIATION && !/['’]/.test(word) && isAbbreviation(word);
    return keep ? '' : ' ';
  });
}

/** Sentences with their non-whitespace tokens; sentences without a word or symbol are dropped. */
export function parseText(text: string): ParsedSentence[] {
  const { nlp, its, lemmaOf, firstUnknownId } = wink();
  // Only wink reads the spaced copy: tokens are located in `text` below, so their offsets are the text's own.
  const doc = nlp.readDoc(spacedForWink(text));
  const tokens = doc.tokens();
  const values = tokens.out(its.value) as string[];
  const normals = tokens.out(its.normal) as string[];
  const lemmas = tokens.out(lemmaOf) as (string | null)[];
  const tags = tokens.out(its.pos) as string[];
  const negations = tokens.out(its.negationFlag) as unknown as boolean[];
  const ids = tokens.out(its.uniqueId) as number[];
  const spans = doc.sentences().out(its.span) as unknown as [number, number][];

  // wink keeps every character, but locating each value from a moving cursor is robust even if a future
  // tokenizer normalises some characters: a token that cannot be found keeps the cursor position.
  const all: (Token | null)[] = new Array(values.length);
  let cursor = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const at = text.indexOf(value, cursor);
    const start = at < 0 ? cursor : at;
    const end = at < 0 ? cursor : at + value.length;
    cursor = end;
    all[i] =
      tags[i] === 'SPACE' || value.trim() === ''
        ? null
        : {
            normal: normals[i],
            // wink gives no lemma for a contraction it read whole; spacedForWink keeps it from that, and an input
            // it did not foresee costs a lemma, not the analysis of a whole import.
            lemma: (lemmas[i] ?? normals[i]).toLowerCase(),
            pos: tags[i],
            negated: negations[i],
            oov: ids[i] >= firstUnknownId && LETTERS.test(normals[i]) && (value === normals[i] || !isKnown(normals[i])),
            start,
            end,
          };
  }

  const sentences: ParsedSentence[] = [];
  for (const [first, last] of spans) {
    const sentenceTokens: Token[] = [];
    for (let i = first; i <= last; i++) {
      const token = all[i];
      if (token) sentenceTokens.push(token);
    }
    if (sentenceTokens.length === 0) continue;
    const end = sentenceTokens[sentenceTokens.length - 1].end;
    // "Great!!!!" comes back as "Great!" and "!!!": a run of punctuation is not a sentence of its own.
    const previous = sentences[sentences.length - 1];
    if (previous && !sentenceTokens.some((t) => WORD.test(t.normal))) {
      previous.tokens.push(...sentenceTokens);
      previous.end = end;
      continue;
    }
    sentences.push({ start: sentenceTokens[0].start, end, tokens: sentenceTokens });
  }
  return sentences;
}

const SUFFIXES = ['s', 'es', 'ed', 'd', 'est', 'st', 'ing', 'er', 'ly'];

/**
 * An unknown word that is an inflection of a word the vocabulary knows ("cleanest", "refilled", "palates"):
 * not a typo, even when it is one edit from a lexicon word.
 */
export function isInflectionOfKnown(lower: string): boolean {
  for (const suffix of SUFFIXES) {
    if (!lower.endsWith(suffix)) continue;
    const stem = lower.slice(0, -suffix.length);
    if (stem.length < 3) continue;
    if (isKnown(stem) || isKnown(`${stem}e`)) return true;
    if (stem.length > 3 && stem[stem.length - 1] === stem[stem.length - 2] && isKnown(stem.slice(0, -1))) return true;
  }
  return false;
}

/** Lowercased token forms of a short lexicon entry, tokenised exactly as review text is. */
export function tokenizePhrase(phrase: string): string[] {
  const { nlp, its } = wink();
  return (nlp.readDoc(phrase).tokens().out(its.normal) as string[]).filter((t) => t.trim() !== '');
}

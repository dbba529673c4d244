// Longest-match lookup of single- and multi-word lexicon entries over a token sequence. Each entry word
// matches a token's lowercased form or its lemma, so "leak" also finds "leaking" and "leaks".
import type { Token } from './nlp.js';

export interface Match<T> {
  /** Token index range [start, end). */
  start: number;
  end: number;
  value: T;
}

interface Entry<T> {
  words: string[];
  value: T;
}

export class PhraseMatcher<T> {
  private readonly byFirst = new Map<string, Entry<T>[]>();

  /** Adds an entry; a later entry with the same words replaces the earlier one. */
  add(words: string[], value: T): void {
    if (words.length === 0) return;
    const list = this.byFirst.get(words[0]) ?? [];
    const same = list.findIndex((e) => e.words.join(' ') === words.join(' '));
    if (same >= 0) list[same] = { words, value };
    else list.push({ words, value });
    // Longest first, so the first entry that matches at a position is the longest one.
    list.sort((a, b) => b.words.length - a.words.length);
    this.byFirst.set(words[0], list);
  }

  get(words: string[]): T | undefined {
    return this.byFirst.get(words[0])?.find((e) => e.words.join(' ') === words.join(' '))?.value;
  }

  /** Non-overlapping matches, scanning left to right and preferring the longest entry at each position. */
  matchAll(tokens: Token[]): Match<T>[] {
    const out: Match<T>[] = [];
    let i = 0;
    while (i < tokens.length) {
      const found = this.longestAt(tokens, i);
      if (found) {
        out.push(found);
        i = found.end;
      } else {
        i++;
      }
    }
    return out;
  }

  private longestAt(tokens: Token[], i: number): Match<T> | null {
    const t = tokens[i];
    let best = this.longestFrom(tokens, i, t.normal, null);
    if (t.lemma !== t.normal) best = this.longestFrom(tokens, i, t.lemma, best);
    // Only when the form finds nothing: a plural the tagger left unlemmatised ("Salads" as a proper noun).
    else if (best === null) for (const singular of singulars(t.normal)) best = this.longestFrom(tokens, i, singular, best);
    return best;
  }

  private longestFrom(tokens: Token[], i: number, key: string, best: Match<T> | null): Match<T> | null {
    const list = this.byFirst.get(key);
    if (!list) return best;
    for (const entry of list) {
      if (best && best.end - best.start >= entry.words.length) break;
      if (wordsMatch(tokens, i, entry.words)) return { start: i, end: i + entry.words.length, value: entry.value };
    }
    return best;
  }
}

/** Singular forms of a word that may be a plural, for tokens whose lemma is the word itself. */
function singulars(w: string): string[] {
  if (w.length < 4 || !w.endsWith('s') || w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return [];
  if (w.endsWith('ies')) return [`${w.slice(0, -3)}y`];
  if (w.endsWith('es')) return [w.slice(0, -1), w.slice(0, -2)];
  return [w.slice(0, -1)];
}

function wordMatches(t: Token, word: string): boolean {
  if (t.normal === word || t.lemma === word) return true;
  const n = t.normal;
  return t.lemma === n && word.length < n.length && word[0] === n[0] && n.endsWith('s') && singulars(n).includes(word);
}

function wordsMatch(tokens: Token[], at: number, words: string[]): boolean {
  if (at + words.length > tokens.length) return false;
  for (let k = 0; k < words.length; k++) {
    if (!wordMatches(tokens[at + k], words[k])) return false;
  }
  return true;
}

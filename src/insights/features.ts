// Features of a sentence for the trained models (model.ts), built from the same evidence the lexicon engine
// uses: words, lexicon mentions and opinions, general-lexicon valences, clause segments and implicit patterns.
// Training (tools/absa/train.ts) and inference call these same functions, so what was learnt is what is read.
import type { SentenceResult } from './absa.js';
import { wordClusters } from './clusters.js';
import type { PatternHit } from './implicit.js';
import type { Token } from './nlp.js';
import { addVector, wordVectors } from './vectors.js';

/** Sparse features: parallel names and values. */
export interface Features {
  names: string[];
  values: number[];
}

export interface SentenceEvidence {
  tokens: Token[];
  result: SentenceResult;
  patterns: PatternHit[];
}

const WORD = /[a-z0-9]/;
const NUMBER = /^[\d.,:$]+[a-z]*$/;

/** Lowercased lemma of a word token, numbers folded into "#", null for punctuation and symbols. */
function wordOf(t: Token): string | null {
  if (!WORD.test(t.normal)) return null;
  if (NUMBER.test(t.normal) && /\d/.test(t.normal)) return '#';
  return t.lemma;
}

/** Squashes an unbounded lexicon sum into -1..1. */
function squash(x: number): number {
  return Math.tanh(x / 2);
}

class Builder {
  readonly names: string[] = [];
  readonly values: number[] = [];
  private readonly seen = new Set<string>();
  flag(name: string): void {
    if (this.seen.has(name)) return;
    this.seen.add(name);
    this.names.push(name);
    this.values.push(1);
  }
  value(name: string, v: number): void {
    if (v === 0 || this.seen.has(name)) return;
    this.seen.add(name);
    this.names.push(name);
    this.values.push(v);
  }
}

/**
 * Words, their clusters and bigrams of the tokens that pass `keep`, each prefixed with what `mark` says of its
 * token (the polarity features mark negated words "!fix" and conceded ones "~good").
 */
function addWords(b: Builder, tokens: Token[], keep: (i: number) => boolean, mark: (i: number) => string = () => ''): void {
  const clusters = wordClusters();
  let previous: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (!keep(i)) {
      previous = null;
      continue;
    }
    const w = wordOf(tokens[i]);
    if (w === null) {
      previous = null;
      continue;
    }
    const marked = mark(i);
    const word = `${marked}${w}`;
    b.flag(`w=${word}`);
    const cluster = clusters.get(w) ?? clusters.get(tokens[i].normal);
    if (cluster !== undefined) b.flag(`c=${marked}${cluster}`);
    if (previous !== null) b.flag(`b=${previous} ${word}`);
    previous = word;
  }
}

// Parts of speech whose words carry what a sentence is about or how it judges it; the rest only blur the mean.
const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'INTJ', 'NUM']);

const namesByPrefix = new Map<string, string[]>();
/** `prefix0` … `prefix{dims-1}`, made once per prefix (the analysis asks for them per sentence and aspect). */
function vectorNames(prefix: string, dims: number): string[] {
  let names = namesByPrefix.get(prefix);
  if (!names) namesByPrefix.set(prefix, (names = Array.from({ length: dims }, (_, d) => `${prefix}${d}`)));
  return names;
}

/**
 * The mean vector of the content words that pass `keep`, times `scale`, as dense features `prefix0…`; negated
 * words count with their sign flipped when `markNegation` ("not clean" points away from "clean").
 */
function addMeanVector(
  b: Builder,
  prefix: string,
  tokens: Token[],
  keep: (i: number) => boolean,
  scale: number,
  markNegation: boolean,
): void {
  const v = wordVectors();
  const sum = new Float64Array(v.dims);
  let n = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!keep(i) || !CONTENT.has(t.pos)) continue;
    if (addVector(v, [t.normal, t.lemma], markNegation && t.negated ? -1 : 1, sum)) n++;
  }
  if (n === 0) return;
  let norm = 0;
  for (let d = 0; d < v.dims; d++) norm += sum[d] * sum[d];
  norm = Math.sqrt(norm);
  const names = vectorNames(prefix, v.dims);
  for (let d = 0; d < v.dims; d++) b.value(names[d], (sum[d] / norm) * scale);
}

/** Is there an opinion in the sentence at all, from our lexicon or the general ones? */
function opinionStrength(r: SentenceResult): number {
  let s = 0;
  for (let i = 0; i < r.lexical.length; i++) s += Math.abs(r.lexical[i]) + Math.abs(r.vader[i]) + Math.abs(r.afinn[i]);
  return s;
}

/** Features of a sentence for the category model: which aspects it says something about. */
export function categoryFeatures(ev: SentenceEvidence, vectors = 0): Features {
  const b = new Builder();
  const { tokens, result } = ev;
  b.flag('bias');
  addWords(b, tokens, () => true);
  const firstWord = tokens.find((t) => wordOf(t) !== null);
  if (firstWord) b.flag(`first=${wordOf(firstWord)}`);
  const opinion = opinionStrength(result) > 0.3;
  b.flag(opinion ? 'opinion' : 'no-opinion');
  for (const m of result.named) {
    b.flag(`n=${m.aspect}`);
    if (m.cue) b.flag(`nc=${m.aspect}`);
    if (m.opinion !== 0) b.flag(`no=${m.aspect}`);
    if (!opinion) b.flag(`n0=${m.aspect}`);
  }
  for (const p of ev.patterns) b.flag(`p=${p.id}`);
  if (tokens.some((t) => t.negated)) b.flag('negation');
  const words = tokens.filter((t) => wordOf(t) !== null).length;
  b.flag(words <= 4 ? 'len<=4' : words <= 8 ? 'len<=8' : words <= 16 ? 'len<=16' : 'len>16');
  if (vectors > 0) addMeanVector(b, 'e', tokens, () => true, vectors, false);
  return { names: b.names, values: b.values };
}

/**
 * Features of one (sentence, aspect) pair for the polarity model. The aspect's scope is the clause segments
 * where the lexicon named it; an aspect it did not name (implicit) is read over the whole sentence. `words`
 * adds the scope's words and bigrams (negated ones marked, and for an implicit aspect conceded ones) to the lexicon
 * and pattern evidence.
 */
export function polarityFeatures(ev: SentenceEvidence, aspect: string, words = true, vectors = 0): Features {
  const b = new Builder();
  const { tokens, result } = ev;
  b.flag('bias');
  b.flag(`a=${aspect}`);
  const own = result.named.filter((m) => m.aspect === aspect);
  const scope = new Set(own.map((m) => m.segment));
  const implicit = scope.size === 0;
  if (implicit) {
    b.flag('implicit');
    for (let s = 0; s < result.weights.length; s++) scope.add(s);
  }
  const inScope = (i: number): boolean => scope.has(result.segmentOf[i]);

  // The lexicon engine's own reading: opinions attached to the aspect's mentions.
  let attached = 0;
  for (const m of own) attached += m.opinion;
  if (!implicit) {
    if (attached === 0) b.flag('attached=0');
    b.value('attached', squash(attached));
    if (attached > 0.5) b.flag('attached+');
    if (attached < -0.5) b.flag('attached-');
    if (own.some((m) => m.cue)) b.flag('cue');
  }

  let lexical = 0;
  let vader = 0;
  let afinn = 0;
  let outside = 0;
  // Each clause counts with its contrast weight: in "good but awful" the stressed "awful" outweighs "good".
  for (let i = 0; i < tokens.length; i++) {
    if (inScope(i)) {
      const weight = result.weights[result.segmentOf[i]];
      lexical += weight * result.lexical[i];
      vader += weight * result.vader[i];
      afinn += weight * result.afinn[i];
    } else {
      outside += result.lexical[i] + result.vader[i];
    }
  }
  b.value('lexical', squash(lexical));
  b.value('vader', squash(vader * 2));
  b.value('afinn', squash(afinn * 2));
  if (lexical > 0.5) b.flag('lexical+');
  if (lexical < -0.5) b.flag('lexical-');
  if (vader > 0.2) b.flag('vader+');
  if (vader < -0.2) b.flag('vader-');
  if (Math.abs(lexical) + Math.abs(vader) + Math.abs(afinn) < 0.05) b.flag('no-opinion');
  b.value('sentence', squash(result.raw));
  if (!implicit) b.value('outside', squash(outside));

  // Contrast: the conceded side of "X but Y" is outweighed by the stressed one.
  if (result.weights.length > 1 && !implicit) {
    let weight = 0;
    for (const s of scope) weight = Math.max(weight, result.weights[s]);
    b.flag(weight < 1 ? 'conceded' : weight > 1 ? 'stressed' : 'plain');
  }

  // Negated words are marked; so, for an implicit aspect (read over the whole sentence), is the conceded side of
  // "X but Y": in "good but awful" the model learns "~good" apart from "good".
  const conceded = (i: number): boolean => implicit && result.weights[result.segmentOf[i]] < 1;
  if (words) addWords(b, tokens, inScope, (i) => `${conceded(i) ? '~' : ''}${tokens[i].negated ? '!' : ''}`);
  if (vectors > 0) addMeanVector(b, 'e', tokens, inScope, vectors, true);
  for (const p of ev.patterns) {
    if (!inScope(p.at)) continue;
    b.flag(`p=${p.id}`);
    if (tokens.some((t, i) => t.negated && result.segmentOf[i] === result.segmentOf[p.at])) b.flag(`p=${p.id}!`);
  }
  return { names: b.names, values: b.values };
}

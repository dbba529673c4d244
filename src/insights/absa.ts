// Aspect-based sentiment for one sentence: find aspect mentions and opinion words with the lexicon, score
// each opinion with its local modifiers (negation, intensifiers, "too", counterfactuals), then give each
// opinion to the nearest aspect mention inside the same clause segment. Segments are cut at contrast
// words ("but", "however", "although", …) and semicolons, so "late but fixed the leak fast" scores the
// two halves separately; commas inside a segment only add distance.

import { generalLexicon } from './general-lexicon.js';
import type { Lexicon, LexValue } from './lexicon.js';
import type { Token } from './nlp.js';
import type { Match } from './phrase-matcher.js';
import { POLARITY_THRESHOLD } from './score.js';

/** VADER's empirically chosen damping: "not good" is less negative than "bad" is. */
const NEGATION_SCALAR = -0.74;
/** Token-distance cost of crossing a comma when attaching an opinion to an aspect. */
const COMMA_DISTANCE = 4;
/** How far back (tokens) negators and intensifiers reach. */
const MODIFIER_WINDOW = 3;
/** "could have been a lot better", "used to be pretty decent": these reach further than a negator does. */
const COUNTERFACTUAL_WINDOW = 6;
/** A phrase is quoted only when aspect term and opinion sit this close together. */
const MAX_PHRASE_TOKENS = 6;
/** Weight of a clause that a contrast word concedes ("X but Y": X counts half, Y one and a half). */
const CONCEDED_WEIGHT = 0.5;
const STRESSED_WEIGHT = 1.5;
const EXCLAMATION_BOOST = 1.2;
/** Weight of an opinion inside a conditional clause. */
const HYPOTHETICAL_WEIGHT = 0.25;
/** Opinion given to an adjective that "too" qualifies but the lexicon does not know ("too small"). */
const EXCESS_DEFAULT = -1.5;

interface SentenceAspect {
  aspect: string;
  /** Summed opinion (lexicon units) attached to the aspect in this sentence. */
  raw: number;
  /** Praise and complaint about the same aspect in one sentence. */
  conflict: boolean;
  /** Lowercased words that carried the mention, "" when the aspect is the taxonomy's default. */
  phrase: string;
  /** Some opinion attached to a mention of the aspect itself (not only its clause's or sentence's). */
  attached: boolean;
}

/** Where the lexicon named an aspect in a sentence (weak terms included), for the trained models' features. */
export interface Named {
  aspect: string;
  segment: number;
  /** Token range of the words that named it. */
  start: number;
  end: number;
  /** Named by an opinion cue ("punctual") rather than a term ("arrival"). */
  cue: boolean;
  /** Opinion attached to this mention (lexicon units, modifiers applied). */
  opinion: number;
}

export interface SentenceResult {
  /** Weighted opinion sum of the whole sentence. */
  raw: number;
  hasOpinion: boolean;
  aspects: SentenceAspect[];
  /** Clause segment of each token (cut at contrast words and semicolons) and each segment's weight. */
  segmentOf: Int32Array;
  weights: number[];
  /** Every aspect mention, including weak ones that `aspects` leaves out. */
  named: Named[];
  /** Lexicon opinion of each token (on its first token, modifiers applied), 0 elsewhere. */
  lexical: Float64Array;
  /** General-lexicon valences (VADER, AFINN, each -1..1) of each token after modifiers, 0 elsewhere. */
  vader: Float64Array;
  afinn: Float64Array;
}

interface Opinion {
  start: number;
  end: number;
  value: number;
  segment: number;
  /** The mention this opinion belongs to when the opinion word itself names an aspect ("delicious"). */
  own: Mention | null;
}

interface Mention {
  aspect: string;
  start: number;
  end: number;
  segment: number;
  opinions: Opinion[];
  /** The words are an opinion cue of the aspect ("delicious"), not a term naming it ("pizza"). */
  cue: boolean;
  /** A weak term: it names its aspect only when an opinion attaches to it. */
  weak: boolean;
}

/** Words after which "like" compares rather than likes. */
const LIKE_COMPARES = new Set(['look', 'seem', 'smell', 'sound']);
const REPORTED = new Set(['review', 'rating', 'reviewer', 'word-of-mouth']);
const MODIFIER_POS = new Set(['ADV', 'ADJ', 'DET', 'PART']);
const PUNCT_STOPS = new Set([',', '.', '!', '?', ';', ':', '(', ')', '-', '—', '–']);

export function analyzeSentence(tokens: Token[], text: string, lex: Lexicon): SentenceResult {
  const { segmentOf, weights, commasBefore } = segment(tokens, lex);
  const hits = lex.entries.matchAll(tokens);

  // Tokens that carry an opinion: a negator or intensifier reaches only the first of them after it, so in
  // "did not fix the problem" the "not" negates "fix" and leaves "problem" alone.
  const scored = new Uint8Array(tokens.length);
  for (const h of hits) if (h.value.score !== null && h.value.score !== 0) scored.fill(1, h.start, h.end);

  let mentions: Mention[] = [];
  const weakCues: Mention[] = [];
  const opinions: Opinion[] = [];
  for (const hit of hits) {
    const mention: Mention | null =
      hit.value.aspect === null || modifiesHead(tokens, hit, lex)
        ? null
        : {
            aspect: hit.value.aspect,
            start: hit.start,
            end: hit.end,
            segment: segmentOf[hit.start],
            opinions: [],
            cue: hit.value.cue,
            weak: hit.value.weak && !hit.value.cue,
          };
    if (mention) mentions.push(mention);
    if (mention && hit.value.weak && hit.value.cue) weakCues.push(mention);
    const value = opinionValue(tokens, hit, lex, segmentOf, scored);
    if (value !== 0) opinions.push({ start: hit.start, end: hit.end, value, segment: segmentOf[hit.start], own: mention });
  }
  addExcessOpinions(tokens, scored, lex, segmentOf, opinions);
  if (lex.waitAspect !== null) addWaitOpinions(tokens, lex.waitAspect, segmentOf, mentions, opinions);

  // A weak cue next to another aspect's term describes that term: "the food came out fast" is about the food.
  if (weakCues.length > 0) {
    const yielded = new Set(weakCues.filter((c) => closeTerm(c, mentions, commasBefore, lex) !== null));
    if (yielded.size > 0) {
      mentions = mentions.filter((m) => !yielded.has(m));
      for (const o of opinions) if (o.own && yielded.has(o.own)) o.own = null;
    }
  }
  // "The pizza is too expensive", "$12 for a bowl of soup": the dish is only the subject of the price.
  const absorbed = new Set<Mention>();
  if (lex.absorbing.size > 0) {
    for (const c of mentions) {
      const absorbs = lex.absorbing.get(c.aspect);
      if (!absorbs) continue;
      const subject = closeTerm(c, mentions, commasBefore, lex, absorbs);
      // The whole subject goes, "lobster roll" as well as "roll"; any of its words that gets an opinion stays.
      if (subject) for (const m of mentions) if (!m.cue && m.aspect === subject.aspect && m.segment === subject.segment) absorbed.add(m);
    }
  }

  const segmentTotals = new Array<number>(weights.length).fill(0);
  for (const o of opinions) {
    segmentTotals[o.segment] += o.value;
    const target = o.own ?? nearestMention(o, mentions, commasBefore);
    target?.opinions.push(o);
  }
  if (absorbed.size > 0) mentions = mentions.filter((m) => !absorbed.has(m) || m.opinions.length > 0);
  let raw = 0;
  for (let s = 0; s < weights.length; s++) raw += weights[s] * segmentTotals[s];
  if (tokens.some((t) => t.normal === '!')) raw *= EXCLAMATION_BOOST;

  // The default aspect's own words ("place", "experience") and weak terms ("reservation") are weak evidence:
  // they count only when an opinion attaches to them, so "great pizza at this place" is about the pizza.
  const kept = mentions.filter((m) => m.opinions.length > 0 || !(m.weak || m.aspect === lex.defaultAspect));
  const aspects = aggregate(kept, segmentTotals, raw, tokens, text);
  if (aspects.length === 0 && lex.defaultAspect !== null) {
    aspects.push({ aspect: lex.defaultAspect, raw, conflict: false, phrase: '', attached: false });
  }
  const named = mentions.map(
    (m): Named => ({
      aspect: m.aspect,
      segment: m.segment,
      start: m.start,
      end: m.end,
      cue: m.cue,
      opinion: m.opinions.reduce((sum, o) => sum + o.value, 0),
    }),
  );
  const lexical = new Float64Array(tokens.length);
  for (const o of opinions) lexical[o.start] += o.value;
  const { vader, afinn } = generalValences(tokens, hits, lex, segmentOf, scored);
  return { raw, hasOpinion: opinions.length > 0, aspects, segmentOf, weights, named, lexical, vader, afinn };
}

/**
 * VADER and AFINN valences of the words the project's lexicon does not cover, with the same modifiers. Words
 * the taxonomy lists as aspect terms carry none ("care" names an aspect in senior living).
 */
function generalValences(tokens: Token[], hits: Match<LexValue>[], lex: Lexicon, segmentOf: Int32Array, scored: Uint8Array) {
  const vader = new Float64Array(tokens.length);
  const afinn = new Float64Array(tokens.length);
  const covered = new Uint8Array(tokens.length);
  for (const h of hits) covered.fill(1, h.start, h.end);
  for (const g of generalLexicon().matchAll(tokens)) {
    let free = true;
    for (let i = g.start; i < g.end; i++) if (covered[i]) free = false;
    if (!free) continue;
    const first = tokens[g.start];
    if (first.pos === 'PROPN' || REPORTED.has(tokens[g.end]?.lemma ?? '')) continue;
    // The modifiers scale both lists alike: one unit through `modified` gives the factor.
    const factor = modified(1, tokens, g.start, g.end, lex, segmentOf, scored);
    vader[g.start] = g.value.vader * factor;
    afinn[g.start] = g.value.afinn * factor;
  }
  return { vader, afinn };
}

/** How close (tokens, commas counted as in attachment) another aspect's term must be for a cue to describe it. */
/** Extra distance to a cue of another aspect: a general opinion word prefers a term ("good, inexpensive sushi"). */
const CUE_PENALTY = 2;
const CUE_REACH = 4;

/** The nearest term (not cue) of another, non-default aspect (of `only`, if given) within reach of a cue, in its segment. */
function closeTerm(cue: Mention, mentions: Mention[], commasBefore: Int32Array, lex: Lexicon, only?: Set<string>): Mention | null {
  let best: Mention | null = null;
  let bestDistance = CUE_REACH + 1;
  for (const m of mentions) {
    if (m.cue || m.aspect === cue.aspect || m.aspect === lex.defaultAspect || m.segment !== cue.segment) continue;
    if (only && !only.has(m.aspect)) continue;
    const [a, b] = m.start < cue.start ? [m.end, cue.start] : [cue.end, m.start];
    const distance = Math.max(0, b - a) + COMMA_DISTANCE * Math.abs(commasBefore[b] - commasBefore[a]);
    if (distance < bestDistance) {
      best = m;
      bestDistance = distance;
    }
  }
  return best;
}

/** An aspect term used as a modifier of a head noun ("a sushi restaurant", "the bagel place") names no aspect. */
function modifiesHead(tokens: Token[], hit: Match<LexValue>, lex: Lexicon): boolean {
  const next = tokens[hit.end];
  return hit.value.score === null && next !== undefined && (lex.modifierHeads.has(next.lemma) || lex.modifierHeads.has(next.normal));
}

/** Splits the sentence at contrast words and semicolons and weights the conceded side down. */
function segment(tokens: Token[], lex: Lexicon) {
  const segmentOf = new Int32Array(tokens.length);
  const commasBefore = new Int32Array(tokens.length + 1);
  const weights = [1];
  let current = 0;
  let concessionOpen = false;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].normal;
    commasBefore[i + 1] = commasBefore[i] + (w === ',' ? 1 : 0);
    const startsNew = i > 0 && (w === ';' || (lex.contrastAfter.has(w) && isContrastUse(tokens, i)) || (concessionOpen && w === ','));
    if (startsNew) {
      current++;
      weights.push(1);
    }
    if (concessionOpen && w === ',') {
      concessionOpen = false;
      weights[current] = STRESSED_WEIGHT;
    } else if (lex.concessive.has(w) || (i === 0 && w === 'while')) {
      concessionOpen = true;
      weights[current] = CONCEDED_WEIGHT;
    } else if (startsNew && w !== ';') {
      weights[current - 1] *= CONCEDED_WEIGHT;
      weights[current] = STRESSED_WEIGHT;
    }
    segmentOf[i] = current;
  }
  return { segmentOf, weights, commasBefore };
}

/** "but" in "nothing but praise", "yet" in "not yet" and "though" at a clause end do not contrast clauses. */
function isContrastUse(tokens: Token[], i: number): boolean {
  const w = tokens[i].normal;
  const prev = tokens[i - 1]?.normal;
  if (w === 'but' && (prev === 'nothing' || prev === 'anything' || prev === 'all')) return false;
  if (w === 'yet' && (prev === 'not' || tokens[i].pos !== 'CCONJ')) return false;
  if (w === 'though' && (i === tokens.length - 1 || PUNCT_STOPS.has(tokens[i + 1].normal))) return false;
  return true;
}

/** The opinion value of one lexicon hit after its modifiers; 0 when the hit carries no opinion. */
function opinionValue(tokens: Token[], hit: Match<LexValue>, lex: Lexicon, segmentOf: Int32Array, scored: Uint8Array): number {
  const base = hit.value.score;
  if (base === null || base === 0) return 0;
  const first = tokens[hit.start];
  // "like" is an opinion only as a verb ("I like it"), not as a preposition ("places like this").
  if ((first.normal === 'like' || first.normal === 'pretty') && hit.end - hit.start === 1 && first.pos !== 'VERB' && first.pos !== 'ADJ')
    return 0;
  // "looked like", "smells like": a comparison, whatever the tagger says.
  if (first.normal === 'like' && hit.end - hit.start === 1 && hit.start > 0) {
    const prev = tokens[hit.start - 1];
    if (LIKE_COMPARES.has(prev.lemma) || LIKE_COMPARES.has(prev.normal)) return 0;
  }
  // "after reading the good reviews": an opinion about other people's reviews, not about the business.
  if (REPORTED.has(tokens[hit.end]?.lemma ?? '')) return 0;
  return modified(base, tokens, hit.start, hit.end, lex, segmentOf, scored);
}

/** A base opinion value after the modifiers before it: negation, intensifiers, "too", counterfactuals, "if". */
function modified(
  base: number,
  tokens: Token[],
  start: number,
  end: number,
  lex: Lexicon,
  segmentOf: Int32Array,
  scored: Uint8Array,
): number {
  let multiplier = 1;
  let negated = false;
  let excess = false;
  let counterfactual = false;
  for (let j = start - 1; j >= 0 && j >= start - MODIFIER_WINDOW; j--) {
    const t = tokens[j];
    if (segmentOf[j] !== segmentOf[start] || PUNCT_STOPS.has(t.normal) || scored[j]) break;
    // Two-word modifiers ("a bit", "kind of") first; a one-word one counts only when tagged as a modifier
    // (adverb, adjective, determiner, particle), so the noun "way" in "on the way" does not intensify.
    const pairM = j > 0 ? lex.intensifiers.get(`${tokens[j - 1].normal} ${t.normal}`) : undefined;
    const single = lex.intensifiers.get(t.normal);
    if (pairM !== undefined) multiplier *= pairM;
    else if (single !== undefined && MODIFIER_POS.has(t.pos)) multiplier *= single;
    if (lex.negators.has(t.normal) && !isNegationIdiom(tokens, j)) negated = !negated;
    if (lex.excess.has(t.normal)) excess = true;
  }
  for (let j = start - 1; j >= 0 && j >= start - COUNTERFACTUAL_WINDOW && segmentOf[j] === segmentOf[start]; j--) {
    const next = tokens[j + 1]?.normal;
    if ((lex.counterfactual.has(tokens[j].normal) && next === 'have') || (tokens[j].normal === 'used' && next === 'to'))
      counterfactual = true;
  }

  if (inHypothetical(tokens, start, segmentOf)) multiplier *= HYPOTHETICAL_WEIGHT;
  let value = base * multiplier;
  if (excess) value = -Math.abs(value);
  // A negated comparative of praise is still praise: "couldn't be happier", "can't imagine better".
  if (negated && !(value > 0 && isComparative(tokens, start, end))) value *= NEGATION_SCALAR;
  // "could have been better", "used to be good": praise under a counterfactual reads as a mild complaint.
  if (counterfactual && value > 0) value *= -0.5;
  return value;
}

function isComparative(tokens: Token[], start: number, end: number): boolean {
  if (end - start !== 1) return false;
  const w = tokens[start].normal;
  return w === 'better' || (w.endsWith('er') && tokens[start].lemma !== w);
}

/** Inside "if …" up to the next comma: "if you want good Thai food, go elsewhere" praises nothing. */
function inHypothetical(tokens: Token[], at: number, segmentOf: Int32Array): boolean {
  for (let j = at - 1; j >= 0 && segmentOf[j] === segmentOf[at]; j--) {
    const w = tokens[j].normal;
    if (w === ',' || w === '.' || w === 'then') return false;
    if (w === 'if' || w === 'unless') return true;
  }
  return false;
}

/** "not only … but", "no doubt", "no wonder" contain a negator without negating what follows. */
function isNegationIdiom(tokens: Token[], j: number): boolean {
  const next = tokens[j + 1]?.normal;
  return (tokens[j].normal === 'not' && next === 'only') || (tokens[j].normal === 'no' && (next === 'doubt' || next === 'wonder'));
}

const NUMBER_WORDS = new Map([
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['five', 5],
  ['ten', 10],
  ['fifteen', 15],
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['forty-five', 45],
  ['fifty', 50],
  ['sixty', 60],
  ['ninety', 90],
]);
const WAIT_VERBS = new Set(['wait', 'take', 'arrive', 'come', 'seat', 'get', 'bring', 'serve', 'show']);
const SHORT_MARKERS = new Set(['only', 'just', 'within', 'under', 'less', 'few']);
/** A wait at least this long (minutes) is a complaint. */
const LONG_WAIT_MINUTES = 20;
const LONG_WAIT_SCORE = -2;
const SHORT_WAIT_SCORE = 1.5;

/**
 * "We waited 40 minutes", "it took over an hour to get our food": a stated wait in a sentence about
 * waiting is an opinion on the taxonomy's wait aspect, negative when long and positive when marked short
 * ("only took five minutes").
 */
function addWaitOpinions(tokens: Token[], aspect: string, segmentOf: Int32Array, mentions: Mention[], opinions: Opinion[]): void {
  if (!tokens.some((t) => WAIT_VERBS.has(t.lemma))) return;
  for (let i = 0; i < tokens.length; i++) {
    const unit = tokens[i].lemma;
    if (unit !== 'minute' && unit !== 'min' && unit !== 'hour' && unit !== 'mins' && unit !== 'minutes' && unit !== 'hours') continue;
    const hours = unit.startsWith('hour');
    const prev = tokens[i - 1]?.normal ?? '';
    let minutes = hours ? 60 : Number.NaN;
    if (!hours) minutes = /^\d+$/.test(prev) ? Number(prev) : (NUMBER_WORDS.get(prev) ?? Number.NaN);
    if (hours && (prev === 'half' || tokens[i - 2]?.normal === 'half')) minutes = 30;
    if (Number.isNaN(minutes)) continue;
    let short = false;
    for (let j = Math.max(0, i - 5); j < i; j++) if (SHORT_MARKERS.has(tokens[j].normal)) short = true;
    if (!short && minutes < LONG_WAIT_MINUTES) continue;
    const mention: Mention = { aspect, start: i - 1, end: i + 1, segment: segmentOf[i], opinions: [], cue: true, weak: false };
    mentions.push(mention);
    opinions.push({ start: i - 1, end: i + 1, value: short ? SHORT_WAIT_SCORE : LONG_WAIT_SCORE, segment: segmentOf[i], own: mention });
  }
}

/** "too small", "too long": an excess word before an adjective the lexicon does not score is a complaint. */
function addExcessOpinions(tokens: Token[], scored: Uint8Array, lex: Lexicon, segmentOf: Int32Array, opinions: Opinion[]): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (!lex.excess.has(tokens[i].normal)) continue;
    const next = tokens[i + 1];
    if ((next.pos === 'ADJ' || next.pos === 'ADV') && !scored[i + 1] && !lex.intensifiers.has(next.normal)) {
      opinions.push({ start: i + 1, end: i + 2, value: EXCESS_DEFAULT, segment: segmentOf[i + 1], own: null });
    }
  }
}

function nearestMention(o: Opinion, mentions: Mention[], commasBefore: Int32Array): Mention | null {
  let best: Mention | null = null;
  let bestDistance = Infinity;
  for (const m of mentions) {
    if (m.segment !== o.segment) continue;
    const [a, b] = m.start < o.start ? [m.end, o.start] : [o.end, m.start];
    const gap = Math.max(0, b - a);
    const distance = gap + COMMA_DISTANCE * Math.abs(commasBefore[b] - commasBefore[a]) + (m.cue ? CUE_PENALTY : 0);
    // Ties go to the earlier mention: "The X was great" is the commoner order.
    if (distance < bestDistance) {
      best = m;
      bestDistance = distance;
    }
  }
  return best;
}

/** One entry per aspect: opinions attached to its mentions, else its segment's, else the sentence's. */
function aggregate(mentions: Mention[], segmentTotals: number[], sentenceRaw: number, tokens: Token[], text: string): SentenceAspect[] {
  const byAspect = new Map<string, { values: number[]; phrase: string; strength: number; attached: boolean }>();
  for (const m of mentions) {
    let value = 0;
    let strongest: Opinion | null = null;
    for (const o of m.opinions) {
      value += o.value;
      if (!strongest || Math.abs(o.value) > Math.abs(strongest.value)) strongest = o;
    }
    if (m.opinions.length === 0) value = segmentTotals[m.segment] !== 0 ? segmentTotals[m.segment] : sentenceRaw;
    const phrase = phraseOf(m, strongest, tokens, text);
    const entry = byAspect.get(m.aspect) ?? { values: [], phrase, strength: -1, attached: false };
    entry.values.push(value);
    entry.attached ||= m.opinions.length > 0;
    if (Math.abs(value) > entry.strength) {
      entry.strength = Math.abs(value);
      entry.phrase = phrase;
    }
    byAspect.set(m.aspect, entry);
  }
  const out: SentenceAspect[] = [];
  for (const [aspect, { values, phrase, attached }] of byAspect) {
    const raw = values.reduce((s, v) => s + v, 0);
    const conflict = values.some((v) => v > POLARITY_THRESHOLD) && values.some((v) => v < -POLARITY_THRESHOLD);
    out.push({ aspect, raw, conflict, phrase, attached });
  }
  return out;
}

function phraseOf(m: Mention, o: Opinion | null, tokens: Token[], text: string): string {
  let start = m.start;
  let end = m.end;
  if (o) {
    const lo = Math.min(m.start, o.start);
    const hi = Math.max(m.end, o.end);
    if (hi - lo <= MAX_PHRASE_TOKENS) {
      start = lo;
      end = hi;
    }
  }
  return text
    .slice(tokens[start].start, tokens[end - 1].end)
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

// Implicit evaluation: what a customer reports instead of judging. "It took four days to call me back",
// "they had to come back three times", "charged extra for parts", "came out at 11pm on a holiday" carry no
// opinion word, yet say how the business did. These detectors find the general shapes (durations, repeats,
// callbacks, extra charges, falls, off-hours visits, expectations) as features; the trained models learn from
// labelled sentences what each means for which aspect, and with which polarity.
import type { Token } from './nlp.js';

export type PatternId =
  | 'long_duration'
  | 'short_duration'
  | 'repeat'
  | 'still'
  | 'callback'
  | 'no_answer'
  | 'extra_charge'
  | 'fall'
  | 'off_hours'
  | 'had_to'
  | 'first_time'
  | 'expectation'
  | 'money'
  | 'question'
  | 'exclaim';

export interface PatternHit {
  id: PatternId;
  /** Token index the pattern sits at, for clause scoping. */
  at: number;
}

const NUMBER_WORDS = new Map([
  ['a', 1],
  ['an', 1],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
  ['fifteen', 15],
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['forty-five', 45],
  ['fifty', 50],
  ['sixty', 60],
  ['ninety', 90],
  ['couple', 2],
  ['few', 3],
  ['several', 3],
  ['many', 5],
]);
/** Minutes in each unit. */
const UNITS = new Map([
  ['minute', 1],
  ['min', 1],
  ['mins', 1],
  ['hour', 60],
  ['hr', 60],
  ['hrs', 60],
  ['day', 1440],
  ['week', 10080],
  ['month', 43200],
]);
const SHORT_MARKERS = new Set(['only', 'just', 'within', 'under', 'less', 'quick', 'quickly']);
/** A stated wait this long or longer (minutes) is long: two hours. */
const LONG_MINUTES = 120;
/** A stated delay this short or shorter (minutes) is short: an hour. */
const SHORT_MINUTES = 60;
const REPEAT_ORDINALS = new Set(['second', 'third', 'fourth', 'fifth', '2nd', '3rd', '4th', '5th']);
const REPEAT_NOUNS = new Set(['time', 'visit', 'trip', 'call', 'attempt', 'try']);
const MANY = new Set(['twice', 'multiple', 'several', 'numerous', 'repeated', 'repeatedly', 'countless']);
const CONTACT = new Set(['call', 'text', 'email', 'phone', 'message', 'ring']);
const NO_ANSWER = new Set(['voicemail', 'unanswered', 'ghost', 'ghosted', 'unreachable']);
const EXTRA = new Set(['extra', 'additional', 'surprise', 'hidden', 'upcharge', 'markup', 'surcharge']);
const FALL = new Set(['fall', 'fell', 'fallen', 'injury', 'injured', 'bruise', 'bruised', 'hospital', 'er', 'ambulance', 'fracture']);
const OFF_HOURS = new Set([
  'midnight',
  'weekend',
  'holiday',
  'sunday',
  'saturday',
  'christmas',
  'thanksgiving',
  'overnight',
  'after-hours',
]);
const EXPECT = new Set(['expect', 'promise', 'suppose', 'guarantee']);
const CLOCK = /^\d{1,2}(:\d\d)?(am|pm|a\.m\.|p\.m\.)?$/;
const LATE_CLOCK = /^(\d{1,2})(:\d\d)?\s*(pm|p\.m\.)$/;

function numberAt(t: Token | undefined): number | null {
  if (!t) return null;
  if (/^\d+(\.\d+)?$/.test(t.normal)) return Number(t.normal);
  return NUMBER_WORDS.get(t.normal) ?? null;
}

/** Every implicit-evaluation pattern in a sentence's tokens, in token order. */
export function implicitPatterns(tokens: Token[]): PatternHit[] {
  const out: PatternHit[] = [];
  const add = (id: PatternId, at: number): void => {
    out.push({ id, at });
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = t.normal;
    const lemma = t.lemma;
    const next = tokens[i + 1];

    const unit = UNITS.get(lemma) ?? UNITS.get(w);
    if (unit !== undefined) {
      let count = numberAt(tokens[i - 1]);
      if (count === null && (tokens[i - 1]?.normal === 'of' || tokens[i - 1]?.normal === 'and')) count = numberAt(tokens[i - 2]);
      if (tokens[i - 1]?.normal === 'half' || tokens[i - 2]?.normal === 'half') count = 0.5;
      // "for days", "took weeks": a plural unit without a number is many of them.
      if (count === null && w !== lemma && w.endsWith('s')) count = 3;
      if (count !== null) {
        const minutes = count * unit;
        let short = minutes <= SHORT_MINUTES || tokens[i - 1]?.normal === 'same';
        for (let j = Math.max(0, i - 4); j < i; j++) if (SHORT_MARKERS.has(tokens[j].normal)) short = true;
        if (short) add('short_duration', i);
        else if (minutes >= LONG_MINUTES) add('long_duration', i);
      }
      if (w === 'day' && tokens[i - 1]?.normal === 'same') add('short_duration', i);
    }
    if (w === 'forever' || w === 'ages' || (w === 'all' && (next?.lemma === 'day' || next?.lemma === 'week' || next?.lemma === 'morning')))
      add('long_duration', i);
    if (w === 'same-day' || w === 'asap' || w === 'promptly' || w === 'immediately' || (w === 'right' && next?.normal === 'away'))
      add('short_duration', i);

    if (REPEAT_ORDINALS.has(w) && next && REPEAT_NOUNS.has(next.lemma)) add('repeat', i);
    if (MANY.has(w) || (lemma === 'time' && (numberAt(tokens[i - 1]) ?? 0) >= 2)) add('repeat', i);
    if ((lemma === 'come' || lemma === 'go' || lemma === 'send') && next?.normal === 'back') add('repeat', i);
    if (w === 'again' || lemma === 'return' || w === 'redo' || w === 're-do') add('repeat', i);
    if (w === 'still') add('still', i);

    if (CONTACT.has(lemma) && (next?.normal === 'back' || tokens[i + 2]?.normal === 'back')) add('callback', i);
    if ((lemma === 'return' || lemma === 'answer') && next && CONTACT.has(next.lemma)) add('callback', i);
    if (
      (lemma === 'hear' && (next?.normal === 'back' || next?.normal === 'from')) ||
      lemma === 'respond' ||
      lemma === 'reply' ||
      w === 'response'
    )
      add('callback', i);
    if (
      NO_ANSWER.has(w) ||
      (lemma === 'answer' && t.negated) ||
      (w === 'no' && (next?.lemma === 'answer' || next?.lemma === 'response' || next?.lemma === 'reply'))
    )
      add('no_answer', i);

    if (
      EXTRA.has(w) ||
      (lemma === 'tack' && next?.normal === 'on') ||
      (w === 'on' && next?.normal === 'top' && tokens[i + 2]?.normal === 'of')
    )
      add('extra_charge', i);
    if (
      w === 'more' &&
      next?.normal === 'than' &&
      /^(quote|quoted|estimate|estimated|expected|promised)$/.test(tokens[i + 2]?.normal ?? tokens[i + 3]?.normal ?? '')
    )
      add('extra_charge', i);

    if (FALL.has(w) || FALL.has(lemma) || (w === 'floor' && tokens[i - 1]?.normal === 'the' && tokens[i - 2]?.normal === 'on'))
      add('fall', i);

    if (
      OFF_HOURS.has(w) ||
      LATE_CLOCK.test(w) ||
      (CLOCK.test(w) && (next?.normal === 'pm' || next?.normal === 'p.m.')) ||
      (w === 'middle' && tokens[i + 2]?.normal === 'night') ||
      (w === 'late' && next?.normal === 'at' && tokens[i + 2]?.normal === 'night') ||
      (w === 'after' && next?.normal === 'hours')
    )
      add('off_hours', i);

    if (lemma === 'have' && next?.normal === 'to' && tokens[i + 2]?.pos === 'VERB') add('had_to', i);
    if (w === 'first' && next && (next.lemma === 'time' || next.lemma === 'try' || next.lemma === 'visit' || next.lemma === 'attempt'))
      add('first_time', i);
    if (EXPECT.has(lemma) || (w === 'said' && next?.normal === 'they' && tokens[i + 2]?.normal === 'would')) add('expectation', i);
    if (w === '$' || lemma === 'dollar' || lemma === 'buck' || /^\$\d/.test(w)) add('money', i);
    if (w === '?') add('question', i);
    if (w === '!') add('exclaim', i);
  }
  return out;
}

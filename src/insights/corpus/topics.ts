// Topics: key phrases grouped by their head noun ("water heater", "new water heater" → "heater"), the
// biggest groups reported with the reviews that raise them and their mean review sentiment. A topic's label
// is the longest phrase that most of its reviews contain ("water heater" when most say so, else "heater"):
// the most frequent phrase alone would name a topic after a minority of it ("toilet repair" for all repairs).
import type { TopicInsight } from '../../domain/index.js';
import { type Ordered, type Positions, rowList } from './order.js';
import type { StateIn, StateOut } from './row-image.js';
import { type Accumulator, bump, milliMean, type Row, topKeys } from './rows.js';

const MAX_TOPICS = 10;
const MAX_REVIEW_IDS = 100;
const PHRASES_PER_TOPIC = 5;
/** A topic needs this many reviews (or 1 in a corpus too small to repeat itself). */
const MIN_REVIEWS = 2;
const SMALL_CORPUS = 20;

interface Acc {
  head: string;
  reviews: number;
  /** Review sentiment in thousandths (rows.ts milli). */
  sentimentSum: number;
  /** The topic's reviews in corpus order: its review_ids are the first. */
  rows: Ordered<Row>;
  /** Reviews per phrase (a review's phrases are distinct). */
  phrases: Map<string, number>;
  /**
   * Reviews counted twice for a word suffix because two of their phrases end in it ("new water heater" and
   * "water heater" in one review): subtracted when counting the reviews that contain a suffix.
   */
  overcount: Map<string, number>;
}

export class TopicAccumulator implements Accumulator {
  private readonly acc = new Map<string, Acc>();
  /**
   * Each phrase's head (and each head's own), one string per head: a kept row's phrases are shared strings,
   * so finding the head is a lookup by a string whose hash is known, not a new string cut and hashed per
   * phrase of every row. It keeps every phrase met, as the row maker's shared strings do: an entry a phrase.
   */
  private readonly heads = new Map<string, string>();
  /** The heads this review has named so far, to spot a head it names twice (a row has a few phrases). */
  private readonly named: string[] = [];
  private rows = 0;

  add(row: Row, at?: Positions): void {
    for (const a of this.count(row, 1)) {
      if (at) a.rows.insert(row, [row], at);
      else a.rows.push(row);
    }
  }

  remove(row: Row): void {
    for (const a of this.count(row, -1)) {
      a.rows.remove(row);
      if (a.reviews === 0) this.acc.delete(a.head);
    }
  }

  // The heads of phrases are not written: a lookup that misses finds the head again.
  save(out: StateOut): void {
    out.uint(this.rows);
    out.uint(this.acc.size);
    for (const [head, a] of this.acc) {
      out.string(head);
      out.uint(a.reviews);
      out.float(a.sentimentSum);
      out.rows(a.rows);
      out.counts(a.phrases);
      out.counts(a.overcount);
    }
  }

  load(input: StateIn<Row>): void {
    this.rows = input.uint();
    for (let k = input.uint(); k > 0; k--) {
      const head = input.string();
      const a: Acc = {
        head,
        reviews: input.uint(),
        sentimentSum: input.float(),
        rows: rowList(),
        phrases: new Map(),
        overcount: new Map(),
      };
      a.rows.fill(input.rows());
      input.counts(a.phrases);
      input.counts(a.overcount);
      this.acc.set(head, a);
    }
  }

  /** Counts a review in (+1) or out (-1); the topics it counts for. */
  private count(row: Row, sign: 1 | -1): Acc[] {
    this.rows += sign;
    const topics: Acc[] = [];
    const named = this.named;
    named.length = 0;
    for (let i = 0; i < row.phraseCount; i++) {
      const phrase = row.phraseAt(i);
      const head = this.headOf(phrase);
      let a = this.acc.get(head);
      if (!a) {
        a = { head, reviews: 0, sentimentSum: 0, rows: rowList(), phrases: new Map(), overcount: new Map() };
        this.acc.set(head, a);
      }
      bump(a.phrases, phrase, sign);
      if (named.includes(head)) {
        // Rare: count once the suffixes this phrase shares with the review's earlier phrases of the head.
        const phrases = row.phrases;
        const earlier = phrases.slice(0, phrases.indexOf(phrase));
        for (const suffix of suffixesOf(phrase)) {
          if (earlier.some((e) => e === suffix || e.endsWith(` ${suffix}`))) bump(a.overcount, suffix, sign);
        }
        continue;
      }
      named.push(head);
      a.reviews += sign;
      a.sentimentSum += sign * row.analysis.sentimentMilli;
      topics.push(a);
    }
    return topics;
  }

  private headOf(phrase: string): string {
    let head = this.heads.get(phrase);
    if (head === undefined) {
      const cut = phrase.slice(phrase.lastIndexOf(' ') + 1);
      head = this.heads.get(cut);
      // A head is its own head (a phrase of one word): one string for it, whichever phrase named it first.
      if (head === undefined) this.heads.set(cut, (head = cut));
      this.heads.set(phrase, head);
    }
    return head;
  }

  result(): TopicInsight[] {
    const minimum = this.rows >= SMALL_CORPUS ? MIN_REVIEWS : 1;
    return [...this.acc]
      .filter(([, a]) => a.reviews >= minimum)
      .sort((x, y) => y[1].reviews - x[1].reviews || (x[0] < y[0] ? -1 : 1))
      .slice(0, MAX_TOPICS)
      .map(([head, a]) => {
        const phrases = topKeys(a.phrases, PHRASES_PER_TOPIC);
        const label = labelOf(head, a);
        return {
          id: head,
          label: label.charAt(0).toUpperCase() + label.slice(1),
          review_count: a.reviews,
          score: milliMean(a.sentimentSum, a.reviews),
          review_ids: a.rows.firstIds(MAX_REVIEW_IDS),
          phrases,
        };
      });
  }
}

/** "new water heater" → "new water heater", "water heater", "heater". */
function suffixesOf(phrase: string): string[] {
  const out = [phrase];
  for (let at = phrase.indexOf(' '); at >= 0; at = phrase.indexOf(' ', at + 1)) out.push(phrase.slice(at + 1));
  return out;
}

/** The longest phrase more than half of the topic's reviews contain (the head noun always qualifies). */
function labelOf(head: string, a: Acc): string {
  const contained = new Map<string, number>();
  for (const [phrase, reviews] of a.phrases) {
    for (const suffix of suffixesOf(phrase)) contained.set(suffix, (contained.get(suffix) ?? 0) + reviews);
  }
  for (const [suffix, extra] of a.overcount) contained.set(suffix, (contained.get(suffix) ?? 0) - extra);
  let best = head;
  let bestCount = contained.get(head) ?? 0;
  for (const [phrase, count] of contained) {
    if (count * 2 <= a.reviews) continue;
    const longer = phrase.length - best.length;
    if (longer > 0 || (longer === 0 && (count > bestCount || (count === bestCount && phrase < best)))) {
      best = phrase;
      bestCount = count;
    }
  }
  return best;
}

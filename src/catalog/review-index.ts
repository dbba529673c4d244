import { type MentionMatcher, type Review, type SearchQuery, type SearchResult, foldText } from '../domain/index.js';
import { TextIndex } from './text-index.js';

/**
 * Indexes over one revision's published reviews (kept newest first): date order for ranges, posting
 * lists for technicians and services, and a trigram index for text. Search picks the smallest
 * candidate set and checks the remaining filters on it, so results come out newest first for free.
 */
export class ReviewIndex {
  private readonly ratings: Uint8Array;
  private readonly dates: string[];
  private readonly byTechnician = new Map<string, Int32Array>();
  private readonly byService = new Map<string, Int32Array>();
  private readonly text: TextIndex;

  constructor(
    readonly reviews: readonly Review[],
    private readonly technicians: MentionMatcher,
    private readonly services: MentionMatcher,
  ) {
    this.ratings = Uint8Array.from(reviews, (r) => r.rating);
    this.dates = reviews.map((r) => r.date);
    this.text = new TextIndex(reviews.map((r) => r.text));
    const tech = new Map<string, number[]>();
    const serv = new Map<string, number[]>();
    reviews.forEach((r, i) => {
      for (const t of r.technicians) push(tech, t, i);
      for (const s of r.services) push(serv, s, i);
    });
    for (const [k, v] of tech) this.byTechnician.set(k, Int32Array.from(v));
    for (const [k, v] of serv) this.byService.set(k, Int32Array.from(v));
  }

  /** Position of the first review dated strictly before `date` (dates are descending). */
  private firstBefore(date: string): number {
    let lo = 0;
    let hi = this.dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dates[mid] >= date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of the first review dated on or before `date`. */
  private firstOnOrBefore(date: string): number {
    let lo = 0;
    let hi = this.dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dates[mid] > date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Reviews dated on or after `date`, newest first. */
  since(date: string): readonly Review[] {
    return this.reviews.slice(0, this.firstBefore(date));
  }

  search(q: SearchQuery): SearchResult {
    const start = q.until ? this.firstOnOrBefore(q.until) : 0;
    const end = q.since ? this.firstBefore(q.since) : this.reviews.length;
    const needle = q.query ? foldText(q.query) : '';

    // Each entity filter narrows to a posting list; an unknown name matches nothing.
    const lists: Int32Array[] = [];
    if (q.mentions_technician !== undefined) lists.push(this.postings(this.byTechnician, this.technicians, q.mentions_technician));
    if (q.mentions_service !== undefined) lists.push(this.postings(this.byService, this.services, q.mentions_service));
    const textCandidates = needle ? this.text.candidates(needle) : null;
    if (textCandidates) lists.push(textCandidates);
    lists.sort((a, b) => a.length - b.length);

    const out: Review[] = [];
    let matched = 0;
    const accept = (i: number) => {
      if (q.rating !== undefined && this.ratings[i] !== q.rating) return;
      if (q.min_rating !== undefined && this.ratings[i] < q.min_rating) return;
      for (let k = 1; k < lists.length; k++) if (!contains(lists[k], i)) return;
      if (needle && !this.text.matches(i, needle)) return;
      matched++;
      if (out.length < q.limit) out.push(this.reviews[i]);
    };
    if (lists.length > 0) {
      const first = lists[0];
      for (let k = lowerBound(first, start); k < first.length && first[k] < end; k++) accept(first[k]);
    } else {
      for (let i = start; i < end; i++) accept(i);
    }
    return { matched, returned: out.length, reviews: out };
  }

  private postings(map: Map<string, Int32Array>, matcher: MentionMatcher, value: string): Int32Array {
    const id = matcher.resolve(value);
    return (id && map.get(id)) || EMPTY;
  }
}

const EMPTY = new Int32Array(0);

function push(map: Map<string, number[]>, key: string, i: number) {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const contains = (a: Int32Array, x: number) => {
  const i = lowerBound(a, x);
  return i < a.length && a[i] === x;
};

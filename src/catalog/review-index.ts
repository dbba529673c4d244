import {
  encodeCursor,
  foldText,
  type MentionMatcher,
  type Review,
  type SearchCursor,
  type SearchRequest,
  type SearchResult,
  searchFingerprint,
} from '../domain/index.js';
import { runAtOnce, type Steps } from '../threads/index.js';
import type { Held } from './lazy-review.js';
import { type NeedleFindings, NeedleMemo } from './needle-memo.js';
import { newestFirst } from './ordered-reviews.js';
import type { CarriedRuns } from './render/carried-runs.js';
import { TextIndex } from './text-index.js';

/** A set of review positions as bits, one per review (newest first), 32 to a word. */
type Bits = Uint32Array;

/** What the index reads of each review: a held review's record has it without parsing (see HeldOrder). */
export type IndexedFields = Pick<Held, 'date' | 'rating' | 'technicians' | 'services' | 'source' | 'language' | 'hasText' | 'hasReply'>;

/**
 * Indexes over one revision's published reviews (kept newest first): precomputed bitsets per rating,
 * technician and service, date order for ranges and a trigram index for text. A search ANDs the bitsets
 * of its filters (a few thousand words for 100k reviews), then walks the set bits in order, confirming
 * the text match only for those no earlier search for the same text confirmed (NeedleMemo): results
 * come out newest first, and `matched` is exact.
 */
export class ReviewIndex {
  private constructor(
    readonly reviews: readonly Review[],
    private readonly technicians: MentionMatcher,
    private readonly services: MentionMatcher,
    /** Narrow by the trigram index when its postings' bytes (about one a document) are at most this many times the texts left to check. */
    private readonly postingsPerCheck: number,
    private readonly words: number,
    private readonly dates: string[],
    private readonly ratingExact: Bits[],
    private readonly ratingAtLeast: Bits[],
    private readonly byTechnician: Map<string, Bits>,
    private readonly byService: Map<string, Bits>,
    /** The trigram index of the texts (stored with a snapshot, carried to the next revision). */
    readonly text: TextIndex,
    /** Keys lowercased: source, language tag; and the reviews with text, with an owner reply. */
    private readonly bySource: Map<string, Bits>,
    private readonly byLanguage: Map<string, Bits>,
    private readonly withText: Bits,
    private readonly withReply: Bits,
    /** What this revision's text searches learned (shared by `withReviews`: same texts, same positions). */
    private readonly needles = new NeedleMemo(words, NEEDLE_MEMO_BYTES),
  ) {
    this.withoutText = not(withText);
    this.withoutReply = not(withReply);
    this.none = new Uint32Array(words);
    this.nothingChecked = { checked: this.none, matched: this.none };
    this.scratch = new Uint32Array(words);
    this.uncheckedScratch = new Uint32Array(words);
    this.narrowedScratch = new Uint32Array(words);
    this.todoWords = new Int32Array(words);
  }

  private readonly withoutText: Bits;
  private readonly withoutReply: Bits;
  /** No review: the set of an unknown technician, service or source. */
  private readonly none: Bits;
  /** The findings of a needle no search has checked a text for (read only). */
  private readonly nothingChecked: NeedleFindings;
  /** Sets every search reuses (see searchPositions). */
  private readonly scratch: Bits;
  private readonly uncheckedScratch: Bits;
  private readonly narrowedScratch: Bits;
  private readonly todoWords: Int32Array;
  /** Texts checked for a needle by a substring search, over this index's life (tests bound it). */
  textsChecked = 0;
  /** A language filter's set (the tag and its regional tags), made on first use. */
  private readonly byLanguageTag = new Map<string, Bits>();

  static create(...args: Parameters<typeof ReviewIndex.build>): ReviewIndex {
    return runAtOnce(ReviewIndex.build(...args));
  }

  /**
   * `previous`: the previous revision's index and where each review was in it (the order's update
   * notes it): its bits, dates and text index are carried over for the reviews both have.
   */
  static *build(
    reviews: readonly Review[],
    /** The reviews' fields, at their positions. */
    fields: readonly IndexedFields[],
    technicians: MentionMatcher,
    services: MentionMatcher,
    postingsPerCheck = POSTINGS_PER_CHECK,
    previous?: { index: ReviewIndex; carried: CarriedRuns },
    /** The reviews' text index already made: as a stored revision had it, or folded by the build (no `previous`). */
    stored?: TextIndex,
  ): Steps<ReviewIndex> {
    const words = Math.ceil(reviews.length / 32);
    if (fields.length !== reviews.length) throw new Error('ReviewIndex: one set of fields per review');
    if (stored && stored.positions !== reviews.length)
      throw new Error('ReviewIndex: the stored text index is of another number of reviews');
    // On a previous index, each carried review's bits, date and text are taken from its previous
    // position (bits in runs, a word at a time) and only the fresh reviews are read: one new review
    // among 100k reads one.
    const before = previous?.index;
    const carried = previous?.carried ?? null;
    const text = stored ?? (yield* TextIndex.build(reviews, before && carried ? { index: before.text, from: carried.from } : undefined));
    const dates: string[] = new Array(reviews.length);
    const bitsOf = (old: Bits | undefined) => (carried && old ? copyRuns(old, carried.runs, words) : new Uint32Array(words));
    // A key none of the carried reviews has any more is dropped, as a full build would not make it.
    const mapOf = (old: Map<string, Bits> | undefined) =>
      new Map(old && [...old].map(([key, bits]) => [key, bitsOf(bits)] as const).filter(([, bits]) => bits.some((w) => w !== 0)));
    const ratingExact: Bits[] = [];
    const byTechnician = mapOf(before?.byTechnician);
    const byService = mapOf(before?.byService);
    const bySource = mapOf(before?.bySource);
    const byLanguage = mapOf(before?.byLanguage);
    const withText = bitsOf(before?.withText);
    const withReply = bitsOf(before?.withReply);
    for (let r = 0; r <= 5; r++) ratingExact.push(bitsOf(before?.ratingExact[r]));
    for (let i = 0; i < reviews.length; i++) {
      const from = carried ? carried.from[i] : -1;
      if (from >= 0) {
        dates[i] = before!.dates[from];
        if ((i & 16383) === 0) yield;
        continue;
      }
      const r = fields[i];
      dates[i] = r.date;
      set(ratingExact[r.rating], i);
      for (const t of r.technicians) set(getOrCreate(byTechnician, t, words), i);
      for (const s of r.services) set(getOrCreate(byService, s, words), i);
      set(getOrCreate(bySource, r.source.toLowerCase(), words), i);
      if (r.language) set(getOrCreate(byLanguage, r.language.toLowerCase(), words), i);
      if (r.hasText) set(withText, i);
      if (r.hasReply) set(withReply, i);
      if (i % 1024 === 0) yield;
    }
    // ratingAtLeast[r] = reviews rated r or more: one AND answers any min_rating.
    const ratingAtLeast: Bits[] = [];
    for (let r = 0; r <= 6; r++) ratingAtLeast.push(new Uint32Array(words));
    for (let r = 5; r >= 1; r--) {
      const acc = ratingAtLeast[r];
      const above = ratingAtLeast[r + 1];
      const exact = ratingExact[r];
      for (let w = 0; w < words; w++) acc[w] = above[w] | exact[w];
    }
    return new ReviewIndex(
      reviews,
      technicians,
      services,
      postingsPerCheck,
      words,
      dates,
      ratingExact,
      ratingAtLeast,
      byTechnician,
      byService,
      text,
      bySource,
      byLanguage,
      withText,
      withReply,
    );
  }

  /**
   * This index over other objects standing for the same reviews in the same order (held reviews, after
   * a build): the same dates and sets, so nothing is read from them.
   */
  withReviews(reviews: readonly Review[]): ReviewIndex {
    if (reviews.length !== this.reviews.length) throw new Error('ReviewIndex.withReviews: one object per review');
    return new ReviewIndex(
      reviews,
      this.technicians,
      this.services,
      this.postingsPerCheck,
      this.words,
      this.dates,
      this.ratingExact,
      this.ratingAtLeast,
      this.byTechnician,
      this.byService,
      this.text,
      this.bySource,
      this.byLanguage,
      this.withText,
      this.withReply,
      this.needles,
    );
  }

  /** Needles whose findings this revision keeps (tests). */
  get keptNeedles(): number {
    return this.needles.size;
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

  /**
   * One page of a search. `after` (a decoded cursor) is a keyset position: the page starts after that
   * review's place in the order, found by binary search in this revision, so reviews added or removed
   * elsewhere in the order never shift a page. `matched` counts every match, not only those after the cursor.
   */
  search(q: SearchRequest, after?: SearchCursor): SearchResult {
    const { matched, positions, next_cursor } = this.searchPositions(q, after);
    return { matched, returned: positions.length, reviews: positions.map((i) => this.reviews[i]), next_cursor };
  }

  /** `search` with the page as positions in the order (what a renderer splices from the rendered reviews). */
  searchPositions(q: SearchRequest, after?: SearchCursor): SearchPositions {
    const sort = q.sort ?? 'newest';
    const start = q.until ? this.firstOnOrBefore(q.until) : 0;
    const end = q.since ? this.firstBefore(q.since) : this.reviews.length;
    if (start >= end) return { matched: 0, positions: [], next_cursor: null };

    const filters: Bits[] = [];
    if (q.rating !== undefined) filters.push(this.ratingExact[q.rating]);
    if (q.min_rating !== undefined) filters.push(this.ratingAtLeast[Math.ceil(q.min_rating)]);
    if (q.mentions_technician !== undefined) filters.push(this.entity(this.byTechnician, this.technicians, q.mentions_technician));
    if (q.mentions_service !== undefined) filters.push(this.entity(this.byService, this.services, q.mentions_service));
    if (q.source !== undefined) filters.push(this.bySource.get(q.source.toLowerCase()) ?? this.none);
    if (q.language !== undefined) filters.push(this.language(q.language.toLowerCase()));
    if (q.has_text !== undefined) filters.push(q.has_text ? this.withText : this.withoutText);
    if (q.has_owner_reply !== undefined) filters.push(q.has_owner_reply ? this.withReply : this.withoutReply);
    const firstWord = start >>> 5;
    const lastWord = (end - 1) >>> 5;
    // The one scratch set, over the range's words (nothing reads it beyond them): a search runs to its
    // end on one thread, so no request allocates a corpus-sized set.
    const bits = this.scratch;
    const needle = q.query ? foldText(q.query) : '';
    let matched: number;
    if (needle) matched = this.keepTexts(bits, filters, needle, start, end, firstWord, lastWord);
    else {
      intersect(bits, filters, firstWord, lastWord);
      bits[firstWord] &= ~0 << (start & 31);
      if ((end & 31) !== 0) bits[lastWord] &= (1 << (end & 31)) - 1;
      matched = popcount(bits, firstWord, lastWord);
    }

    // One more than the page: whether it exists decides next_cursor.
    const want = q.limit + 1;
    const out: number[] = [];
    const after_ = after ? this.positionAfter(after) : 0;
    if (sort === 'newest') collect(bits, Math.max(start, after_), end, null, out, want);
    else if (sort === 'oldest') collect(bits, start, Math.min(end, after ? this.positionAt(after) : end), null, out, want, true);
    else {
      // By rating, then newest first: the rating's bits ANDed on the fly, one rating after another.
      const ratings = sort === 'highest' ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5];
      for (const r of ratings) {
        if (after && (sort === 'highest' ? r > after.rating : r < after.rating)) continue;
        const from = after && r === after.rating ? Math.max(start, after_) : start;
        collect(bits, from, end, this.ratingExact[r], out, want);
        if (out.length >= want) break;
      }
    }
    const more = out.length > q.limit;
    if (more) out.length = q.limit;
    const last = this.reviews[out[out.length - 1]];
    const next_cursor =
      more && last
        ? encodeCursor({
            v: 1,
            k: 'search',
            q: searchFingerprint(q),
            rating: last.rating,
            date: last.date,
            published_at: last.published_at,
            id: last.id,
          })
        : null;
    return { matched, positions: out, next_cursor };
  }

  /**
   * Sets in `bits` (over words first..last) the reviews between positions start and end (exclusive) that
   * are in every filter and whose text holds `needle`, and counts them. What earlier searches for this
   * needle learned (see NeedleMemo) settles the texts they checked; only the others are checked here.
   * The filters, the range's edges and those findings are applied in one pass: at 1M reviews each set is
   * 125 KB, and passes over them, not their arithmetic, were the search's cost.
   */
  private keepTexts(bits: Bits, filters: readonly Bits[], needle: string, start: number, end: number, first: number, last: number): number {
    // Two sets to AND per word: one read twice when there is one filter; with none or three and more, the
    // scratch set made first.
    let a = bits;
    if (filters.length === 1 || filters.length === 2) a = filters[0];
    else intersect(bits, filters, first, last);
    const b = filters.length === 2 ? filters[1] : a;
    const low = ~0 << (start & 31);
    const high = (end & 31) !== 0 ? (1 << (end & 31)) - 1 : ~0;
    // Read without asking the memo (see below); a needle it does not keep has checked nothing.
    const { checked, matched: found } = this.needles.peek(needle) ?? this.nothingChecked;
    // Without a branch per word: which words are empty or hold a match is as good as random, and
    // mispredicted branches made this loop 2.6 times slower (1M reviews, 20,000 words a search).
    let matched = 0;
    let fresh = 0;
    let any = 0;
    for (let w = first; w <= last; w++) {
      let word = a[w] & b[w];
      if (w === first) word &= low;
      if (w === last) word &= high;
      any |= word;
      const unknown = word & ~checked[w];
      const kept = word & found[w];
      // Checked texts are settled here; the unchecked ones stay set until confirmed below.
      bits[w] = kept | unknown;
      matched += popcount32(kept);
      fresh |= unknown;
    }
    // No review left by the other filters: nothing to learn, so the memo is not asked (nor counts the needle).
    if (any === 0) return 0;
    // The kept findings read above, or (a needle not kept) ones that have checked nothing over this range.
    const findings = this.needles.findings(needle, first, last);
    return fresh === 0 ? matched : matched + this.confirmTexts(bits, needle, findings, first, last);
  }

  /**
   * The texts set in `bits` that `findings` has not checked (over words first..last), checked for
   * `needle`: cleared in `bits` when they lack it, recorded in `findings` either way. Returns how many hold it.
   */
  private confirmTexts(bits: Bits, needle: string, findings: NeedleFindings, first: number, last: number): number {
    const { checked, matched: found } = findings;
    let matched = 0;
    // The words holding texts not checked yet, listed (matches are checked, so what is set and unchecked is new).
    const todo = this.todoWords;
    let todoLength = 0;
    let unchecked = 0;
    for (let w = first; w <= last; w++) {
      const unknown = bits[w] & ~checked[w];
      if (unknown !== 0) {
        todo[todoLength++] = w;
        unchecked += popcount32(unknown);
      }
    }
    // The trigram index pays off when walking the rarest trigram's postings (a bit test per entry)
    // costs less than checking every unchecked text (a substring search each).
    const postings = this.text.candidateCount(needle);
    if (postings !== null && postings <= unchecked * this.postingsPerCheck) {
      const within = this.uncheckedScratch.fill(0, first, last + 1);
      for (let k = 0; k < todoLength; k++) within[todo[k]] = bits[todo[k]] & ~checked[todo[k]];
      const narrowed = this.narrowedScratch.fill(0, first, last + 1);
      this.text.narrow(needle, within, narrowed);
      // A text without the rarest trigram lacks the needle: checked, and not a match.
      for (let k = 0; k < todoLength; k++) {
        const w = todo[k];
        const lacking = within[w] & ~narrowed[w];
        checked[w] |= lacking;
        bits[w] &= ~lacking;
      }
    }
    // The trigram filter is a superset (hash collisions, order of trigrams): confirm the substring.
    for (let k = 0; k < todoLength; k++) {
      const w = todo[k];
      let word = bits[w] & ~checked[w];
      checked[w] |= word;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        this.textsChecked++;
        if (this.text.matches((w << 5) | (31 - Math.clz32(low)), needle)) {
          found[w] |= low;
          matched++;
        } else bits[w] &= ~low;
      }
    }
    return matched;
  }

  /** First position strictly after the cursor's review in newest-first order (whether or not it is still here). */
  private positionAfter(key: SearchCursor): number {
    let lo = 0;
    let hi = this.reviews.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst(this.reviews[mid], key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position at or after the cursor's review in newest-first order. */
  private positionAt(key: SearchCursor): number {
    let lo = 0;
    let hi = this.reviews.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst(this.reviews[mid], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Reviews in a language: the tag itself and its regional tags (`en` → `en`, `en-us`, …). */
  private language(tag: string): Bits {
    let out = this.byLanguageTag.get(tag);
    if (out) return out;
    const keys = [...this.byLanguage.keys()].filter((key) => key === tag || key.startsWith(`${tag}-`));
    if (keys.length === 0) return this.none;
    // Kept: only a tag some review's tag starts with gets here, so there are a handful at most.
    out = new Uint32Array(this.words);
    for (const key of keys) {
      const bits = this.byLanguage.get(key)!;
      for (let w = 0; w < this.words; w++) out[w] |= bits[w];
    }
    this.byLanguageTag.set(tag, out);
    return out;
  }

  private entity(map: Map<string, Bits>, matcher: MentionMatcher, value: string): Bits {
    const id = matcher.resolve(value);
    return (id && map.get(id)) || this.none;
  }
}

/** A page of a search as positions in the index's order. */
export interface SearchPositions {
  matched: number;
  positions: number[];
  next_cursor: string | null;
}

/** What a substring check of a review's text costs in posting steps (a varint read and a bit test), roughly. */
const POSTINGS_PER_CHECK = 16;

/** The needle memo's budget: at 100k reviews, two 12.5 KB bitsets a needle, about 670 needles. */
const NEEDLE_MEMO_BYTES = 16 << 20;

function popcount(bits: Bits, first: number, last: number): number {
  let n = 0;
  for (let w = first; w <= last; w++) n += popcount32(bits[w]);
  return n;
}

/** Bits set in each 16-bit value: two lookups count a word (faster here than the shift-and-add count). */
const POPCOUNT16 = new Uint8Array(1 << 16);
for (let i = 1; i < POPCOUNT16.length; i++) POPCOUNT16[i] = (i & 1) + POPCOUNT16[i >>> 1];

function popcount32(word: number): number {
  return POPCOUNT16[word & 0xffff] + POPCOUNT16[word >>> 16];
}

/**
 * Positions set in `bits` (and in `mask`, if given) within [from, to), appended to `out` in order
 * (descending when `backwards`) until it holds `want`.
 */
function collect(bits: Bits, from: number, to: number, mask: Bits | null, out: number[], want: number, backwards = false): void {
  if (from >= to || out.length >= want) return;
  const first = from >>> 5;
  const last = (to - 1) >>> 5;
  const range = (w: number) => {
    let word = mask ? bits[w] & mask[w] : bits[w];
    if (w === first) word &= ~0 << (from & 31);
    if (w === last && (to & 31) !== 0) word &= (1 << (to & 31)) - 1;
    return word;
  };
  if (!backwards) {
    for (let w = first; w <= last; w++) {
      let word = range(w);
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        out.push((w << 5) | (31 - Math.clz32(low)));
        if (out.length >= want) return;
      }
    }
    return;
  }
  for (let w = last; w >= first; w--) {
    let word = range(w);
    while (word !== 0) {
      const bit = 31 - Math.clz32(word);
      word &= ~(1 << bit);
      out.push((w << 5) | bit);
      if (out.length >= want) return;
    }
  }
}

/** A new bitset with `old`'s bits moved by the runs ([to, from, length] triples); other bits clear. */
function copyRuns(old: Bits, runs: readonly number[], words: number): Bits {
  const out = new Uint32Array(words);
  for (let k = 0; k < runs.length; k += 3) copyBits(old, runs[k + 1], out, runs[k], runs[k + 2]);
  return out;
}

/** Bits [from, from + length) of `src` ORed into `dst` at `to`: bit by bit up to a word of `dst`, then a word at a time. */
function copyBits(src: Bits, from: number, dst: Bits, to: number, length: number): void {
  let k = 0;
  const bit = (p: number) => (src[p >>> 5] >>> (p & 31)) & 1;
  for (; k < length && ((to + k) & 31) !== 0; k++) if (bit(from + k)) set(dst, to + k);
  const shift = (from + k) & 31;
  for (; k + 32 <= length; k += 32) {
    const w = (from + k) >>> 5;
    // A shift of 32 is a shift of 0 in JavaScript: the aligned case takes the word as it is.
    dst[(to + k) >>> 5] = shift === 0 ? src[w] : (src[w] >>> shift) | (src[w + 1] << (32 - shift));
  }
  for (; k < length; k++) if (bit(from + k)) set(dst, to + k);
}

function not(bits: Bits): Bits {
  const out = new Uint32Array(bits.length);
  for (let w = 0; w < bits.length; w++) out[w] = ~bits[w];
  return out;
}

function set(bits: Bits, i: number): void {
  bits[i >>> 5] |= 1 << (i & 31);
}

function getOrCreate(map: Map<string, Bits>, key: string, words: number): Bits {
  let bits = map.get(key);
  if (!bits) map.set(key, (bits = new Uint32Array(words)));
  return bits;
}

/** Words first..last of `bits` set to the AND of the filters' words (all set when there are none). */
function intersect(bits: Bits, filters: readonly Bits[], first: number, last: number): void {
  if (filters.length === 0) {
    bits.fill(0xffffffff, first, last + 1);
    return;
  }
  if (filters.length === 1) {
    bits.set(filters[0].subarray(first, last + 1), first);
    return;
  }
  const [a, b] = filters;
  for (let w = first; w <= last; w++) bits[w] = a[w] & b[w];
  for (let k = 2; k < filters.length; k++) {
    const f = filters[k];
    for (let w = first; w <= last; w++) bits[w] &= f[w];
  }
}

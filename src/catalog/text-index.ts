import { foldText, varintBytes } from '../domain/index.js';
import { drainSteps, everyPosition, runAtOnce, type Steps, TOUCH_STEP, zeroedSteps } from '../threads/index.js';
import { joined, PartsReader, utf8Pieces } from './byte-parts.js';

const BUCKET_BITS = 20;
const BUCKETS = 1 << BUCKET_BITS;
const MASK = BUCKETS - 1;

/** Items between two points where a slice may end: about a millisecond of work. */
const STEP = 512;
/** Buckets between two such points in passes over every bucket (256 KB of a 4 MB array). */
const BUCKET_STEP = 1 << 16;

/** A segment of at most this many documents is built from its sorted postings (Segment.ofFew). */
const FEW_DOCS = 64;

/** Documents added since the base was built, past which the next index rebuilds the base (amortized: at 100k reviews a rebuild is ~0.5 s, an update ~20 ms). */
const MIN_DELTA = 2_000;
const DELTA_SHARE = 0.05;

const trigramBucket = (a: number, b: number, c: number) =>
  (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) & MASK;

/** What the index searches of a document. */
export const foldDoc = (doc: TextDoc): string => (doc.text ? foldText(doc.text) : '');

/** A searchable document: the same object in the next revision means the same text. */
export interface TextDoc {
  readonly text: string | null;
}

/** Tests' settings: the delta size past which the base is rebuilt, and the size up to which a segment is built from sorted postings. */
export interface IndexOptions {
  minDelta?: number;
  fewDocs?: number;
}

/**
 * The trigram postings of documents numbered by position, made apart from their index: a full build's
 * corpus thread makes them while the event loop renders, and the index is made of them and its own texts.
 */
export interface BaseSegment {
  offsets: Int32Array;
  postings: Uint8Array;
}

/** The previous revision's index, and where each document was in it (-1: new since; see CarriedRuns). */
export interface PreviousText {
  index: TextIndex;
  from: Int32Array;
}

/** Writes `n` as a varint at `at`; returns where the next one goes. */
function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
}

/**
 * One of Segment.build's two passes over documents [from, to): each document's distinct buckets, with the
 * gap from the bucket's previous document (the first counted from -1). Without `postings` it adds each
 * gap's varint size to `at[bucket + 1]` (the sizes); with it, it writes the varint at `at[bucket]` (where
 * the bucket's bytes go next) and moves that on. `lastDoc` marks the last document that had each bucket:
 * doc + 1 in the first pass (counting), -(doc + 1) in the second (writing), so the first pass's marks need no
 * refill before the second (a first-pass mark met in the second pass says the bucket has had no
 * document of this pass yet). It reads nothing of build's scope and each character once: a closure over
 * build's arrays, calling back per bucket, took 1.5 times as long (725 against 482 ms at 100k reviews).
 */
function* postingsPass(
  folded: readonly string[],
  from: number,
  to: number,
  lastDoc: Int32Array,
  at: Int32Array,
  postings: Uint8Array | null,
): Steps<void> {
  const sign = postings === null ? 1 : -1;
  for (let doc = from; doc < to; doc++) {
    const s = folded[doc];
    const mark = sign * (doc + 1);
    let a = s.charCodeAt(0);
    let b = s.charCodeAt(1);
    for (let i = 2; i < s.length; i++) {
      const c = s.charCodeAt(i);
      const bucket = trigramBucket(a, b, c);
      a = b;
      b = c;
      const last = sign * lastDoc[bucket];
      if (last !== doc + 1) {
        lastDoc[bucket] = mark;
        const gap = doc - (last > 0 ? last - 1 : -1);
        if (postings === null) at[bucket + 1] += varintBytes(gap);
        else at[bucket] = writeVarint(postings, at[bucket], gap);
      }
    }
    if (doc % STEP === 0) yield;
  }
}

/**
 * Hashed trigram postings of documents [from, to) in one compact array (CSR layout): each bucket's
 * documents ascending, as the gaps between them (the first counted from -1) in varints, a byte for most
 * (12.1 MB at 100k reviews where 32-bit numbers took 48.2 MB). Hash collisions add candidates, never lose
 * matches, because every candidate is confirmed with a real substring check.
 */
class Segment {
  constructor(
    /** Where each bucket's bytes start in `postings`; the last entry is their length. */
    readonly offsets: Int32Array,
    readonly postings: Uint8Array,
  ) {}

  static *build(folded: readonly string[], from: number, to: number, fewDocs = FEW_DOCS): Steps<Segment> {
    if (to - from <= fewDocs) return Segment.ofFew(folded, from, to);
    const ints = (n: number) => new Int32Array(n);
    const sizes = yield* zeroedSteps(ints, BUCKETS + 1);
    const lastDoc = yield* zeroedSteps(ints, BUCKETS);
    yield* postingsPass(folded, from, to, lastDoc, sizes, null);
    // Bucket-wide passes touch 4 MB each: in steps, since fresh memory can be slow to touch (threads/join.ts).
    for (let i = 1; i <= BUCKETS; i++) {
      sizes[i] += sizes[i - 1];
      if (i % BUCKET_STEP === 0) yield;
    }
    const fill = new Int32Array(BUCKETS);
    for (let i = 0; i < BUCKETS; i += BUCKET_STEP) {
      fill.set(sizes.subarray(i, i + BUCKET_STEP), i);
      yield;
    }
    const postings = yield* zeroedSteps((n) => new Uint8Array(n), sizes[BUCKETS]);
    yield* postingsPass(folded, from, to, lastDoc, fill, postings);
    return new Segment(sizes, postings);
  }

  /**
   * The same arrays as `build`, for a few documents (an update's delta): their (bucket, document) pairs
   * sorted, then the offsets written at the buckets they have and filled between, instead of four passes
   * over 4 MB arrays.
   */
  private static ofFew(folded: readonly string[], from: number, to: number): Segment {
    const pairs: number[] = [];
    const seen = new Set<number>();
    for (let doc = from; doc < to; doc++) {
      const s = folded[doc];
      seen.clear();
      for (let i = 0; i + 2 < s.length; i++) {
        const b = trigramBucket(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2));
        if (!seen.has(b)) {
          seen.add(b);
          pairs.push(b, doc);
        }
      }
    }
    const order = Array.from({ length: pairs.length / 2 }, (_, k) => 2 * k);
    // By bucket, then document: within a bucket, documents ascend as `build` writes them.
    order.sort((x, y) => pairs[x] - pairs[y] || pairs[x + 1] - pairs[y + 1]);
    const offsets = new Int32Array(BUCKETS + 1);
    // Room for the longest varints; the few documents' bytes are copied out at their length.
    const bytes = new Uint8Array(5 * order.length);
    let at = 0;
    // Only the buckets the documents have are visited; the empty ones between start where the next
    // one does (a fill, not a loop over a million buckets: this runs once a revision, never warm).
    let next = 0;
    for (let k = 0; k < order.length; ) {
      const b = pairs[order[k]];
      offsets.fill(at, next, b + 1);
      for (let prev = -1; k < order.length && pairs[order[k]] === b; k++) {
        const doc = pairs[order[k] + 1];
        at = writeVarint(bytes, at, doc - prev);
        prev = doc;
      }
      next = b + 1;
    }
    offsets.fill(at, next);
    return new Segment(offsets, bytes.slice(0, at));
  }

  /**
   * The bucket of the needle's rarest trigram (the needle is folded, at least 3 characters): every
   * document that contains the needle is in its postings. Walking only this list and testing each entry
   * against the other filters costs one step per entry; merging it with a second list costs both lists'
   * lengths. Rarest by bytes, which is within a little of by documents (most gaps take one byte).
   */
  rarest(needle: string): number {
    let best = 0;
    for (let i = 0; i + 2 < needle.length; i++) {
      const b = trigramBucket(needle.charCodeAt(i), needle.charCodeAt(i + 1), needle.charCodeAt(i + 2));
      if (i === 0 || this.bytesOf(b) < this.bytesOf(best)) best = b;
    }
    return best;
  }

  /** The bytes of a bucket's postings: about one a document. */
  bytesOf(bucket: number): number {
    return this.offsets[bucket + 1] - this.offsets[bucket];
  }
}

/**
 * Substring search over one revision's texts, addressed by position (the caller's order). Documents
 * get stable numbers across revisions: a new revision reuses the previous one's folded texts and its
 * large base segment for every document it still has (the same object), and indexes only the new ones
 * in a small delta segment; once the delta passes 5 % of the base the base is rebuilt, without refolding.
 */
export class TextIndex {
  private constructor(
    /** Folded text by document number; append-only while revisions share a base. */
    private readonly folded: string[],
    private readonly base: Segment,
    private readonly baseEnd: number,
    private readonly delta: Segment | null,
    private readonly docOf: Int32Array,
    /** Position of each document in this revision, or -1 when it is not in it (changed or removed). */
    private readonly positionOf: Int32Array,
  ) {}

  static create(docs: readonly TextDoc[], carried?: PreviousText, opts: IndexOptions = {}): TextIndex {
    return runAtOnce(TextIndex.build(docs, carried, opts));
  }

  static *build(docs: readonly TextDoc[], carried?: PreviousText, opts: IndexOptions = {}): Steps<TextIndex> {
    if (!carried) {
      const folded: string[] = new Array(docs.length);
      for (let i = 0; i < docs.length; i++) {
        folded[i] = foldDoc(docs[i]);
        if (i % STEP === 0) yield;
      }
      return yield* TextIndex.fromFolded(folded, opts);
    }
    const previous = carried.index;
    let folded = previous.folded;
    if (carried.from.length !== docs.length) throw new Error('TextIndex: the carried positions are of another number of documents');
    const docOf = new Int32Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const j = carried.from[i];
      docOf[i] = j >= 0 ? previous.docOf[j] : folded.push(foldDoc(docs[i])) - 1;
      if (i % STEP === 0) yield;
    }
    let baseEnd = previous.baseEnd;
    let base: Segment;
    let delta: Segment | null;
    if (folded.length - baseEnd > Math.max(opts.minDelta ?? MIN_DELTA, baseEnd * DELTA_SHARE)) {
      // (Re)build the base over exactly this revision's documents, numbered by position.
      const compact: string[] = new Array(docs.length);
      for (let i = 0; i < docs.length; i++) compact[i] = folded[docOf[i]];
      folded = compact;
      for (let i = 0; i < docs.length; i++) docOf[i] = i;
      baseEnd = docs.length;
      base = yield* Segment.build(folded, 0, baseEnd, opts.fewDocs);
      delta = null;
    } else {
      base = previous.base;
      delta = folded.length > baseEnd ? yield* Segment.build(folded, baseEnd, folded.length, opts.fewDocs) : null;
    }
    const positionOf = new Int32Array(folded.length).fill(-1);
    for (let i = 0; i < docs.length; i++) positionOf[docOf[i]] = i;
    return new TextIndex(folded, base, baseEnd, delta, docOf, positionOf);
  }

  /**
   * An index of documents whose texts are already folded (foldDoc), numbered by position: a full
   * build folds each text as it lets go of the review it came from.
   */
  static *fromFolded(folded: string[], opts: IndexOptions = {}): Steps<TextIndex> {
    return yield* TextIndex.withBase(folded, yield* TextIndex.baseSegment(folded, opts));
  }

  /** The postings of `fromFolded`'s index of these texts, without the index (see BaseSegment). */
  static *baseSegment(folded: readonly string[], opts: IndexOptions = {}): Steps<BaseSegment> {
    const { offsets, postings } = yield* Segment.build(folded, 0, folded.length, opts.fewDocs);
    return { offsets, postings };
  }

  /** `fromFolded`'s index, of its texts and their postings made apart (baseSegment of the same texts). */
  static *withBase(folded: string[], base: BaseSegment): Steps<TextIndex> {
    if (base.offsets.length !== BUCKETS + 1 || base.offsets[BUCKETS] !== base.postings.length)
      throw new Error('TextIndex: the base segment is not one of this index');
    const docOf = yield* everyPosition(folded.length);
    return new TextIndex(folded, new Segment(base.offsets, base.postings), folded.length, null, docOf, docOf.slice());
  }

  /**
   * About how many documents may contain `needle` (already folded) by the index: the bytes of the
   * postings `narrow` would walk, about one a document. Null when the needle is too short to use the
   * index (the caller then checks every document).
   */
  candidateCount(needle: string): number | null {
    if (needle.length < 3) return null;
    return this.base.bytesOf(this.base.rarest(needle)) + (this.delta ? this.delta.bytesOf(this.delta.rarest(needle)) : 0);
  }

  /**
   * Sets in `out` (a bitset by position, cleared by the caller) each position set in `within` whose
   * text may contain `needle`: a superset of the matches, to confirm with `matches`.
   */
  narrow(needle: string, within: Uint32Array, out: Uint32Array): void {
    // Too short for a trigram: every position stays a candidate (the caller checks each).
    if (needle.length < 3) {
      out.set(within);
      return;
    }
    for (const segment of this.delta ? [this.base, this.delta] : [this.base]) {
      const bucket = segment.rarest(needle);
      const p = segment.postings;
      const end = segment.offsets[bucket + 1];
      let doc = -1;
      // The varints decoded in line: this loop is the search's hottest.
      for (let at = segment.offsets[bucket]; at < end; ) {
        let byte = p[at++];
        let gap = byte & 0x7f;
        for (let shift = 7; byte & 0x80; shift += 7) {
          byte = p[at++];
          gap |= (byte & 0x7f) << shift;
        }
        doc += gap;
        const q = this.positionOf[doc];
        if (q >= 0 && (within[q >>> 5] & (1 << (q & 31))) !== 0) out[q >>> 5] |= 1 << (q & 31);
      }
    }
  }

  /** How many positions (this revision's documents) the index covers. */
  get positions(): number {
    return this.docOf.length;
  }

  matches(position: number, needle: string): boolean {
    return this.folded[this.docOf[position]].includes(needle);
  }

  /**
   * This index as bytes, exactly (stale documents and the delta included), so a process loading a
   * stored revision restores it instead of folding 100k texts and hashing their trigrams again: one
   * Int32 array (counts, each folded text's end, docOf, the segments' offsets and postings, each
   * segment's postings padded with zeros to whole words), then the folded texts as one UTF-8 string,
   * made in pieces of about TOUCH_STEP bytes, a step each.
   */
  *encodeSteps(): Steps<Buffer[]> {
    const ends = new Int32Array(this.folded.length);
    let chars = 0;
    for (let d = 0; d < this.folded.length; d++) {
      ends[d] = chars += this.folded[d].length;
      if (d % 8192 === 0) yield;
    }
    const segments = this.delta ? [this.base, this.delta] : [this.base];
    const header = Int32Array.of(
      this.folded.length,
      this.baseEnd,
      this.docOf.length,
      segments.length,
      ...segments.map((s) => s.postings.length),
    );
    const bytes = (a: Int32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const padding = (a: Uint8Array) => new Uint8Array(wordsOf(a.length) * 4 - a.length);
    const parts = [header, ends, this.docOf, ...segments.flatMap((s) => [s.offsets, s.postings, padding(s.postings)])].map(bytes);
    // Whole documents per piece: the pieces' bytes, concatenated, are the UTF-8 of the joined texts.
    for (let d = 0; d < this.folded.length; ) {
      const from = d;
      let size = 0;
      while (d < this.folded.length && size < TOUCH_STEP) size += this.folded[d++].length;
      parts.push(Buffer.from(this.folded.slice(from, d).join('')));
      yield;
    }
    return parts;
  }

  /** `decodeSteps` at once (tests, tools). */
  static decode(bytes: Buffer): TextIndex {
    return runAtOnce(TextIndex.decodeSteps([bytes]));
  }

  /**
   * An index from `encodeSteps`' bytes, in the parts they were read back in, handed over: `parts` is
   * emptied as it is read. The arrays it keeps (docOf, the segments' offsets and postings) are copied out
   * into memory of their own, TOUCH_STEP bytes a step: views of the parts would keep all of the value they
   * lie in alive (a loaded snapshot's packed layout, of which the index keeps about two thirds). Each
   * part can go once copied, rather than all of them at the end. Its texts are slices of the parts'
   * decoded strings.
   */
  static *decodeSteps(parts: Buffer[]): Steps<TextIndex> {
    const reader = PartsReader.draining(parts);
    const what = 'TextIndex.decode: the stored index';
    const take = (n: number) => reader.take(n * 4, what);
    /** A few words read out at once (the counts, and the texts' ends, used only here). */
    const read = (n: number) => new Int32Array(new Uint8Array(joined(take(n))).buffer);
    const [documents, baseEnd, positions, segmentCount] = read(4);
    const lengths = read(segmentCount);
    const ends = read(documents);
    const kept = [take(positions)];
    for (let k = 0; k < segmentCount; k++) kept.push(take(BUCKETS + 1), take(wordsOf(lengths[k])));
    const own = yield* drainSteps(kept.splice(0).flat());
    let word = 0;
    const ints = (n: number) => {
      const a = new Int32Array(own.buffer, own.byteOffset + word * 4, n);
      word += n;
      return a;
    };
    const docOf = ints(positions);
    const segments: Segment[] = [];
    const postingBytes = (n: number) => {
      const a = new Uint8Array(own.buffer, own.byteOffset + word * 4, n);
      word += wordsOf(n);
      return a;
    };
    for (let k = 0; k < segmentCount; k++) segments.push(new Segment(ints(BUCKETS + 1), postingBytes(lengths[k])));
    const folded = foldedTexts(utf8Pieces(reader.take(reader.remaining, what)), ends);
    const positionOf = new Int32Array(documents).fill(-1);
    for (let i = 0; i < positions; i++) positionOf[docOf[i]] = i;
    return new TextIndex(folded, segments[0], baseEnd, segments[1] ?? null, docOf, positionOf);
  }
}

/** Whole 4-byte words that hold `bytes` bytes. */
const wordsOf = (bytes: number) => Math.ceil(bytes / 4);

/**
 * The texts that end at `ends` (in characters) in the concatenation of `pieces`: slices of a piece, and
 * a text split between pieces joined, so no piece is copied into one long string first.
 */
function foldedTexts(pieces: readonly string[], ends: Int32Array): string[] {
  const total = pieces.reduce((n, p) => n + p.length, 0);
  if (total !== (ends.length === 0 ? 0 : ends[ends.length - 1]))
    throw new Error('TextIndex.decode: the stored texts do not fit their ends');
  const out: string[] = new Array(ends.length);
  let k = 0;
  let pieceStart = 0;
  for (let d = 0, start = 0; d < ends.length; start = ends[d++]) {
    while (k < pieces.length && start >= pieceStart + pieces[k].length) pieceStart += pieces[k++].length;
    const end = ends[d];
    if (end < start || end > total) throw new Error('TextIndex.decode: the stored texts do not fit their ends');
    if (k === pieces.length || end <= pieceStart + pieces[k].length) {
      out[d] = k === pieces.length ? '' : pieces[k].slice(start - pieceStart, end - pieceStart);
      continue;
    }
    let text = '';
    for (let j = k, jStart = pieceStart; jStart < end; jStart += pieces[j++].length)
      text += pieces[j].slice(Math.max(0, start - jStart), end - jStart);
    out[d] = text;
  }
  return out;
}

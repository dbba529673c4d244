import { foldText } from '../domain/index.js';

const BUCKET_BITS = 20;
const BUCKETS = 1 << BUCKET_BITS;
const MASK = BUCKETS - 1;

const trigramBucket = (a: number, b: number, c: number) => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) & MASK;

/**
 * Substring search over many texts: hashed trigram postings in one compact array (CSR layout), so a
 * query only verifies documents that contain all its trigrams. Hash collisions add candidates, never
 * lose matches, because every candidate is confirmed with a real substring check.
 */
export class TextIndex {
  private readonly folded: string[];
  private readonly offsets: Int32Array;
  private readonly postings: Int32Array;

  constructor(texts: readonly (string | null)[]) {
    this.folded = texts.map((t) => (t ? foldText(t) : ''));
    const counts = new Int32Array(BUCKETS + 1);
    const lastDoc = new Int32Array(BUCKETS).fill(-1);
    this.forEachBucket((doc, bucket) => {
      if (lastDoc[bucket] !== doc) {
        lastDoc[bucket] = doc;
        counts[bucket + 1]++;
      }
    });
    for (let i = 1; i <= BUCKETS; i++) counts[i] += counts[i - 1];
    this.offsets = counts;
    const fill = counts.slice(0, BUCKETS);
    this.postings = new Int32Array(counts[BUCKETS]);
    lastDoc.fill(-1);
    this.forEachBucket((doc, bucket) => {
      if (lastDoc[bucket] !== doc) {
        lastDoc[bucket] = doc;
        this.postings[fill[bucket]++] = doc;
      }
    });
  }

  private forEachBucket(fn: (doc: number, bucket: number) => void): void {
    const docs = this.folded;
    for (let doc = 0; doc < docs.length; doc++) {
      const s = docs[doc];
      for (let i = 0; i + 2 < s.length; i++) fn(doc, trigramBucket(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2)));
    }
  }

  /** The text of document `doc` as it is searched (folded). */
  foldedText(doc: number): string {
    return this.folded[doc];
  }

  /**
   * Candidate documents (ascending) that may contain `needle` (already folded), or null when the
   * needle is too short to use the index (the caller then checks every document).
   */
  candidates(needle: string): Int32Array | null {
    if (needle.length < 3) return null;
    // Only the two rarest trigrams: intersecting every (long, common) list costs more than the substring
    // checks it would save, and the caller confirms every candidate anyway.
    const lists: Int32Array[] = [];
    for (let i = 0; i + 2 < needle.length; i++) {
      const b = trigramBucket(needle.charCodeAt(i), needle.charCodeAt(i + 1), needle.charCodeAt(i + 2));
      lists.push(this.postings.subarray(this.offsets[b], this.offsets[b + 1]));
    }
    lists.sort((a, b) => a.length - b.length);
    return lists.length > 1 ? intersect(lists[0], lists[1]) : lists[0];
  }

  matches(doc: number, needle: string): boolean {
    return this.folded[doc].includes(needle);
  }
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out[k++] = a[i];
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out.subarray(0, k);
}

// The kept rows as bytes: what a corpus thread that starts again takes its rows back from, instead of
// parsing every review and analysis of a revision's bodies (at 100k reviews a few hundred milliseconds
// against about a second; at 1M seconds against about fifteen). Every string that many rows share (dates,
// ids of aspects, technicians, services and areas, phrases, problems) is written once, in a table.
import { type ReviewAspect, varintBytes } from '../../domain/index.js';
import type { CorpusReview, InsightAnalysis } from './rows.js';

/** Bump when the layout below changes: an image of another version is not read (the bodies are). 3: the builders' state after the rows. */
const IMAGE_VERSION = 3;

/** A row as the image holds it: what a kept row is made of (held-row.ts). */
export interface ImagedRow {
  review: CorpusReview;
  analysis: InsightAnalysis;
  /**
   * The row's index in the last image of its corpus written or read: set as the row is, so the builders'
   * lists are written by their rows' places without a map of every row (at 1M reviews such a map's
   * lookups took 3.0 s of an image's 7.2).
   */
  place: number;
}

export class RowImageError extends Error {
  override readonly name = 'RowImageError';
}

/**
 * What the insight builders write of their state after the rows (state.ts), so a corpus that starts again
 * takes it back instead of passing over every row: numbers, strings (numbered in the image's table) and
 * lists of the image's rows by their place.
 */
export interface StateOut {
  uint(n: number): void;
  /** Any number, to the bit (sums). */
  float(x: number): void;
  string(s: string): void;
  /** Strings and their counts, in the map's order. */
  counts(map: ReadonlyMap<string, number>): void;
  /** Rows of the image, in its order (a row may repeat, none comes before the one before it). */
  rows(list: { readonly size: number; each(visit: (row: ImagedRow) => void): void }): void;
}

/** What StateOut wrote, read back in the same order; a list's rows are the rows made of the image. */
export interface StateIn<R> {
  uint(): number;
  float(): number;
  string(): string;
  counts(into: Map<string, number>): void;
  rows(): R[];
}

class Writer {
  private buf: Buffer;
  private at = 0;

  /** `expected`: about the bytes to be written, so the buffer is rarely grown (each growth is a copy). */
  constructor(expected: number) {
    this.buf = Buffer.allocUnsafe(Math.max(expected, 1 << 16));
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(Math.ceil(this.buf.length * 1.5), this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  get length(): number {
    return this.at;
  }

  /** A 4-byte slot to fill in later (setUint32). */
  slot(): number {
    this.room(4);
    this.at += 4;
    return this.at - 4;
  }

  setUint32(at: number, n: number): void {
    this.buf.writeUInt32LE(n, at);
  }

  bytes(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }

  /**
   * The text index's writeVarint (catalog/text-index.ts) is this loop too, and string() pads one inline.
   * Writers in domain/varint.ts that both called were tried: encoding a 100k image's rows took a median of
   * 359.5 ms of CPU against 295.1, higher in 10 of 11 alternated rounds (with this loop kept, 327.5 against 308.8).
   */
  uint(n: number): void {
    this.room(5);
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.at++] = n;
  }

  /** Scores and ratings as they are (a kept sum must agree with a fresh pass to the bit). */
  float(x: number): void {
    this.room(8);
    this.buf.writeDoubleLE(x, this.at);
    this.at += 8;
  }

  string(s: string): void {
    const max = s.length * 3;
    // The length goes before the bytes and is known once they are written: it gets the bytes the longest
    // the string could be would need, padded with empty groups (Reader.uint reads the same number), so the
    // bytes are not moved after it. In a profile at 1M reviews moving them was 1.17 s of encodeRows's 3.29 s.
    const width = varintBytes(max);
    this.room(width + max);
    let n = this.buf.write(s, this.at + width, 'utf8');
    const end = this.at + width + n;
    for (let i = 1; i < width; i++) {
      this.buf[this.at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.at] = n;
    this.at = end;
  }

  /** The bytes written, in memory of their own and their exact size (copied once unless the guess was exact). */
  done(): Buffer {
    if (this.at === this.buf.length) return this.buf;
    const out = Buffer.allocUnsafeSlow(this.at);
    this.buf.copy(out, 0, 0, this.at);
    return out;
  }
}

class Reader {
  constructor(
    private readonly buf: Buffer,
    public at: number,
  ) {}

  /** Where the next `n` bytes start, moving past them. */
  private take(n: number): number {
    if (this.at + n > this.buf.length) throw new RowImageError('the rows image ends early');
    this.at += n;
    return this.at - n;
  }

  uint32(): number {
    return this.buf.readUInt32LE(this.take(4));
  }

  /** Bytes after the next one to read. */
  get left(): number {
    return this.buf.length - this.at;
  }

  uint(): number {
    // Most are one byte (table numbers, counts, sentence offsets): read without a loop.
    const first = this.buf[this.at];
    if (first < 0x80) {
      this.at++;
      return first;
    }
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.buf[this.take(1)];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  }

  float(): number {
    return this.buf.readDoubleLE(this.take(8));
  }

  string(): string {
    const n = this.uint();
    const at = this.take(n);
    return this.buf.toString('utf8', at, at + n);
  }
}

/** Numbers strings in the order first met. */
class Table {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  of(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.index.set(s, i);
      this.strings.push(s);
    }
    return i;
  }
}

/**
 * `preamble`, then the rows as bytes: a version, the row count, where the shared strings start, each row,
 * the length of the state `state` writes (0 without one) and the state, then the shared strings (met while
 * the rows and the state are written, so they and the table are one pass into one buffer: at 1M demo
 * reviews the image is about 198 MB, 10.7 of it the state, and each copy of it is that much more at once).
 */
export function encodeRows(rows: readonly ImagedRow[], preamble: Buffer = Buffer.alloc(0), state?: (out: StateOut) => void): Buffer {
  const table = new Table();
  // About 60 bytes a row besides its text (which is most of it), and 12 more with the builders' state (10.7 at
  // 1M demo reviews, most of it their lists' places), so the buffer is seldom grown.
  const perRow = state ? 72 : 60;
  let guess = preamble.length + 64;
  for (const { review } of rows) guess += perRow + (review.text === null ? 0 : review.text.length);
  const body = new Writer(guess + (guess >> 4));
  body.bytes(preamble);
  body.uint(IMAGE_VERSION);
  body.uint(rows.length);
  const tableAt = body.slot();
  const start = body.length;
  const list = (xs: readonly string[]) => {
    body.uint(xs.length);
    for (const x of xs) body.uint(table.of(x));
  };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    row.place = i;
    const { review: r, analysis: a } = row;
    body.string(r.id);
    body.float(r.rating);
    body.uint(table.of(r.date));
    // 0 for no text, 1 before a text.
    if (r.text === null) body.uint(0);
    else {
      body.uint(1);
      body.string(r.text);
    }
    list(r.technicians);
    list(r.services);
    body.uint(r.service_area === null ? 0 : table.of(r.service_area) + 1);
    body.float(a.sentiment);
    const aspects = a.aspects;
    body.uint(aspects.length);
    for (const x of aspects) {
      body.uint(table.of(x.id));
      body.uint(table.of(x.polarity));
      body.float(x.score);
      body.uint(table.of(x.phrase));
      body.uint(x.sentence);
    }
    list(a.problems);
    list(a.phrases);
    // Sparse: only the sentences the aspects quote are kept (read once: a kept row makes the list when asked).
    const sentences = a.sentences;
    body.uint(sentences.length);
    let kept = 0;
    for (const s of sentences) if (s) kept++;
    body.uint(kept);
    sentences.forEach((s, i) => {
      if (!s) return;
      body.uint(i);
      body.uint(s.start);
      body.uint(s.end);
    });
  }
  const stateLength = body.slot();
  if (state) {
    const from = body.length;
    state(stateOut(body, table, rows));
    body.setUint32(stateLength, body.length - from);
  } else body.setUint32(stateLength, 0);
  body.setUint32(tableAt, body.length - start);
  body.uint(table.strings.length);
  for (const s of table.strings) body.string(s);
  return body.done();
}

/** StateOut into the image being written: a list's rows by their place among its rows. */
function stateOut(body: Writer, table: Table, rows: readonly ImagedRow[]): StateOut {
  return {
    uint: (n) => body.uint(n),
    float: (x) => body.float(x),
    string: (s) => body.uint(table.of(s)),
    counts(map) {
      body.uint(map.size);
      for (const [s, n] of map) {
        body.uint(table.of(s));
        body.uint(n);
      }
    },
    rows(list) {
      body.uint(list.size);
      // Each place as its distance from the one before: most are a byte.
      let last = 0;
      list.each((row) => {
        const i = row.place;
        // A defect of the builders, not a damaged image: their lists hold the image's rows in its order.
        if (rows[i] !== row || i < last) throw new Error('encodeRows: a state lists a row out of the image’s order');
        body.uint(i - last);
        last = i;
      });
    },
  };
}

/** StateIn from the image being read: a list's places taken to `rows`. */
function stateIn<R>(rd: Reader, str: (i: number) => string, rows: readonly R[]): StateIn<R> {
  return {
    uint: () => rd.uint(),
    float: () => rd.float(),
    string: () => str(rd.uint()),
    counts(into) {
      for (let k = rd.uint(); k > 0; k--) into.set(str(rd.uint()), rd.uint());
    },
    rows() {
      const n = rd.uint();
      // Each place takes a byte at least.
      if (n > rd.left) throw new RowImageError('a state lists more rows than it has bytes');
      const out: R[] = new Array(n);
      let at = 0;
      for (let k = 0; k < out.length; k++) {
        at += rd.uint();
        if (at >= rows.length) throw new RowImageError('a state lists a row the image does not hold');
        out[k] = rows[at];
      }
      return out;
    },
  };
}

/**
 * The rows of encodeRows, each made by `make` (so no second list of rows is alive beside the first),
 * each string of the table passed through `intern` (so the rows share them with rows made later); every
 * empty list is `none`. `state`, when the image has one, reads all of it and says true, or says false
 * for a state it does not take. RowImageError when the bytes are not such an image.
 */
export function decodeRows<R extends { place: number }>(
  bytes: Buffer,
  intern: (s: string) => string,
  none: never[],
  make: (review: CorpusReview, analysis: InsightAnalysis) => R,
  state?: (input: StateIn<R>) => boolean,
): R[] {
  const rd = new Reader(bytes, 0);
  const version = rd.uint();
  if (version !== IMAGE_VERSION) throw new RowImageError(`the rows image is of version ${version}, not ${IMAGE_VERSION}`);
  const n = rd.uint();
  const rowsEnd = rd.uint32() + rd.at;
  if (rowsEnd > bytes.length) throw new RowImageError('the rows image ends early');
  // The shared strings first (they follow the rows).
  const tr = new Reader(bytes, rowsEnd);
  const strings: string[] = new Array(tr.uint());
  for (let i = 0; i < strings.length; i++) strings[i] = intern(tr.string());
  if (tr.at !== bytes.length) throw new RowImageError('the rows image has bytes after its last string');
  const str = (i: number) => {
    if (i >= strings.length) throw new RowImageError('the rows image names a string it does not hold');
    return strings[i];
  };
  const list = (): string[] => {
    const k = rd.uint();
    if (k === 0) return none;
    const xs: string[] = new Array(k);
    for (let i = 0; i < k; i++) xs[i] = str(rd.uint());
    return xs;
  };
  const rows: R[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = rd.string();
    const rating = rd.float();
    const date = str(rd.uint());
    const text = rd.uint() === 0 ? null : rd.string();
    const technicians = list();
    const services = list();
    const area = rd.uint();
    const sentiment = rd.float();
    const aspectCount = rd.uint();
    const aspects: ReviewAspect[] = aspectCount === 0 ? none : new Array(aspectCount);
    for (let k = 0; k < aspectCount; k++)
      aspects[k] = {
        id: str(rd.uint()),
        polarity: str(rd.uint()) as ReviewAspect['polarity'],
        score: rd.float(),
        phrase: str(rd.uint()),
        sentence: rd.uint(),
      };
    const problems = list();
    const phrases = list();
    const sentences: InsightAnalysis['sentences'][number][] = new Array(rd.uint());
    for (let k = rd.uint(); k > 0; k--) {
      const at = rd.uint();
      if (at >= sentences.length) throw new RowImageError('the rows image quotes a sentence past its review');
      sentences[at] = { start: rd.uint(), end: rd.uint() };
    }
    const row = make(
      { id, rating, date, text, technicians, services, service_area: area === 0 ? null : str(area - 1) },
      { sentiment, aspects, problems, phrases, sentences },
    );
    row.place = i;
    rows[i] = row;
  }
  const stateLength = rd.uint32();
  const stateEnd = rd.at + stateLength;
  if (stateEnd > rowsEnd) throw new RowImageError('the rows image ends early');
  if (stateLength > 0 && state?.(stateIn(rd, str, rows)) && rd.at !== stateEnd)
    throw new RowImageError('a state read is not the state written');
  rd.at = stateEnd;
  if (rd.at !== rowsEnd) throw new RowImageError('the rows image has bytes after its last row');
  return rows;
}

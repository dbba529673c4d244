// The kept rows as bytes: what a corpus thread that starts again takes its rows back from, instead of
// parsing every review and analysis of a revision's bodies (at 100k reviews a few hundred milliseconds
// against about a second; at 1M seconds against about fifteen). Every string that many rows share (dates,
// ids of aspects, technicians, services and areas, phrases, problems) is written once, in a table.
import type { ReviewAspect } from '../../domain/index.js';
import type { CorpusReview, InsightAnalysis } from './rows.js';

/** Bump when the layout below changes: an image of another version is not read (the bodies are). */
const IMAGE_VERSION = 1;

/** A row as the image holds it: what rowOf makes a Row of. */
export interface ImagedRow {
  review: CorpusReview;
  analysis: InsightAnalysis;
}

export class RowImageError extends Error {
  override readonly name = 'RowImageError';
}

class Writer {
  private buf = Buffer.allocUnsafe(1 << 16);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

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
    this.room(5 + max);
    // The length goes before the bytes: written after them, in the room left for its varint.
    const start = this.at + 5;
    const n = this.buf.write(s, start, 'utf8');
    this.uint(n);
    this.buf.copy(this.buf, this.at, start, start + n);
    this.at += n;
  }

  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

class Reader {
  private at = 0;

  constructor(private readonly buf: Buffer) {}

  uint(): number {
    let n = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.buf.length) throw new RowImageError('the rows image ends early');
      const b = this.buf[this.at++];
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  }

  float(): number {
    if (this.at + 8 > this.buf.length) throw new RowImageError('the rows image ends early');
    const x = this.buf.readDoubleLE(this.at);
    this.at += 8;
    return x;
  }

  string(): string {
    const n = this.uint();
    if (this.at + n > this.buf.length) throw new RowImageError('the rows image ends early');
    const s = this.buf.toString('utf8', this.at, this.at + n);
    this.at += n;
    return s;
  }

  get done(): boolean {
    return this.at === this.buf.length;
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

/** The rows as bytes: a version, the row count, the shared strings, then each row. */
export function encodeRows(rows: readonly ImagedRow[]): Buffer {
  const table = new Table();
  const body = new Writer();
  const list = (xs: readonly string[]) => {
    body.uint(xs.length);
    for (const x of xs) body.uint(table.of(x));
  };
  for (const { review: r, analysis: a } of rows) {
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
    body.uint(a.aspects.length);
    for (const x of a.aspects) {
      body.uint(table.of(x.id));
      body.uint(table.of(x.polarity));
      body.float(x.score);
      body.uint(table.of(x.phrase));
      body.uint(x.sentence);
    }
    list(a.problems);
    list(a.phrases);
    // Sparse: only the sentences the aspects quote are kept.
    body.uint(a.sentences.length);
    let kept = 0;
    for (const s of a.sentences) if (s) kept++;
    body.uint(kept);
    a.sentences.forEach((s, i) => {
      if (!s) return;
      body.uint(i);
      body.uint(s.start);
      body.uint(s.end);
    });
  }
  const head = new Writer();
  head.uint(IMAGE_VERSION);
  head.uint(rows.length);
  head.uint(table.strings.length);
  for (const s of table.strings) head.string(s);
  return Buffer.concat([head.done(), body.done()]);
}

/**
 * The rows of encodeRows, each string of the table passed through `intern` (so the rows share them with
 * rows made later); every empty list is `none`. RowImageError when the bytes are not such an image.
 */
export function decodeRows(bytes: Buffer, intern: (s: string) => string, none: never[]): ImagedRow[] {
  const rd = new Reader(bytes);
  const version = rd.uint();
  if (version !== IMAGE_VERSION) throw new RowImageError(`the rows image is of version ${version}, not ${IMAGE_VERSION}`);
  const n = rd.uint();
  const strings: string[] = new Array(rd.uint());
  for (let i = 0; i < strings.length; i++) strings[i] = intern(rd.string());
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
  const rows: ImagedRow[] = new Array(n);
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
    rows[i] = {
      review: { id, rating, date, text, technicians, services, service_area: area === 0 ? null : str(area - 1) },
      analysis: { sentiment, aspects, problems, phrases, sentences },
    };
  }
  if (!rd.done) throw new RowImageError('the rows image has bytes after its last row');
  return rows;
}

import { createHash, hash } from 'node:crypto';
import { endianness } from 'node:os';
import {
  type Allocate,
  type GrowableMemory,
  growablePrivate,
  growTo,
  joinSteps,
  runAtOnce,
  type Steps,
  TOUCH_STEP,
} from '../../threads/index.js';
import type { CarriedRuns } from './carried-runs.js';
import { Segments } from './segments.js';

const DIGEST = 32;
const COMMA = Buffer.from(',');
/** Items of a carried run moved between pauses (its places, lengths and digests: about 2.5 MB). */
const RUN_CHUNK = 1 << 16;

/**
 * A value already in JSON (an analysis as the store keeps it, made by JSON.stringify): rendered as its
 * text, so a build does not parse it into objects only to stringify them again.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

const jsonOf = (value: unknown) => (value instanceof RawJson ? value.json : JSON.stringify(value));
/** Typed arrays are copied as bytes where the host order is the stored one (little-endian), instead of a word at a time. */
const HOST_LE = endianness() === 'LE';

/** `words` as little-endian bytes: a view of them where the host order is the stored one. */
function wordBytes(words: Uint32Array): Buffer {
  if (HOST_LE) return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  const out = Buffer.allocUnsafe(words.length * 4);
  for (let i = 0; i < words.length; i++) out.writeUInt32LE(words[i], i * 4);
  return out;
}

/** n little-endian words of `b` from `at`. */
function readWords(b: Buffer, at: number, n: number): Uint32Array {
  const words = new Uint32Array(n);
  if (HOST_LE) new Uint8Array(words.buffer).set(b.subarray(at, at + n * 4));
  else for (let i = 0; i < n; i++) words[i] = b.readUInt32LE(at + i * 4);
  return words;
}

/** Where a render's body is allocated: a shared buffer lets a worker thread hand it over without a copy. */
export type { Allocate };

const allocUnsafe: Allocate = (n) => Buffer.allocUnsafe(n);

/**
 * An update's carried runs shorter than this are copied beside its new items instead of viewed where
 * they are, so a body updated one review at a time stays a few parts (each new part is one of these).
 */
const COPY_BELOW = 64 << 10;
/** An update that would leave its body in more parts than this is joined into one. */
const MAX_PARTS = 64;
/**
 * An update whose parts would keep alive more memory than its body's bytes by this share and a MiB
 * (views keep whole buffers: removed and changed items' old bytes stay until then; a small part may
 * sit in a pool of a few KiB) is joined into one.
 */
const MAX_SLACK = 0.25;
const SLACK_BYTES = 1 << 20;

/**
 * The bytes a render of every item wrote into memory that grows, by that memory: it grew in steps, and
 * what lies past the body was never written (its pages are not used), so it does not count as held.
 * Known in the thread that rendered it; in another (the memory posted there is another object) the
 * furthest byte viewed stands for it.
 */
const written = new WeakMap<ArrayBufferLike, number>();
const growable = (memory: ArrayBufferLike) =>
  (memory as { growable?: boolean }).growable === true || (memory as { resizable?: boolean }).resizable === true;
const sizeOf = (memory: ArrayBufferLike, end: number) => written.get(memory) ?? (growable(memory) ? end : memory.byteLength);

/** The largest body: item offsets are 32-bit. */
const MAX_BODY = 2 ** 32 - 1;
/** How much a growing body grows by at least (address space is reserved up front; pages are used only once written). */
const GROW_STEP = 16 << 20;

/**
 * Bytes appended to memory that grows in place, so a render of every item is written straight into
 * the body it ends as (no item's bytes held apart until copied: at 1M reviews that was the body twice).
 */
class GrowingBody {
  private readonly memory: GrowableMemory;
  private view: Buffer;
  length = 0;

  constructor(allocate: Allocate) {
    this.memory = (allocate.growable ?? growablePrivate)(MAX_BODY);
    this.view = Buffer.from(this.memory);
  }

  /** Appends `text` as UTF-8; its byte length. */
  write(text: string): number {
    // At most 3 bytes per UTF-16 code unit.
    const need = this.length + text.length * 3;
    if (need > this.view.length) {
      if (this.length + Buffer.byteLength(text) > MAX_BODY) throw new RangeError('SplicedJson: the body would pass 4 GiB');
      growTo(this.memory, Math.min(MAX_BODY, Math.max(need, this.view.length + GROW_STEP)));
      this.view = Buffer.from(this.memory);
    }
    const n = this.view.write(text, this.length);
    this.length += n;
    return n;
  }

  bytes(start: number, length: number): Buffer {
    return this.view.subarray(start, start + length);
  }

  /** The bytes written, as one buffer over the memory (not a copy). */
  finish(): Buffer {
    written.set(this.memory, this.length);
    return Buffer.from(this.memory, 0, this.length);
  }
}

/**
 * `JSON.stringify(doc)`, byte for byte, for a document with one large member (an array of reviews, or
 * an object of per-review analyses) whose items mostly carry over from the previous revision: each
 * item is rendered on its own and remembered by position, so the next render copies the bytes of every
 * item whose value is the same object as before and stringifies only the new ones.
 *
 * Each item also keeps the SHA-256 of its bytes, and the document's digest is the SHA-256 of the parts
 * around the member and those item digests (a hash tree of depth one): as strong as hashing the whole
 * body, since any change to the bytes changes it, but an update hashes only the new items.
 */
export class SplicedJson {
  readonly digest: Buffer;

  private constructor(
    /** The body: the document's bytes in order, in parts an update viewed where they were (see renderSteps). */
    readonly segments: Segments,
    /** The items' keys, in order (an array's identify its items across revisions). */
    readonly keys: readonly string[],
    private readonly values: readonly unknown[],
    /** Byte offset of item i's first byte (starts[i]) and one past its last (starts[i] + lengths[i]). */
    private readonly starts: Uint32Array,
    private readonly lengths: Uint32Array,
    /** SHA-256 of each item's bytes, 32 bytes each, in order. */
    private readonly digests: Buffer,
    /** Bytes before the first item (the member's opening bracket included). */
    private readonly openLength: number,
    /** The document's digest, when the thread that rendered it computed it already. */
    digest?: Buffer,
  ) {
    const close = starts.length === 0 ? openLength : starts[starts.length - 1] + lengths[lengths.length - 1];
    this.digest = digest ?? documentDigest(segments.bytes(0, openLength), starts.length, digests, segments.bytes(close, segments.length));
  }

  /** The body's bytes in order, as they are held (views; never joined here). */
  get parts(): readonly Buffer[] {
    return this.segments.parts;
  }

  /**
   * The member's items in order: `keys` (for an array they only identify items across revisions; for
   * an object they are the member's keys) and `values`. Equal to JSON.stringify(doc) when `doc[member]`
   * holds exactly these items (a property test checks it). With `previous`, `carried` says where each
   * item was in it (-1: new) and in which runs; a carried item keeps its bytes.
   */
  static render(...args: Parameters<typeof SplicedJson.renderSteps>): SplicedJson {
    return runAtOnce(SplicedJson.renderSteps(...args));
  }

  /** `render` as steps, pausing every few hundred items and between chunks of the copy. */
  static *renderSteps(
    doc: object,
    member: string,
    kind: 'array' | 'object',
    items: { keys: readonly string[]; values: readonly unknown[] },
    previous?: SplicedJson,
    carried?: CarriedRuns,
    allocate: Allocate = allocUnsafe,
  ): Steps<SplicedJson> {
    if (!previous || !carried) return yield* SplicedJson.renderAllSteps(doc, member, kind, items, allocate);
    const { head, tail } = around(doc, member);
    const { keys, values } = items;
    const n = keys.length;
    const { from, runs } = carried;
    if (from.length !== n) throw new Error('SplicedJson: one previous position per item');
    const prev = previous;
    const rendered: (Buffer | undefined)[] = new Array(n);
    const starts = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    const digests = Buffer.allocUnsafe(n * DIGEST);
    const open = Buffer.from(`${head}${kind === 'array' ? '[' : '{'}`);
    const close = Buffer.from(`${kind === 'array' ? ']' : '}'}${tail}`);
    // Each carried run's places, lengths and digests are the previous render's, moved as one; only the
    // fresh items between runs are rendered and hashed.
    let offset = open.length;
    let steps = 0;
    for (let i = 0, r = 0; i < n; ) {
      if (i > 0) offset += 1;
      if (r < runs.length && runs[r] === i) {
        const j = runs[r + 1];
        const length = runs[r + 2];
        const end = i + length - 1;
        if (prev.values[j] !== values[i] || prev.values[j + length - 1] !== values[end] || prev.keys[j] !== keys[i])
          throw new Error('SplicedJson: a carried item is not where the previous render had it');
        const shift = offset - prev.starts[j];
        // In chunks, a pause between them: a run may be a million items.
        for (let d0 = 0; d0 < length; d0 += RUN_CHUNK) {
          const d1 = Math.min(length, d0 + RUN_CHUNK);
          for (let d = d0; d < d1; d++) starts[i + d] = prev.starts[j + d] + shift;
          lengths.set(prev.lengths.subarray(j + d0, j + d1), i + d0);
          prev.digests.copy(digests, (i + d0) * DIGEST, (j + d0) * DIGEST, (j + d1) * DIGEST);
          if (d1 < length) yield;
        }
        offset = starts[end] + lengths[end];
        i += length;
        r += 3;
        if (++steps % 64 === 0) yield;
        continue;
      }
      if (from[i] >= 0) throw new Error('SplicedJson: a carried item outside the carried runs');
      const value = values[i];
      const bytes = Buffer.from(kind === 'array' ? jsonOf(value) : `${JSON.stringify(keys[i])}:${jsonOf(value)}`);
      rendered[i] = bytes;
      lengths[i] = bytes.length;
      hash('sha256', bytes, 'buffer').copy(digests, i * DIGEST);
      starts[i] = offset;
      offset += bytes.length;
      i++;
      if (++steps % 64 === 0) yield;
    }
    // The body in parts: runs of items that were neighbours before are viewed where they lie in the
    // previous body (separators included), and the new bytes around them are copied into parts of
    // their own. One new review among 100k is three small parts and a view, not a copy of the body.
    const parts: Buffer[] = [];
    let pending: Buffer[] = [open];
    let pendingBytes = open.length;
    const add = (piece: Buffer) => {
      pending.push(piece);
      pendingBytes += piece.length;
    };
    function* flush(): Steps<void> {
      if (pendingBytes === 0) return;
      const part = allocate(pendingBytes);
      let at = 0;
      let since = 0;
      for (const piece of pending) {
        piece.copy(part, at);
        at += piece.length;
        since += piece.length;
        if (since >= TOUCH_STEP) {
          since = 0;
          yield;
        }
      }
      parts.push(part);
      pending = [];
      pendingBytes = 0;
    }
    const views: Buffer[] = [];
    for (let i = 0, r = 0; i < n; ) {
      if (i > 0) add(COMMA);
      if (r < runs.length && runs[r] === i) {
        const j = runs[r + 1];
        const last = j + runs[r + 2] - 1;
        views.length = 0;
        prev.segments.viewsInto(views, prev.starts[j], prev.starts[last] + prev.lengths[last]);
        for (const view of views)
          if (view.length < COPY_BELOW) add(view);
          else {
            yield* flush();
            parts.push(view);
          }
        i += runs[r + 2];
        r += 3;
      } else add(rendered[i++]!);
      if (++steps % 512 === 0) yield;
    }
    add(close);
    yield* flush();
    let segments = new Segments(parts);
    // Joined into one when in too many parts, or when the parts keep too much dead memory alive.
    if (parts.length > MAX_PARTS || segments.heldBytes(sizeOf) > segments.length * (1 + MAX_SLACK) + SLACK_BYTES)
      segments = new Segments([yield* joinSteps(parts, allocate)]);
    return new SplicedJson(segments, keys, values, starts, lengths, digests, open.length);
  }

  /**
   * A render of every item (nothing carried over), each written straight into the body as it is
   * stringified. `written(i, start, length)` is called once item i's bytes are there: the caller may then put in
   * `items.values[i]` what stands for that item from now on (the render keeps that array, to know
   * carried items by identity in the next render), so what it was rendered from can die.
   */
  static *renderAllSteps(
    doc: object,
    member: string,
    kind: 'array' | 'object',
    items: { keys: readonly string[]; values: readonly unknown[] },
    allocate: Allocate = allocUnsafe,
    written?: (i: number, start: number, length: number) => void,
  ): Steps<SplicedJson> {
    const { head, tail } = around(doc, member);
    const { keys, values } = items;
    const n = keys.length;
    const starts = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    const digests = Buffer.allocUnsafe(n * DIGEST);
    const out = new GrowingBody(allocate);
    const openLength = out.write(`${head}${kind === 'array' ? '[' : '{'}`);
    for (let i = 0; i < n; i++) {
      if (i > 0) out.write(',');
      starts[i] = out.length;
      const value = values[i];
      lengths[i] = out.write(kind === 'array' ? jsonOf(value) : `${JSON.stringify(keys[i])}:${jsonOf(value)}`);
      hash('sha256', out.bytes(starts[i], lengths[i]), 'buffer').copy(digests, i * DIGEST);
      written?.(i, starts[i], lengths[i]);
      if (i % 64 === 0) yield;
    }
    out.write(`${kind === 'array' ? ']' : '}'}${tail}`);
    return new SplicedJson(new Segments([out.finish()]), keys, values, starts, lengths, digests, openLength);
  }

  /**
   * Where each item lies in the body and its digest, to store beside the body: with it a process that
   * loads the body (fromLayout) can update it as if it had rendered it. Little-endian words: item
   * count, bytes before the first item, then each item's start and length, then the digests.
   */
  layout(): Buffer {
    return Buffer.concat(this.layoutParts());
  }

  /** `layout()` in the parts it is joined from, views of what this render holds where they can be (a caller joins them a slice at a time). */
  layoutParts(): Buffer[] {
    const n = this.starts.length;
    const head = Buffer.allocUnsafe(8);
    head.writeUInt32LE(n, 0);
    head.writeUInt32LE(this.openLength, 4);
    return [head, wordBytes(this.starts), wordBytes(this.lengths), this.digests];
  }

  /**
   * A render that was stored: its body and layout, and the keys and values its items are (in order).
   * The layout is checked against the body (items in order, one separator apart, inside the body), so
   * a damaged one fails here rather than producing a wrong body later.
   */
  static fromLayout(
    body: Buffer | readonly Buffer[],
    layout: Buffer,
    keys: readonly string[],
    values: readonly unknown[],
    digest?: Buffer,
  ): SplicedJson {
    const segments = new Segments(Buffer.isBuffer(body) ? [body] : body);
    const { n, openLength, starts, lengths } = readLayout(segments, layout);
    if (n !== keys.length) throw new Error(`SplicedJson: a stored layout of ${n} items does not fit ${keys.length} keys`);
    return new SplicedJson(segments, keys, values, starts, lengths, Buffer.from(layout.subarray(8 + n * 8)), openLength, digest);
  }

  /** Whether item i (of an object member) is the member named `key`: its bytes begin with `"key":`. */
  isKeyedAs(i: number, key: string): boolean {
    const name = JSON.stringify(key);
    // An item lies in one part (fromLayout refuses one that straddles two): found once, read there.
    const { buffer, at } = this.segments.place(this.starts[i], this.lengths[i]);
    const end = at + Buffer.byteLength(name);
    return end < at + this.lengths[i] && buffer[end] === 0x3a && buffer.toString('utf8', at, end) === name;
  }

  /**
   * A stored render read back a piece at a time, never as one string (a 75 MB body parsed whole is a
   * string and a graph that large at once): `shell` is the document with its member empty, each step
   * yields the next item's bytes as text.
   */
  static *readStored(body: Buffer | readonly Buffer[], layout: Buffer): Generator<string, string> {
    const segments = new Segments(Buffer.isBuffer(body) ? [body] : body);
    const spans = storedSpansOf(segments, layout);
    let step = spans.next();
    for (; !step.done; step = spans.next()) yield segments.toString(step.value.start, step.value.start + step.value.length);
    return step.value;
  }

  /** `readStored` as where each item's bytes are in a body of one buffer, for a reader that keeps them there. */
  static storedSpans(body: Buffer, layout: Buffer): Generator<{ start: number; length: number }, string> {
    return storedSpansOf(new Segments([body]), layout);
  }

  /**
   * This render with other values standing for its items, one per item and unique: a holder that keeps
   * the bytes need not keep the values they were rendered from, only something the next render is given
   * for the same item.
   */
  withValues(values: readonly unknown[]): SplicedJson {
    if (values.length !== this.keys.length) throw new Error('SplicedJson: one value per item');
    return new SplicedJson(this.segments, this.keys, values, this.starts, this.lengths, this.digests, this.openLength, this.digest);
  }

  /**
   * Another document whose `member` is this render's first `count` items (an array member), as the
   * parts to send in order: its own head and tail, and one view of the items' bytes here (no copy). The
   * digest is the one render() would give that document, taken over the items' digests.
   */
  prefixDocument(doc: object, member: string, count: number): { parts: Buffer[]; digest: Buffer; ownedBytes: number } {
    const { head, tail } = around(doc, member);
    const open = Buffer.from(`${head}[`);
    const close = Buffer.from(`]${tail}`);
    const digest = documentDigest(open, count, this.digests.subarray(0, count * DIGEST), close);
    const parts = [open];
    if (count > 0) this.segments.viewsInto(parts, this.starts[0], this.starts[count - 1] + this.lengths[count - 1]);
    parts.push(close);
    return { parts, digest, ownedBytes: open.length + close.length };
  }

  /**
   * Another document whose `member` is this render's items at `positions` (an array member, in the
   * order given), as the parts to send in order: its own head and tail, and views of the items' bytes
   * here (no item is rendered or copied again; a run of neighbours is one view, its separator included),
   * with the digest render() would give that document, taken over the items' digests.
   */
  pickDocument(doc: object, member: string, positions: readonly number[]): { parts: Buffer[]; digest: Buffer } {
    const { head, tail } = around(doc, member);
    const open = Buffer.from(`${head}[`);
    const close = Buffer.from(`]${tail}`);
    const parts: Buffer[] = [open];
    const digests = Buffer.allocUnsafe(positions.length * DIGEST);
    const last = this.keys.length - 1;
    for (let k = 0; k < positions.length; ) {
      const from = k;
      const first = positions[k];
      while (k + 1 < positions.length && positions[k + 1] === positions[k] + 1) k++;
      const end = positions[k++];
      digests.set(this.digests.subarray(first * DIGEST, (end + 1) * DIGEST), from * DIGEST);
      const more = k < positions.length;
      // Every item but the render's last is followed by its separator: a run that is not the page's last takes it along.
      this.segments.viewsInto(parts, this.starts[first], this.starts[end] + this.lengths[end] + (more && end < last ? 1 : 0));
      if (more && end === last) parts.push(COMMA);
    }
    parts.push(close);
    return { parts, digest: documentDigest(open, positions.length, digests, close) };
  }

  /** Visits every item with its part of the body and offset in it, in order (see Segments.eachPlace). */
  eachItemPlace(visit: (i: number, buffer: Buffer, at: number, length: number) => void): Steps<void> {
    return this.segments.eachPlace(this.starts, this.lengths, visit);
  }

  itemLength(i: number): number {
    return this.lengths[i];
  }

  /** The bytes of item i, as rendered (for an object member, `"key":value`). */
  itemText(i: number): string {
    return this.segments.toString(this.starts[i], this.starts[i] + this.lengths[i]);
  }

  /** The JSON of object member i's value: its item without `"key":` (its key is keys[i]). */
  memberValueText(i: number): string {
    return this.itemText(i).slice(JSON.stringify(this.keys[i]).length + 1);
  }
}

/**
 * A spliced document's digest: a hash tree over its items' digests (not its bytes), so a document made
 * of items rendered elsewhere gets the digest without hashing them again. Every render and pick uses it.
 */
function documentDigest(open: Buffer, count: number, itemDigests: Buffer, close: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(open.length, 0);
  header.writeUInt32BE(count, 4);
  return createHash('sha256').update(header).update(open).update(itemDigests).update(close).digest();
}

/** Where each item's bytes are, then the document with its member empty. */
function* storedSpansOf(body: Segments, layout: Buffer): Generator<{ start: number; length: number }, string> {
  const { n, openLength, starts, lengths } = readLayout(body, layout);
  for (let i = 0; i < n; i++) yield { start: starts[i], length: lengths[i] };
  return body.toString(0, openLength) + body.toString(n === 0 ? openLength : starts[n - 1] + lengths[n - 1], body.length);
}

/**
 * A stored layout's words, checked against its body (items in order, one separator apart, inside the
 * body, each in one of its parts), so a damaged one fails here rather than producing a wrong body later.
 */
function readLayout(body: Segments, layout: Buffer): { n: number; openLength: number; starts: Uint32Array; lengths: Uint32Array } {
  const n = layout.length >= 8 ? layout.readUInt32LE(0) : -1;
  if (n < 0 || layout.length !== 8 + n * (8 + DIGEST)) throw new Error(`SplicedJson: a stored layout of ${n} items does not fit its size`);
  const openLength = layout.readUInt32LE(4);
  const starts = readWords(layout, 8, n);
  const lengths = readWords(layout, 8 + n * 4, n);
  let expected = openLength;
  for (let i = 0; i < n; i++) {
    if (starts[i] !== expected || lengths[i] === 0) throw new Error(`SplicedJson: stored layout item ${i} is out of place`);
    expected = starts[i] + lengths[i] + 1;
  }
  if ((n === 0 ? openLength : expected - 1) > body.length) throw new Error('SplicedJson: the stored layout runs past the body');
  const straddling = body.parts.length > 1 ? body.firstStraddling(starts, lengths) : -1;
  if (straddling >= 0) throw new Error(`SplicedJson: stored layout item ${straddling} straddles two parts`);
  return { n, openLength, starts, lengths };
}

/** The bytes of JSON.stringify(doc) before and after the value of `member` (keeping the key order). */
function around(doc: object, member: string): { head: string; tail: string } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let seen = false;
  // Keys, not entries: the member itself may be a lazy getter that is never needed here.
  for (const k of Object.keys(doc)) {
    if (k === member) seen = true;
    else (seen ? after : before)[k] = (doc as Record<string, unknown>)[k];
  }
  if (!seen) throw new Error(`SplicedJson: the document has no "${member}"`);
  const b = JSON.stringify(before);
  const a = JSON.stringify(after);
  return { head: `${b === '{}' ? '{' : `${b.slice(0, -1)},`}${JSON.stringify(member)}:`, tail: a === '{}' ? '}' : `,${a.slice(1)}` };
}

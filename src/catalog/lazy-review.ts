import { Interner, type RatingTally, type Review } from '../domain/index.js';
import { type Steps, TOUCH_STEP } from '../threads/index.js';

/**
 * Where a held review's bytes are (its item in the rendered /reviews.json), and the few fields the
 * index, the order and the tally read for every review on each build (and the sitemap on each
 * revision), so those never parse it.
 * Mutable: a review carried into the next revision follows its bytes into that revision's body.
 */
export interface Held {
  body: Buffer;
  start: number;
  length: number;
  readonly id: string;
  readonly date: string;
  readonly published_at: string;
  readonly updated_at: string;
  readonly rating: number;
  readonly source: string;
  readonly language: string | null;
  readonly technicians: readonly string[];
  readonly services: readonly string[];
  readonly hasText: boolean;
  readonly hasReply: boolean;
}

const HELD = Symbol('held');

/**
 * `b`, or `a` when they are equal: a review never edited was updated when it was published, and two equal
 * strings read apart are two strings (40 bytes a review at 100k: 4 MB).
 */
const sameOr = (a: string, b: string) => (a === b ? a : b);
const FIELDS = new Set(['id', 'date', 'published_at', 'updated_at', 'rating', 'source', 'language', 'technicians', 'services']);

/**
 * The last few reviews parsed: a reader usually reads several fields of one review in a row (a page's
 * card, a comparison of two), and each would otherwise parse it again.
 */
const recent: { held: Held | null; value: Review | null }[] = Array.from({ length: 8 }, () => ({ held: null, value: null }));
let next = 0;

function parsed(h: Held): Review {
  for (const slot of recent) if (slot.held === h) return slot.value!;
  const value = JSON.parse(h.body.toString('utf8', h.start, h.start + h.length)) as Review;
  const slot = recent[next];
  next = (next + 1) % recent.length;
  slot.held = h;
  slot.value = value;
  return value;
}

const readOnly = () => false;
const handler: ProxyHandler<Held> = {
  get: (h, key) => (key === HELD ? h : typeof key === 'string' && FIELDS.has(key) ? h[key as keyof Held] : Reflect.get(parsed(h), key)),
  has: (h, key) => key in parsed(h),
  ownKeys: (h) => Reflect.ownKeys(parsed(h)),
  getOwnPropertyDescriptor: (h, key) => {
    const d = Reflect.getOwnPropertyDescriptor(parsed(h), key);
    // Reported configurable: the target (the location) does not have these properties itself.
    return d && { ...d, configurable: true };
  },
  set: readOnly,
  defineProperty: readOnly,
  deleteProperty: readOnly,
};

/**
 * Reviews held as their rendered bytes: each a Proxy that reads like the Review (JSON.stringify, spread
 * and property reads give the same values) and parses its item on demand. About 250 bytes a review
 * instead of about 900 for the object graph, and the identity a carried review keeps across revisions.
 */
export class HeldReviews {
  private readonly strings = new Interner<string>();
  private readonly lists = new Interner<readonly string[]>();

  /** `r` held at `start`/`length` of `body`, as item i of `into`: a new record of its values and the Proxy that reads it. */
  hold(r: Review, body: Buffer, start: number, length: number, into: HeldOrder, i: number): void {
    const s = (v: string) => this.strings.get(v, () => v);
    const list = (v: readonly string[]) => this.lists.get(JSON.stringify(v), () => Object.freeze([...v]));
    const h: Held = {
      body,
      start,
      length,
      id: r.id,
      date: s(r.date),
      published_at: r.published_at,
      updated_at: sameOr(r.published_at, r.updated_at),
      rating: r.rating,
      source: s(r.source),
      language: r.language === null ? null : s(r.language),
      technicians: list(r.technicians),
      services: list(r.services),
      hasText: !!r.text,
      hasReply: !!r.owner_reply,
    };
    into.records[i] = h;
    into.reviews[i] = new Proxy(h, handler) as unknown as Review;
  }
}

/**
 * A revision's held reviews in order, with the record each reads its bytes and fields from: the next
 * revision re-points a carried review's record by its position, and passes over every review (the
 * tally, a snapshot's columns) read the records, not the Proxies.
 */
export interface HeldOrder {
  readonly reviews: Review[];
  readonly records: Held[];
}

export const heldOrder = (n: number): HeldOrder => ({ reviews: new Array(n), records: new Array(n) });

function heldOf(r: object): Held | undefined {
  return (r as { [HELD]?: Held })[HELD];
}

/** The held fields of reviews, a column each (lists and flags as numbers), as a snapshot stores them. */
interface HeldColumns {
  id: string[];
  date: string[];
  published_at: string[];
  updated_at: string[];
  rating: number[];
  source: string[];
  language: (string | null)[];
  /** Each distinct technicians or services list once; a review names its lists by index. */
  lists: string[][];
  technicians: number[];
  services: number[];
  /** 1: has text, 2: has an owner reply. */
  flags: number[];
}

/**
 * What a loading process needs of each review to hold it without parsing it (see holdColumns), as JSON;
 * in steps (a snapshot is made after every revision, beside requests).
 */
export function* heldColumns(records: readonly Held[]): Steps<Buffer[]> {
  const c: HeldColumns = {
    id: [],
    date: [],
    published_at: [],
    updated_at: [],
    rating: [],
    source: [],
    language: [],
    lists: [],
    technicians: [],
    services: [],
    flags: [],
  };
  const lists = new Map<string, number>();
  const list = (v: readonly string[]) => {
    const key = JSON.stringify(v);
    let i = lists.get(key);
    if (i === undefined) lists.set(key, (i = c.lists.push([...v]) - 1));
    return i;
  };
  for (const r of records) {
    c.id.push(r.id);
    c.date.push(r.date);
    c.published_at.push(r.published_at);
    c.updated_at.push(r.updated_at);
    c.rating.push(r.rating);
    c.source.push(r.source);
    c.language.push(r.language);
    c.technicians.push(list(r.technicians));
    c.services.push(list(r.services));
    c.flags.push((r.hasText ? 1 : 0) | (r.hasReply ? 2 : 0));
    if (c.id.length % 128 === 0) yield;
  }
  return yield* jsonInPieces(c);
}

/**
 * JSON.stringify(columns) as UTF-8 pieces of about TOUCH_STEP bytes, a step each: at 100k reviews the
 * whole is megabytes, too much to write into fresh memory in one go (threads/join.ts).
 */
function* jsonInPieces(columns: object): Steps<Buffer[]> {
  const pieces: Buffer[] = [];
  let pending = '{';
  for (const [k, [key, values]] of (Object.entries(columns) as [string, readonly unknown[]][]).entries()) {
    pending += `${k > 0 ? ',' : ''}${JSON.stringify(key)}:[`;
    for (let i = 0; i < values.length; i++) {
      pending += `${i > 0 ? ',' : ''}${JSON.stringify(values[i])}`;
      if (pending.length >= TOUCH_STEP) {
        pieces.push(Buffer.from(pending));
        pending = '';
        yield;
      }
    }
    pending += ']';
  }
  pieces.push(Buffer.from(`${pending}}`));
  return pieces;
}

/**
 * Held reviews from `heldColumns`' JSON, each at its span of `body` (the rendered /reviews.json the
 * columns were taken from, in the same order): no review is parsed.
 */
export function holdColumns(json: string, body: Buffer, spans: Iterable<{ start: number; length: number }>): HeldOrder {
  const c = JSON.parse(json) as HeldColumns;
  const strings = new Interner<string>();
  const s = (v: string) => strings.get(v, () => v);
  const lists = c.lists.map((v) => Object.freeze(v));
  const out: HeldOrder = { reviews: [], records: [] };
  let i = 0;
  for (const { start, length } of spans) {
    if (i >= c.id.length) throw new Error('holdColumns: more reviews in the body than held columns');
    const h: Held = {
      body,
      start,
      length,
      id: c.id[i],
      date: s(c.date[i]),
      published_at: c.published_at[i],
      updated_at: sameOr(c.published_at[i], c.updated_at[i]),
      rating: c.rating[i],
      source: s(c.source[i]),
      language: c.language[i] === null ? null : s(c.language[i]!),
      technicians: lists[c.technicians[i]],
      services: lists[c.services[i]],
      hasText: (c.flags[i] & 1) !== 0,
      hasReply: (c.flags[i] & 2) !== 0,
    };
    out.records.push(h);
    out.reviews.push(new Proxy(h, handler) as unknown as Review);
    i++;
  }
  if (i !== c.id.length) throw new Error('holdColumns: fewer reviews in the body than held columns');
  return out;
}

/** A plain Review object (a held one parsed; any other returned as it is): for structured clones. */
export const plainReview = (r: Review): Review => {
  const h = heldOf(r);
  return h ? (JSON.parse(h.body.toString('utf8', h.start, h.start + h.length)) as Review) : r;
};

/** Adds a held review to the aggregate rating, from its record: nothing is parsed or made for it. */
export function tallyHeld(t: RatingTally, h: Held): void {
  t.add(h.rating, h.date, h.source, h.hasText, h.hasReply);
}

import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import {
  hashOf,
  InsightsSchema,
  ReviewsDocumentSchema,
  SNAPSHOT_BYTES_FIELDS,
  type SnapshotBytesField,
  type StoredSnapshot,
  type StoredSnapshotParts,
} from '../domain/index.js';
import { drainSteps, joinSteps, runInSlices, SliceClock, type Steps, sharedBuffer } from '../threads/index.js';
import { PartsReader, totalLength, utf8Pieces } from './byte-parts.js';
import { TextIndex } from './text-index.js';

/** zlib's stream fields that say where its next output goes (Node's own, the same from 20 to 26). */
interface ZlibOutput {
  _outBuffer?: Buffer;
  _chunkSize?: number;
}

/**
 * A gzip member decoded into shared memory of its exact size (the trailer's ISIZE; our bodies are one
 * member, far below 4 GiB), off the event loop: the catalog serves it and the corpus thread reads the
 * same bytes, so a loaded body is held once, never copied for the thread. zlib is handed the shared
 * buffer as its one output chunk, so it inflates straight into it (copying 100 MB of chunks into fresh
 * pages took seconds of the event loop's time at start-up); a chunk that is elsewhere (another Node's
 * stream internals) is copied in.
 */
async function gunzipShared(gz: readonly Buffer[]): Promise<Buffer> {
  const size = trailerSize(gz);
  const out = sharedBuffer(size);
  const z = createGunzip({ chunkSize: Math.max(size, 64) });
  const internals = z as unknown as ZlibOutput;
  if (size >= 64 && internals._chunkSize === size && internals._outBuffer?.length === size) internals._outBuffer = out;
  for (const part of gz) z.write(part);
  z.end();
  let at = 0;
  for await (const chunk of z as AsyncIterable<Buffer>) {
    if (at + chunk.length > size) throw new Error('a stored snapshot body is longer than its gzip trailer says');
    if (chunk.buffer !== out.buffer || chunk.byteOffset !== at) chunk.copy(out, at);
    at += chunk.length;
  }
  if (at !== size) throw new Error('a stored snapshot body is shorter than its gzip trailer says');
  return out;
}

/** A gzip member's ISIZE (its last 4 bytes, which may lie across parts), or 0 when it is shorter. */
function trailerSize(parts: readonly Buffer[]): number {
  const tail = Buffer.alloc(4);
  let need = 4;
  for (let k = parts.length - 1; k >= 0 && need > 0; k--) {
    const take = Math.min(need, parts[k].length);
    parts[k].copy(tail, need - take, parts[k].length - take);
    need -= take;
  }
  return need === 0 ? tail.readUInt32LE(0) : 0;
}

/** Bump when the bodies' layout or rendering changes in a way the documents' schemas do not show. */
const LAYOUT_VERSION = 4;

/**
 * A schema as JSON Schema without its metadata (descriptions, component ids): only what the rendered
 * bytes' shape depends on.
 */
const shapeOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', metadata: z.registry() });

/**
 * The format of stored bodies that render these documents: the layout version and a digest of the
 * documents' shapes, so a new field in a review or an insight rebuilds stored snapshots without anyone
 * remembering to bump a constant (a changed description does not).
 */
export const catalogFormat = (documents: readonly z.ZodType[]) =>
  `catalog/${LAYOUT_VERSION}.${hashOf(documents.map(shapeOf)).slice(0, 12)}`;

/** The stored snapshots' format: of /reviews.json and /insights.json as the domain describes them. */
const CATALOG_FORMAT = catalogFormat([ReviewsDocumentSchema, InsightsSchema]);

/** The format of stored snapshots of this engine's analyses in this catalog format (another version renders other bytes). */
export const snapshotFormat = (engineVersion: string) => `${engineVersion} ${CATALOG_FORMAT}`;

/** What is stored per revision (and base URL) besides its key: the exact bytes an earlier build rendered, with where each item lies. */
export type SnapshotBodies = Pick<StoredSnapshot, 'engine' | 'reviews' | 'insights' | 'insights_core' | 'layout'>;

/** A stored snapshot, ready to load: both bodies as stored and decoded, with their layouts. */
export interface CatalogSnapshot {
  /** Decoded into shared memory, so the corpus thread reads them without a copy. */
  reviews: Buffer;
  insights: Buffer;
  /** Each body's gzip coding, in the parts it was read in (served as they are: joining copied them whole). */
  reviewsGzip: readonly Buffer[];
  insightsGzip: readonly Buffer[];
  /** Where each review and analysis lies in the bodies (SplicedJson layouts). */
  reviewsLayout: Buffer;
  insightsLayout: Buffer;
  insightsCore: string;
  /** The fields each review is held by, so a load parses none (lazy-review heldColumns). */
  heldColumns: string;
  /** The search's text index restored from what TextIndex.encodeSteps stored, so a load does not rebuild it. */
  textIndex: TextIndex;
}

/** A stored snapshot of another format: not an error to report, a revision to build again. */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
  constructor(
    readonly stored: string,
    readonly wanted: string,
  ) {
    super(`the stored snapshot is of format "${stored}", not "${wanted}"`);
  }
}

/**
 * What to store for one revision, in this format. Everything but the two bodies goes in one stored
 * value (`layout`), section after section: each its length (4 bytes), its bytes and zeros up to a
 * multiple of 4, so the sections' 32-bit words stay aligned. The value (about 55 MB at 100k reviews) is
 * copied together in steps, into shared memory: the store writer thread reads it there. A gzip coding is
 * stored as one value too: joined the same way when it is in parts (a revision loaded from a snapshot).
 */
export function* encodeSnapshot(
  s: Omit<CatalogSnapshot, 'reviews' | 'insights' | 'textIndex' | 'reviewsLayout' | 'insightsLayout' | 'heldColumns'> & {
    /** Each section in parts (SplicedJson.layoutParts, heldColumns, TextIndex.encodeSteps), joined here. */
    reviewsLayout: readonly Buffer[];
    insightsLayout: readonly Buffer[];
    heldColumns: readonly Buffer[];
    textIndex: readonly Buffer[];
  },
  format: string,
): Steps<SnapshotBodies & { layout: Buffer }> {
  const parts: Buffer[] = [];
  for (const section of [s.reviewsLayout, s.insightsLayout, s.heldColumns, s.textIndex]) {
    const length = totalLength(section);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(length, 0);
    parts.push(head, ...section, Buffer.alloc((4 - (length % 4)) % 4));
  }
  const layout = yield* joinSteps(parts, sharedBuffer);
  const reviews = yield* oneValue(s.reviewsGzip);
  const insights = yield* oneValue(s.insightsGzip);
  return { engine: format, reviews, insights, insights_core: s.insightsCore, layout };
}

/** A coding as one stored value: the buffer the server made, or the parts a snapshot was read in, joined in steps. */
function* oneValue(coding: readonly Buffer[]): Steps<Buffer> {
  return coding.length === 1 ? coding[0] : yield* joinSteps(coding, sharedBuffer);
}

/** The sections encodeSnapshot packed into one stored value (read back in parts), in order, each as slices of the parts. */
function sections(packed: readonly Buffer[], count: number): Buffer[][] {
  const what = 'a stored snapshot layout';
  const reader = new PartsReader(packed);
  const out: Buffer[][] = [];
  for (let k = 0; k < count; k++) {
    const length = reader.uint32(what);
    out.push(reader.take(length, what));
    reader.take((4 - (length % 4)) % 4, what);
  }
  if (reader.remaining !== 0) throw new Error(`${what} does not fit its sections`);
  return out;
}

type Body = Extract<SnapshotBytesField, 'reviews' | 'insights'>;

/**
 * Loads a stored snapshot as the store reads it: `onField` (the store's SnapshotReading) starts
 * inflating each body on the thread pool as soon as its parts are read, so that runs on another core
 * while the store reads the layout; `decode` then finishes. SnapshotFormatError when it is not of `format`.
 * Both take the parts they are given over and empty their arrays, so that what is read and no longer
 * needed can be collected during the load (at 1M reviews the start's peak RSS was 3.49–3.61 GB with every
 * part held to the end, 2.88–2.90 GB without, on Node 20).
 */
export function snapshotLoader(format: string) {
  const inflating = new Map<Body, { gzip: readonly Buffer[]; body: Promise<Buffer> }>();
  const inflate = (name: Body, parts: Buffer[]) => {
    // Kept in its parts: the gzip coding is served as it was stored, not joined on load.
    const gzip = parts.splice(0);
    const body = gunzipShared(gzip);
    // Awaited by decode; a load that stops before then (a failed read) must not leave it unhandled.
    body.catch(() => {});
    const started = { gzip, body };
    inflating.set(name, started);
    return started;
  };
  return {
    onField(name: SnapshotBytesField, parts: Buffer[]) {
      if (name === 'reviews' || name === 'insights') inflate(name, parts);
    },
    async decode(stored: BodiesInParts): Promise<CatalogSnapshot> {
      if (stored.engine !== format) throw new SnapshotFormatError(stored.engine, format);
      // Both bodies inflate (on zlib's threads) while the rest is decoded, whether or not onField started them.
      const [reviews, insights] = (['reviews', 'insights'] as const).map((name) => inflating.get(name) ?? inflate(name, stored[name]));
      const [reviewsLayout, insightsLayout, held, indexParts] = sections(stored.layout.splice(0), 4);
      // Whatever is kept is copied out of the parts (the index its arrays, the layouts whole), each part
      // let go once read, so they (about 80 MB at 100k reviews) go during the load; in slices, like every
      // fresh write. The small sections first, so their parts can go before the index (the largest) is copied.
      const clock = new SliceClock();
      const layouts = {
        reviewsLayout: await runInSlices(drainSteps(reviewsLayout), clock),
        insightsLayout: await runInSlices(drainSteps(insightsLayout), clock),
        heldColumns: utf8Pieces(held.splice(0)).join(''),
      };
      const textIndex = await runInSlices(TextIndex.decodeSteps(indexParts), clock);
      return {
        reviews: await reviews.body,
        insights: await insights.body,
        reviewsGzip: reviews.gzip,
        insightsGzip: insights.gzip,
        ...layouts,
        insightsCore: stored.insights_core,
        textIndex,
      };
    },
  };
}

/** A stored snapshot's bodies, as the store reads them back (each bytes field in its parts). */
type BodiesInParts = Pick<StoredSnapshotParts, keyof SnapshotBodies>;

/** A stored snapshot decoded at once, from one value per field (tests, tools). */
export const decodeSnapshot = (stored: SnapshotBodies, format: string): Promise<CatalogSnapshot> =>
  snapshotLoader(format).decode({
    ...stored,
    ...(Object.fromEntries(SNAPSHOT_BYTES_FIELDS.map((name) => [name, [stored[name]]])) as Record<SnapshotBytesField, Buffer[]>),
  });

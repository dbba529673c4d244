import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { hashOf, InsightsSchema, ReviewsDocumentSchema, type StoredSnapshot } from '../domain/index.js';
import { joinSteps, type Steps } from '../threads/index.js';

/**
 * A gzip member decoded into shared memory of its exact size (the trailer's ISIZE; our bodies are one
 * member, far below 4 GiB), off the event loop: the catalog serves it and the corpus thread reads the
 * same bytes, so a loaded body is held once, never copied for the thread.
 */
async function gunzipShared(gz: Buffer): Promise<Buffer> {
  const size = gz.length >= 4 ? gz.readUInt32LE(gz.length - 4) : 0;
  const out = Buffer.from(new SharedArrayBuffer(size));
  const z = createGunzip({ chunkSize: 1 << 20 });
  z.end(gz);
  let at = 0;
  for await (const chunk of z as AsyncIterable<Buffer>) {
    if (at + chunk.length > size) throw new Error('a stored snapshot body is longer than its gzip trailer says');
    chunk.copy(out, at);
    at += chunk.length;
  }
  if (at !== size) throw new Error('a stored snapshot body is shorter than its gzip trailer says');
  return out;
}

/** Bump when the bodies' layout or rendering changes in a way the documents' schemas do not show. */
const LAYOUT_VERSION = 2;

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
  reviewsGzip: Buffer;
  insightsGzip: Buffer;
  /** Where each review and analysis lies in the bodies (SplicedJson layouts). */
  reviewsLayout: Buffer;
  insightsLayout: Buffer;
  insightsCore: string;
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

/** What to store for one revision, in this format, made in steps: the layouts are joined a slice at a time. */
export function* encodeSnapshot(
  s: Omit<CatalogSnapshot, 'reviews' | 'insights' | 'reviewsLayout' | 'insightsLayout'> & {
    /** Each layout in the parts SplicedJson.layoutParts gives. */
    reviewsLayout: readonly Buffer[];
    insightsLayout: readonly Buffer[];
  },
  format: string,
): Steps<SnapshotBodies & { layout: Buffer }> {
  // Two layouts in one stored value: the first's length, then both.
  const n = Buffer.alloc(4);
  n.writeUInt32LE(
    s.reviewsLayout.reduce((sum, p) => sum + p.length, 0),
    0,
  );
  const layout = yield* joinSteps([n, ...s.reviewsLayout, ...s.insightsLayout]);
  return {
    engine: format,
    reviews: s.reviewsGzip,
    insights: s.insightsGzip,
    insights_core: s.insightsCore,
    layout,
  };
}

/** A stored snapshot decoded (its bodies gunzipped off the event loop); SnapshotFormatError when it is not of `format`. */
export async function decodeSnapshot(stored: SnapshotBodies, format: string): Promise<CatalogSnapshot> {
  if (stored.engine !== format || !stored.layout) throw new SnapshotFormatError(stored.layout ? stored.engine : 'without layout', format);
  const n = stored.layout.readUInt32LE(0);
  const [reviews, insights] = await Promise.all([gunzipShared(stored.reviews), gunzipShared(stored.insights)]);
  return {
    reviews,
    insights,
    reviewsGzip: stored.reviews,
    insightsGzip: stored.insights,
    reviewsLayout: stored.layout.subarray(4, 4 + n),
    insightsLayout: stored.layout.subarray(4 + n),
    insightsCore: stored.insights_core,
  };
}

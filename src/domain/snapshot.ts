import { z } from 'zod';

const BytesSchema = z.custom<Buffer>((v) => Buffer.isBuffer(v), 'bytes');

/** One revision's rendered /reviews.json and /insights.json for one public base URL and snapshot format, as stored. */
const StoredSnapshotSchema = z.object({
  revision: z.int(),
  base_url: z.string(),
  /** The snapshot format the bodies are in. */
  engine: z.string(),
  /** The two large bodies, gzip-coded. */
  reviews: BytesSchema,
  insights: BytesSchema,
  /** The insights document with `per_review` as an empty placeholder: what a loading process parses. */
  insights_core: z.string(),
  /** Where each item lies in the two bodies, with its digest, the held fields and the text index. */
  layout: BytesSchema,
  created_at: z.string(),
});
export type StoredSnapshot = z.infer<typeof StoredSnapshotSchema>;

/** The fields of a snapshot that are bytes (one can be larger than a database value may be). */
export type SnapshotBytesField = { [K in keyof StoredSnapshot]: StoredSnapshot[K] extends Buffer ? K : never }[keyof StoredSnapshot];

/**
 * A stored snapshot as the store reads it back: each bytes field in the parts it was stored in, in
 * order (joining them would copy about 100 MB at 100k reviews for nothing: a loader reads across them).
 * The arrays are the caller's: a loader may empty them as it reads, so read parts can be collected.
 */
export type StoredSnapshotParts = Omit<StoredSnapshot, SnapshotBytesField> & Record<SnapshotBytesField, Buffer[]>;

/** The bytes fields, in the schema's order: read from the schema, so a new one cannot be missed. */
export const SNAPSHOT_BYTES_FIELDS = Object.entries(StoredSnapshotSchema.shape)
  .filter(([, schema]) => schema === BytesSchema)
  .map(([name]) => name as SnapshotBytesField);

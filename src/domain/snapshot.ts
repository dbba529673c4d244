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
  /** Where each item lies in the two bodies, with its digest (null in snapshots stored before it existed). */
  layout: BytesSchema.nullable(),
  created_at: z.string(),
});
export type StoredSnapshot = z.infer<typeof StoredSnapshotSchema>;

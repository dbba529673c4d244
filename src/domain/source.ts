import { z } from 'zod';

/** A connected review platform as the store holds it (its sync claim stays inside the store). Times in epoch milliseconds. */
const StoredSourceSchema = z.object({
  name: z.string(),
  kind: z.string(),
  /** JSON of the non-secret settings (the connector's schema parses it), credentials only by env var name or file path. */
  settings: z.string(),
  /** The connector's opaque "changed since" mark of the last successful sync. */
  checkpoint: z.string().nullable(),
  last_full_at: z.number().nullable(),
  due_at: z.number(),
  last_success_at: z.number().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.number().nullable(),
  reviews_seen: z.number(),
  created_at: z.string(),
});
export type StoredSource = z.infer<typeof StoredSourceSchema>;

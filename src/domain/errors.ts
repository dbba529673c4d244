import { z } from 'zod';

const ErrorIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string(),
});
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/** The body of every 4xx/5xx on the REST surface (contract: Error body). */
const ErrorBodySchema = z
  .object({
    error: z.string().describe('short machine-readable code'),
    message: z.string().describe('one human sentence'),
    issues: z.array(ErrorIssueSchema).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Zod issues in the contract's shape (path, message, code), without zod's extra keys. */
export function toErrorIssues(issues: readonly z.core.$ZodIssue[]): ErrorIssue[] {
  return issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
    code: i.code,
  }));
}

/**
 * The service cannot answer yet (no business profile stored, or the first revision still loading):
 * every data surface answers 503 `not_ready` with this message (REST, pages, the hub), never as an
 * internal error, and nothing is logged as a failure.
 */
export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
  readonly statusCode = 503;
  readonly error = 'not_ready';
}

/**
 * A stored snapshot's field (or the corpus image beside it) has a part missing (or none at all), out of place, of
 * another length or past the count its parts record. The server builds instead; a snapshot or image stored for the
 * same revision later replaces the damaged one.
 */
export class DamagedSnapshotError extends Error {
  override readonly name = 'DamagedSnapshotError';
  constructor(
    readonly revision: number,
    readonly field: string,
  ) {
    super(`the stored snapshot of revision ${revision} has a missing or changed part of ${field}`);
  }
}

/**
 * The store could not take its write lock in time: another process (a long CLI import into SQLite) holds
 * it. A write request answers 503 `busy` and may be retried; nothing was written.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
  readonly statusCode = 503;
  readonly error = 'busy';
  constructor(waitedMs: number) {
    super(`The database stayed locked by another writer for ${Math.round(waitedMs / 1000)} s; retry in a moment.`);
  }
}

import { type ChangesQuery, type ChangesResult, decodeCursor, encodeCursor, type Review, type Tombstone } from '../domain/index.js';
import type { ReviewChange } from '../store/index.js';
import type { Catalog } from './catalog.js';

/** The store's read of the change log (`reviewChanges` bound to a database). */
export type ChangesReader = (after: { revision: number; id: string | null }, upTo: number, limit: number) => Promise<ReviewChange[]>;

/**
 * One page of the change feed as of the catalog's revision: the store lists which reviews revisions
 * after the cursor wrote, bounded by the revision being served, and the catalog supplies each one as
 * it is served (so a change entry equals that review in /reviews.json). Rows written by a newer
 * revision this process does not serve yet are left for the page of that revision.
 */
export async function changesPage(c: Catalog, read: ChangesReader, q: ChangesQuery): Promise<ChangesResult> {
  const got = q.after === undefined ? null : decodeCursor(q.after, 'changes', 'after');
  // The schema has checked it; a caller that skipped the schema gets an error, not a wrong page.
  if (got && 'issue' in got) throw new Error(got.issue.message);
  const after = got ? got.cursor : { revision: 0, id: null };
  const now = encodeCursor({ v: 1, k: 'changes', revision: Math.max(c.revision, after.revision), id: null });
  // Caught up (or ahead: a cursor from a replica that already serves a newer revision).
  if (after.revision > c.revision || (after.revision === c.revision && after.id === null))
    return { revision: c.revision, changes: [], next_cursor: null, now_cursor: now };
  const rows = await read(after, c.revision, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const changes: (Review | Tombstone)[] = page.map((row) => {
    const review = row.published ? c.review(row.id) : undefined;
    return review ?? { id: row.id, removed_at: row.revision_created_at };
  });
  const last = page[page.length - 1];
  const next_cursor = rows.length > q.limit ? encodeCursor({ v: 1, k: 'changes', revision: last.revision, id: last.id }) : null;
  return { revision: c.revision, changes, next_cursor, now_cursor: now };
}

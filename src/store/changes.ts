import type { Queryable } from './dialect.js';

/** One row of the change feed: a review as some revision last wrote it (published or removed). */
export interface ReviewChange {
  id: string;
  published: boolean;
  revision: number;
  /** When that revision was made (a removal's removed_at). */
  revision_created_at: string;
}

/**
 * Up to `limit` reviews last written after position `after` (a revision, and within it a review id;
 * null id = after all of that revision) and by revision `upTo` at the latest, in (revision, id) order.
 * Unpublished rows are kept by imports, so a removal is a row here like any other change.
 */
export async function reviewChanges(
  db: Queryable,
  after: { revision: number; id: string | null },
  upTo: number,
  limit: number,
): Promise<ReviewChange[]> {
  const rows = await db
    .selectFrom('reviews')
    .innerJoin('revisions', 'revisions.id', 'reviews.changed_revision')
    .select(['reviews.id', 'reviews.published', 'reviews.changed_revision', 'revisions.created_at'])
    .where('reviews.changed_revision', '<=', upTo)
    .where((eb) =>
      after.id === null
        ? eb('reviews.changed_revision', '>', after.revision)
        : eb(eb.refTuple('reviews.changed_revision', 'reviews.id'), '>', eb.tuple(after.revision, after.id)),
    )
    .orderBy('reviews.changed_revision')
    .orderBy('reviews.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    published: r.published === 1,
    revision: Number(r.changed_revision),
    revision_created_at: r.created_at,
  }));
}

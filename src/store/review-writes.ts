import type { Queryable } from './dialect.js';
import type { ReviewTable } from './schema.js';

/**
 * One review as an import writes it (the store's input type: ingest builds it, the store encodes
 * nothing more). Booleans are 0/1 and id lists JSON text, as stored; `row_hash` is the version that
 * says whether anything changed.
 */
export type ReviewWrite = Omit<ReviewTable, 'changed_revision'>;
export type ReviewUpdate = Omit<ReviewWrite, 'id' | 'first_seen_at'>;

/** What matching an import's rows needs of a stored review. */
export type ReviewIdentity = Pick<
  ReviewTable,
  'id' | 'source' | 'source_review_id' | 'fingerprint' | 'row_hash' | 'content_hash' | 'published' | 'updated_at' | 'first_seen_at'
>;

/** The stored reviews an import's rows may match: all of them, or those sharing a platform id or a fingerprint. */
export type CandidateKeys = 'all' | { platformIds: ReadonlyMap<string, readonly string[]>; fingerprints: readonly string[] };

const BATCH = 500;
const IDENTITY_COLUMNS = [
  'id',
  'source',
  'source_review_id',
  'fingerprint',
  'row_hash',
  'content_hash',
  'published',
  'updated_at',
  'first_seen_at',
] as const;

export async function candidates(db: Queryable, keys: CandidateKeys): Promise<ReviewIdentity[]> {
  if (keys === 'all') return db.selectFrom('reviews').select(IDENTITY_COLUMNS).execute();
  // By (source, platform id), the unique index's order, and by fingerprint, its own index.
  const found = new Map<string, ReviewIdentity>();
  for (const [source, ids] of keys.platformIds) {
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = await db
        .selectFrom('reviews')
        .select(IDENTITY_COLUMNS)
        .where('source', '=', source)
        .where('source_review_id', 'in', ids.slice(i, i + BATCH))
        .execute();
      for (const e of rows) found.set(e.id, e);
    }
  }
  for (let i = 0; i < keys.fingerprints.length; i += BATCH) {
    for (const e of await db
      .selectFrom('reviews')
      .select(IDENTITY_COLUMNS)
      .where('fingerprint', 'in', keys.fingerprints.slice(i, i + BATCH))
      .execute())
      found.set(e.id, e);
  }
  return [...found.values()];
}

/** The writes of one revision: every row written names it, so catalog builds read only what changed after the revision they hold. */
export class ReviewWriter {
  constructor(
    private readonly trx: Queryable,
    private readonly revision: number,
  ) {}

  async insert(rows: readonly ReviewWrite[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((r) => ({ ...r, changed_revision: this.revision }));
      await this.trx.insertInto('reviews').values(batch).execute();
    }
  }

  async update(id: string, set: ReviewUpdate): Promise<void> {
    await this.trx
      .updateTable('reviews')
      .set({ ...set, changed_revision: this.revision })
      .where('id', '=', id)
      .execute();
  }

  async unpublish(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH) {
      await this.trx
        .updateTable('reviews')
        .set({ published: 0, row_hash: '', changed_revision: this.revision })
        .where('id', 'in', ids.slice(i, i + BATCH))
        .execute();
    }
  }
}

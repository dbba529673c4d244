import type { StoredReview } from '../domain/index.js';
import { IDENTITY_COLUMNS, identityOf, insertRow, updateRow } from './codec.js';
import type { Queryable } from './dialect.js';

/**
 * A review's imported fields, shaped as its stored record (the store encodes them): what an import
 * writes and what a review's version is a hash of.
 */
export type ReviewFields = Omit<StoredReview, 'id' | 'first_seen_at' | 'updated_at' | 'version' | 'changed_revision'> & {
  /** Same source, author, day and text: how a review without a platform id is recognised. */
  fingerprint: string;
  /** Hash of the fields whose change bumps updated_at (text, rating, owner reply). */
  content_hash: string;
};

/** One review as an import writes it (the store's input type); `version` is `reviewVersion` of the import's fields. */
export type ReviewInput = ReviewFields & Pick<StoredReview, 'id' | 'first_seen_at' | 'updated_at' | 'version'>;
export type ReviewUpdate = Omit<ReviewInput, 'id' | 'first_seen_at'>;

/** What matching an import's rows needs of a stored review. */
export type ReviewIdentity = Pick<
  ReviewInput,
  'id' | 'source' | 'source_review_id' | 'fingerprint' | 'version' | 'content_hash' | 'published' | 'updated_at' | 'first_seen_at'
>;

/** The stored reviews an import's rows may match: all of them, or those sharing a platform id or a fingerprint. */
export type CandidateKeys = 'all' | { platformIds: ReadonlyMap<string, readonly string[]>; fingerprints: readonly string[] };

const BATCH = 500;

export async function candidates(db: Queryable, keys: CandidateKeys): Promise<ReviewIdentity[]> {
  if (keys === 'all') return (await db.selectFrom('reviews').select(IDENTITY_COLUMNS).execute()).map(identityOf);
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
      for (const e of rows) found.set(e.id, identityOf(e));
    }
  }
  for (let i = 0; i < keys.fingerprints.length; i += BATCH) {
    for (const e of await db
      .selectFrom('reviews')
      .select(IDENTITY_COLUMNS)
      .where('fingerprint', 'in', keys.fingerprints.slice(i, i + BATCH))
      .execute())
      found.set(e.id, identityOf(e));
  }
  return [...found.values()];
}

/** The writes of one revision: every row written names it, so catalog builds read only what changed after the revision they hold. */
export class ReviewWriter {
  constructor(
    private readonly trx: Queryable,
    private readonly revision: number,
  ) {}

  async insert(rows: readonly ReviewInput[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH).map((r) => ({ ...insertRow(r), changed_revision: this.revision }));
      await this.trx.insertInto('reviews').values(batch).execute();
    }
  }

  async update(id: string, set: ReviewUpdate): Promise<void> {
    await this.trx
      .updateTable('reviews')
      .set({ ...updateRow(set), changed_revision: this.revision })
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

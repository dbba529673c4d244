import { hashOf, type StoredAnalysis, type StoredReview, StoredReviewSchema, type StoredSource } from '../domain/index.js';
import type { ReviewFields, ReviewIdentity, ReviewInput, ReviewUpdate } from './review-writes.js';
import type { EncodedReviewField, RecordRow, ReviewAnalysisTable, ReviewSourceTable, ReviewTable } from './schema.js';

/**
 * The one place that knows a review row's encoding (0/1 booleans, JSON id lists, the owner reply's two
 * columns), both ways. Fields stored as they are pass through by name, so a new review field needs a
 * column, not code here.
 */

/** The columns in the order stored versions were hashed in: a version must not move, so this order stays. */
const VERSION_ORDER = [
  'source',
  'source_review_id',
  'fingerprint',
  'author',
  'author_avatar_url',
  'rating',
  'date',
  'text',
  'source_url',
  'owner_reply_text',
  'owner_reply_date',
  'verified',
  'published',
  'published_at',
  'title',
  'language',
  'technicians',
  'services',
  'service_area',
  'verification_method',
  'content_hash',
] as const;

/** A review's imported fields as columns, in VERSION_ORDER; a field added later follows. */
function fieldColumns(f: ReviewFields & Partial<Pick<ReviewInput, 'id' | 'first_seen_at' | 'updated_at' | 'version'>>) {
  const { id, first_seen_at, updated_at, version, owner_reply, verified, published, technicians, services, verification, ...plain } = f;
  const columns = {
    ...plain,
    owner_reply_text: owner_reply?.text ?? null,
    owner_reply_date: owner_reply?.date ?? null,
    verified: verified ? 1 : 0,
    published: published ? 1 : 0,
    technicians: JSON.stringify(technicians),
    services: JSON.stringify(services),
    verification_method: verification.method,
  };
  const ordered: Record<string, unknown> = {};
  for (const k of VERSION_ORDER) ordered[k] = columns[k];
  return Object.assign(ordered, columns) as typeof columns;
}

/** The version of a review's imported fields with this updated_at: equal versions mean nothing to write. */
export const reviewVersion = (fields: ReviewFields, updated_at: string): string => hashOf([fieldColumns(fields), updated_at]);

/** A changed review's columns (its id and first sighting stay). */
export const updateRow = (r: ReviewUpdate): Omit<ReviewTable, 'id' | 'first_seen_at' | 'changed_revision'> => ({
  ...fieldColumns(r),
  updated_at: r.updated_at,
  row_hash: r.version,
});

export const insertRow = (r: ReviewInput): Omit<ReviewTable, 'changed_revision'> => ({
  id: r.id,
  ...updateRow(r),
  first_seen_at: r.first_seen_at,
});

/**
 * The record of a row, field by field in the schema's order (a literal: reading 100k rows stays cheap);
 * a field added later is copied by reviewOf.
 */
const namedFields = (row: RecordRow): StoredReview =>
  ({
    id: row.id,
    author: row.author,
    author_avatar_url: row.author_avatar_url,
    rating: row.rating,
    date: row.date,
    text: row.text,
    source: row.source,
    source_url: row.source_url,
    owner_reply:
      row.owner_reply_text != null && row.owner_reply_date != null ? { text: row.owner_reply_text, date: row.owner_reply_date } : null,
    verified: row.verified === 1,
    published_at: row.published_at,
    updated_at: row.updated_at,
    first_seen_at: row.first_seen_at,
    title: row.title,
    language: row.language,
    technicians: JSON.parse(row.technicians) as string[],
    services: JSON.parse(row.services) as string[],
    service_area: row.service_area,
    verification: { method: row.verification_method },
    source_review_id: row.source_review_id,
    published: row.published === 1,
    version: row.row_hash,
    changed_revision: row.changed_revision,
  }) satisfies Partial<StoredReview> as StoredReview;

/** Record fields stored as they are that namedFields does not list (added later): copied by name, after the others. */
const LATER_FIELDS = (() => {
  const named = new Set(Object.keys(namedFields({ technicians: '[]', services: '[]' } as RecordRow)));
  return Object.keys(StoredReviewSchema.shape).filter((k) => !named.has(k)) as (keyof RecordRow & keyof StoredReview)[];
})();

/** The columns each encoded field of the record is read from (namedFields). */
const ENCODED_COLUMNS = {
  owner_reply: ['owner_reply_text', 'owner_reply_date'],
  verified: ['verified'],
  published: ['published'],
  technicians: ['technicians'],
  services: ['services'],
  verification: ['verification_method'],
  version: ['row_hash'],
} as const satisfies Record<EncodedReviewField, readonly (keyof RecordRow)[]>;

/**
 * The columns a record is read from, in the record's order: a field stored as it is by its name, so a new
 * one is read without code here. Not the matching keys (two hashes a row, which only the import reads):
 * at 100k reviews they were a sixth of the time better-sqlite3 took to make a full read's values.
 */
export const RECORD_COLUMNS = Object.keys(StoredReviewSchema.shape).flatMap(
  (k): readonly (keyof RecordRow)[] => (ENCODED_COLUMNS as Record<string, readonly (keyof RecordRow)[]>)[k] ?? [k as keyof RecordRow],
);

/**
 * A review row as the record the rest of the service reads. Each row is converted once, as it is read,
 * and only the record is kept.
 */
export function reviewOf(row: RecordRow): StoredReview {
  const record = namedFields(row);
  for (const k of LATER_FIELDS) (record as Record<string, unknown>)[k] = row[k];
  return record;
}

/** What matching an import's rows needs of a stored review. */
export const identityOf = (row: Pick<ReviewTable, IdentityColumn>): ReviewIdentity => ({
  id: row.id,
  source: row.source,
  source_review_id: row.source_review_id,
  fingerprint: row.fingerprint,
  version: row.row_hash,
  content_hash: row.content_hash,
  published: row.published === 1,
  updated_at: row.updated_at,
  first_seen_at: row.first_seen_at,
});

export const IDENTITY_COLUMNS = [
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
type IdentityColumn = (typeof IDENTITY_COLUMNS)[number];

export const analysisOf = (row: Pick<ReviewAnalysisTable, 'review_id' | 'content_hash' | 'analysis'>): StoredAnalysis => ({
  review_id: row.review_id,
  key: row.content_hash,
  analysis: row.analysis,
});

/** A source row as its record: without the sync claim, epoch times as numbers (PostgreSQL may read a bigint as text). */
export const sourceOf = (row: ReviewSourceTable): StoredSource => ({
  name: row.name,
  kind: row.kind,
  settings: row.settings,
  checkpoint: row.checkpoint,
  last_full_at: row.last_full_at == null ? null : Number(row.last_full_at),
  due_at: Number(row.due_at),
  last_success_at: row.last_success_at == null ? null : Number(row.last_success_at),
  last_error: row.last_error,
  last_error_at: row.last_error_at == null ? null : Number(row.last_error_at),
  reviews_seen: Number(row.reviews_seen),
  created_at: row.created_at,
});

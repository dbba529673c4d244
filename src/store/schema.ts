import type { Generated } from 'kysely';
import type { SnapshotBytesField, StoredReview, StoredSnapshot } from '../domain/index.js';

/** Row types. Timestamps are RFC 3339 text and booleans 0/1 integers on both engines, so rows read back identically. */
export interface BusinessTable {
  id: string;
  profile: string;
  updated_at: string;
}

/**
 * A review's row: the stored record's fields as they are, except those encoded into columns (0/1
 * booleans, JSON id lists, the owner reply's two columns) and the matching keys only the store reads.
 * Derived from the record, so a new review field is a new column here without writing it twice.
 */
export type ReviewTable = Omit<StoredReview, EncodedReviewField> & {
  owner_reply_text: string | null;
  owner_reply_date: string | null;
  verified: number;
  published: number;
  /** JSON arrays of ids given explicitly by the import; text mentions are added when the catalog is built. */
  technicians: string;
  services: string;
  verification_method: string;
  /** Same source, author, day and text: how a review without a platform id is recognised. */
  fingerprint: string;
  /** Hash of the fields whose change bumps updated_at (text, rating, owner reply). */
  content_hash: string;
  /** The record's `version`: hash of every imported field; equal means the row is unchanged and nothing is written. */
  row_hash: string;
};

/** The columns a review's record is read from: all but the matching keys only the import reads (codec.ts RECORD_COLUMNS). */
export type RecordRow = Omit<ReviewTable, 'fingerprint' | 'content_hash'>;

/** The record's fields a review row stores encoded (see ReviewTable). */
export type EncodedReviewField = 'owner_reply' | 'verified' | 'published' | 'technicians' | 'services' | 'verification' | 'version';

export interface RevisionTable {
  id: Generated<number>;
  created_at: string;
  reason: string;
}

export interface ReviewAnalysisTable {
  review_id: string;
  engine: string;
  content_hash: string;
  analysis: string;
}

/** One revision's snapshot for one public base URL and snapshot format: the domain's record without its bytes (stored in parts). */
export type CatalogSnapshotTable = Omit<StoredSnapshot, SnapshotBytesField>;

/** One part of one bytes field of a stored snapshot: the field is its parts joined in `seq` order. */
export interface CatalogSnapshotPartTable extends Pick<StoredSnapshot, 'revision' | 'base_url' | 'engine'> {
  /** A bytes field of the snapshot, or `corpus`: the corpus image stored after it (snapshots.ts). */
  name: SnapshotBytesField | 'corpus';
  seq: number;
  /** The field's part count and total byte size, the same on each of its parts (a part lost from the end is seen). */
  field_parts: number;
  field_bytes: number;
  bytes: Buffer;
}

/** A token bucket: `tokens` left at time `at` (epoch ms); `allowed` is the outcome of the last take. */
export interface RateLimitTable {
  key: string;
  tokens: number;
  at: number;
  allowed: number;
}

/** A session-era MCP session; times in epoch milliseconds. */
export interface McpSessionTable {
  id: string;
  protocol_version: string;
  created_at: number;
  last_seen_at: number;
}

export interface Database {
  business: BusinessTable;
  reviews: ReviewTable;
  revisions: RevisionTable;
  review_analysis: ReviewAnalysisTable;
  catalog_snapshots: CatalogSnapshotTable;
  catalog_snapshot_parts: CatalogSnapshotPartTable;
  rate_limits: RateLimitTable;
  mcp_sessions: McpSessionTable;
  websub_subscriptions: WebsubSubscriptionTable;
  websub_verifications: WebsubVerificationTable;
  websub_deliveries: WebsubDeliveryTable;
  websub_topics: WebsubTopicTable;
  review_sources: ReviewSourceTable;
  write_notices: WriteNoticeTable;
}

/** How many writes have been announced (store.announceWrite): one row. */
export interface WriteNoticeTable {
  id: number;
  seq: number;
}

/** A connected review platform (see store/sources.ts). Times in epoch milliseconds. */
export interface ReviewSourceTable {
  name: string;
  kind: string;
  /** JSON of the non-secret settings, credentials only by env var name or file path. */
  settings: string;
  /** The connector's opaque "changed since" mark of the last successful sync. */
  checkpoint: string | null;
  last_full_at: number | null;
  due_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_success_at: number | null;
  last_error: string | null;
  last_error_at: number | null;
  reviews_seen: number;
  created_at: string;
}

/** An active (verified) WebSub subscription. Times in epoch milliseconds. */
export interface WebsubSubscriptionTable {
  id: Generated<number>;
  topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number;
  expires_at: number;
  /** Consecutive failed delivery attempts; a success resets it. */
  failures: number;
  last_delivered_etag: string | null;
  created_at: string;
  updated_at: string;
}

/** A subscribe/unsubscribe request waiting for its verification of intent. */
export interface WebsubVerificationTable {
  id: Generated<number>;
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number | null;
  /** Bumped when a newer request for the same (topic, callback) replaces this one. */
  seq: number;
  due_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  created_at: string;
}

/** "Send the current content of this topic to this subscription": one row per subscription at most. */
export interface WebsubDeliveryTable {
  subscription_id: number;
  topic: string;
  /** ETag of the topic when the job was (re)queued; a newer revision overwrites it. */
  etag: string;
  /** Catalog revision that queued it: a replica still serving an older revision leaves the job alone. */
  revision: number;
  attempts: number;
  due_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  created_at: string;
}

/** The last announced ETag per topic, so a restart neither re-announces nor misses a revision. */
export interface WebsubTopicTable {
  topic: string;
  etag: string;
  revision: number;
  announced_at: string;
}

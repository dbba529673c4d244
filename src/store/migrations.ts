import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DialectAdapter } from './dialect.js';

type ColumnTypes = DialectAdapter['columnTypes'];

/**
 * Migrations live in code (not files found at run time) so they work the same from tsx, a bundle or
 * an installed package. Add new ones at the end; never edit one that has shipped.
 */
export function migrations({ autoId, idRef, bytes }: ColumnTypes): Record<string, Migration> {
  return {
    '0001_core': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('business')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('profile', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('reviews')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('source_review_id', 'text')
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('author', 'text', (c) => c.notNull())
          .addColumn('author_avatar_url', 'text')
          .addColumn('rating', 'integer', (c) => c.notNull())
          .addColumn('date', 'text', (c) => c.notNull())
          .addColumn('text', 'text')
          .addColumn('source_url', 'text')
          .addColumn('owner_reply_text', 'text')
          .addColumn('owner_reply_date', 'text')
          .addColumn('verified', 'integer', (c) => c.notNull())
          .addColumn('published', 'integer', (c) => c.notNull())
          .addColumn('published_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('first_seen_at', 'text', (c) => c.notNull())
          .addColumn('title', 'text')
          .addColumn('language', 'text')
          .addColumn('technicians', 'text', (c) => c.notNull())
          .addColumn('services', 'text', (c) => c.notNull())
          .addColumn('service_area', 'text')
          .addColumn('verification_method', 'text', (c) => c.notNull())
          .addColumn('content_hash', 'text', (c) => c.notNull())
          .addColumn('row_hash', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('reviews_source_key').unique().on('reviews').columns(['source', 'source_review_id']).execute();
        await db.schema.createIndex('reviews_fingerprint').on('reviews').column('fingerprint').execute();
        await db.schema.createIndex('reviews_published_date').on('reviews').columns(['published', 'date']).execute();
        await db.schema
          .createTable('revisions')
          .addColumn('id', sql.raw(autoId) as any)
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('reason', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('review_analysis')
          .addColumn('review_id', 'text', (c) => c.primaryKey())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('content_hash', 'text', (c) => c.notNull())
          .addColumn('analysis', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_websub': {
      async up(db: Kysely<any>) {
        // Times the hub schedules by (expiry, due, claim) are epoch milliseconds so both engines compare numbers.
        await db.schema
          .createTable('websub_subscriptions')
          .addColumn('id', sql.raw(autoId) as any)
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('callback', 'text', (c) => c.notNull())
          .addColumn('secret', 'text')
          .addColumn('lease_seconds', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_delivered_etag', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('websub_subscriptions_topic_callback', ['topic', 'callback'])
          .execute();
        await db.schema.createIndex('websub_subscriptions_expiry').on('websub_subscriptions').columns(['topic', 'expires_at']).execute();
        await db.schema
          .createTable('websub_verifications')
          .addColumn('id', sql.raw(autoId) as any)
          .addColumn('mode', 'text', (c) => c.notNull())
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('callback', 'text', (c) => c.notNull())
          .addColumn('secret', 'text')
          .addColumn('lease_seconds', 'integer')
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('due_at', 'bigint', (c) => c.notNull())
          .addColumn('claimed_until', 'bigint')
          .addColumn('claim_token', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('websub_verifications_topic_callback', ['topic', 'callback'])
          .execute();
        await db.schema.createIndex('websub_verifications_due').on('websub_verifications').column('due_at').execute();
        await db.schema
          .createTable('websub_deliveries')
          .addColumn('subscription_id', sql.raw(idRef) as any, (c) =>
            c.primaryKey().references('websub_subscriptions.id').onDelete('cascade'),
          )
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('etag', 'text', (c) => c.notNull())
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('due_at', 'bigint', (c) => c.notNull())
          .addColumn('claimed_until', 'bigint')
          .addColumn('claim_token', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('websub_deliveries_due').on('websub_deliveries').column('due_at').execute();
        await db.schema
          .createTable('websub_topics')
          .addColumn('topic', 'text', (c) => c.primaryKey())
          .addColumn('etag', 'text', (c) => c.notNull())
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('announced_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0003_catalog_snapshots': {
      async up(db: Kysely<any>) {
        // The rendered bodies of a revision, so a restart or another replica serves the same bytes without rebuilding.
        // Bodies are bytes (served as they are); insights_core is the insights without per_review, the part parsed at load.
        await db.schema
          .createTable('catalog_snapshots')
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('base_url', 'text', (c) => c.notNull())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('reviews', sql.raw(bytes), (c) => c.notNull())
          .addColumn('insights', sql.raw(bytes), (c) => c.notNull())
          .addColumn('insights_core', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('catalog_snapshots_pk', ['revision', 'base_url', 'engine'])
          .execute();
      },
    },
    '0004_rate_limits': {
      async up(db: Kysely<any>) {
        // Token buckets in the store, so a limit holds across every replica that shares it.
        await db.schema
          .createTable('rate_limits')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('tokens', 'double precision', (c) => c.notNull())
          .addColumn('at', 'bigint', (c) => c.notNull())
          .addColumn('allowed', 'integer', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('rate_limits_at').on('rate_limits').column('at').execute();
      },
    },
    '0005_mcp_sessions': {
      async up(db: Kysely<any>) {
        // Session-era MCP sessions shared by replicas: any replica accepts a session another created.
        await db.schema
          .createTable('mcp_sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('protocol_version', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('mcp_sessions_last_seen').on('mcp_sessions').column('last_seen_at').execute();
      },
    },
    '0006_review_changes': {
      async up(db: Kysely<any>) {
        // The revision that last wrote each row, so a catalog build reads only what changed since the
        // revision it already holds. Rows written before this column are null: a first build reads all.
        await db.schema.alterTable('reviews').addColumn('changed_revision', 'integer').execute();
        await db.schema.createIndex('reviews_changed_revision').on('reviews').column('changed_revision').execute();
      },
    },
    '0007_snapshot_layout': {
      async up(db: Kysely<any>) {
        // Where each review and analysis lies in the stored bodies (and their digests), so a process
        // that loads a snapshot can build the next revision on it instead of reading everything.
        await db.schema.alterTable('catalog_snapshots').addColumn('layout', sql.raw(bytes)).execute();
      },
    },
    '0009_changed_rows_by_page': {
      async up(db: Kysely<any>) {
        // A build reads the rows changed since its revision a page at a time, in (changed_revision, id)
        // order: this index serves each page directly instead of sorting every changed row per page.
        await db.schema.dropIndex('reviews_changed_revision').execute();
        await db.schema.createIndex('reviews_changed_revision_id').on('reviews').columns(['changed_revision', 'id']).execute();
      },
    },
    '0010_review_sources': {
      async up(db: Kysely<any>) {
        // Connected review platforms: non-secret settings, the sync checkpoint and the claim a worker holds
        // while it syncs one (times in epoch ms). Credentials are never stored, only where to read them.
        await db.schema
          .createTable('review_sources')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('settings', 'text', (c) => c.notNull())
          .addColumn('checkpoint', 'text')
          .addColumn('last_full_at', 'bigint')
          .addColumn('due_at', 'bigint', (c) => c.notNull())
          .addColumn('claimed_until', 'bigint')
          .addColumn('claim_token', 'text')
          .addColumn('last_success_at', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('last_error_at', 'bigint')
          .addColumn('reviews_seen', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0011_snapshot_parts': {
      async up(db: Kysely<any>) {
        // A snapshot's bytes in parts of bounded size: at a million reviews one body passes what one
        // value may hold (SQLite: 1,000,000,000 bytes; the PostgreSQL client reads a bytea as hex text,
        // a V8 string). Snapshots stored in the old form are dropped: the next start builds its
        // revision once and stores it in this one.
        await db.schema.dropTable('catalog_snapshots').execute();
        await db.schema
          .createTable('catalog_snapshots')
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('base_url', 'text', (c) => c.notNull())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('insights_core', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('catalog_snapshots_pk', ['revision', 'base_url', 'engine'])
          .execute();
        await db.schema
          .createTable('catalog_snapshot_parts')
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('base_url', 'text', (c) => c.notNull())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('bytes', sql.raw(bytes), (c) => c.notNull())
          .addPrimaryKeyConstraint('catalog_snapshot_parts_pk', ['revision', 'base_url', 'engine', 'name', 'seq'])
          .execute();
      },
    },
    '0012_write_notices': {
      async up(db: Kysely<any>) {
        // One counter a writer bumps before the long part of its work (analysing what it will write). Its
        // row is made by the first announcement (an upsert): one statement here, safe to be killed in.
        await db.schema
          .createTable('write_notices')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('seq', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0013_snapshot_part_totals': {
      async up(db: Kysely<any>) {
        // Every part names its field's part count and byte size, so a part gone from the end of a field is
        // seen (counted from the rows left, the field looked whole). Snapshots stored without them are
        // dropped: the next start builds its revision once and stores it in this form.
        // If exists: Kysely runs SQLite's migrations without a transaction, so a crash after the drop reruns this.
        await db.schema.dropTable('catalog_snapshot_parts').ifExists().execute();
        await db.deleteFrom('catalog_snapshots').execute();
        await db.schema
          .createTable('catalog_snapshot_parts')
          .addColumn('revision', 'integer', (c) => c.notNull())
          .addColumn('base_url', 'text', (c) => c.notNull())
          .addColumn('engine', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('field_parts', 'integer', (c) => c.notNull())
          .addColumn('field_bytes', 'bigint', (c) => c.notNull())
          .addColumn('bytes', sql.raw(bytes), (c) => c.notNull())
          .addPrimaryKeyConstraint('catalog_snapshot_parts_pk', ['revision', 'base_url', 'engine', 'name', 'seq'])
          .execute();
      },
    },
  };
}

export async function migrateToLatest(db: Kysely<any>, types: ColumnTypes): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(types) };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

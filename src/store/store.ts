import { type Kysely, sql, type Transaction } from 'kysely';
import { type Business, BusinessSchema } from '../domain/index.js';
import { type Connection, connect, connectReader, type Dialect } from './connect.js';
import { migrateToLatest } from './migrations.js';
import { REVISION_CHANNEL, RevisionListener } from './revision-listener.js';
import type { CatalogSnapshotTable, Database, ReviewAnalysisTable, ReviewTable } from './schema.js';

export type Tx = Transaction<Database> | Kysely<Database>;
export interface Revision {
  id: number;
  created_at: string;
}

const BUSINESS_ROW = 'default';
/** Rows per page of the paged reads: a few milliseconds of work each (SQLite reads run on the caller's thread). */
const PAGE = 250;

/** Keyset paging: each page starts after the previous page's last key; a short page is the last one. */
async function* keysetPages<T, K>(read: (after: K | null) => Promise<T[]>, keyOf: (row: T) => K, size: number): AsyncGenerator<T[]> {
  let after: K | null = null;
  for (;;) {
    const page = await read(after);
    if (page.length > 0) yield page;
    if (page.length < size) return;
    after = keyOf(page[page.length - 1]);
  }
}

/** The durable store: one business, its reviews, data revisions, stored analyses (and, later, hub state). */
export class Store {
  private reader: Kysely<Database> | null = null;

  private constructor(readonly conn: Connection) {}

  static async open(url: string, opts: { poolSize?: number } = {}): Promise<Store> {
    const conn = connect(url, opts);
    await migrateToLatest(conn.db, conn.dialect);
    return new Store(conn);
  }

  get db(): Kysely<Database> {
    return this.conn.db;
  }
  /** Where the data lives, safe to log: a file path, or the PostgreSQL URL without its password. */
  get location(): string {
    if (this.dialect !== 'postgres') return this.conn.url;
    const url = new URL(this.conn.url);
    if (url.password) url.password = '***';
    return url.toString();
  }
  get dialect(): Dialect {
    return this.conn.dialect;
  }

  transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /**
   * A read-only view of one consistent moment (PostgreSQL: repeatable read; SQLite: one read
   * transaction, on a connection of its own so a long read does not hold up other queries).
   */
  snapshot<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.db.transaction().setIsolationLevel('repeatable read').execute(fn);
    this.reader ??= connectReader(this.conn.url);
    return this.reader.transaction().execute(fn);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.reader?.destroy();
    await this.db.destroy();
  }

  async getBusiness(trx: Tx = this.db): Promise<Business | null> {
    const row = await trx.selectFrom('business').select('profile').where('id', '=', BUSINESS_ROW).executeTakeFirst();
    return row ? BusinessSchema.parse(JSON.parse(row.profile)) : null;
  }

  /** Stores the profile; a changed profile is a new data revision. Returns that revision, or null if unchanged. */
  async setBusiness(business: Business, now: string): Promise<Revision | null> {
    const profile = JSON.stringify(business);
    return this.transaction(async (trx) => {
      await this.lockWrites(trx);
      const row = await trx.selectFrom('business').select('profile').where('id', '=', BUSINESS_ROW).executeTakeFirst();
      if (row?.profile === profile) return null;
      if (row) await trx.updateTable('business').set({ profile, updated_at: now }).where('id', '=', BUSINESS_ROW).execute();
      else await trx.insertInto('business').values({ id: BUSINESS_ROW, profile, updated_at: now }).execute();
      return this.addRevision(trx, now, 'business profile');
    });
  }

  /**
   * Serializes the transactions that write data revisions (imports, profile changes): on PostgreSQL
   * two could otherwise commit out of id order, or miss each other's new rows. SQLite has one writer anyway.
   */
  async lockWrites(trx: Tx): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('reviewcast_revision'))`.execute(trx);
  }

  async addRevision(trx: Tx, now: string, reason: string): Promise<Revision> {
    const { id } = await trx.insertInto('revisions').values({ created_at: now, reason }).returning('id').executeTakeFirstOrThrow();
    // PostgreSQL delivers the notification at commit, so listeners never see a revision before its data.
    if (this.dialect === 'postgres') await sql`select pg_notify(${REVISION_CHANNEL}, ${String(id)})`.execute(trx);
    return { id: Number(id), created_at: now };
  }

  /** Calls `onRevision` when another process commits a revision (PostgreSQL only; null on SQLite). */
  listenForRevisions(onRevision: () => void, onError: (err: Error) => void): RevisionListener | null {
    if (this.dialect !== 'postgres') return null;
    const listener = new RevisionListener(this.conn.url, onRevision, onError);
    listener.start();
    return listener;
  }

  async latestRevision(trx: Tx = this.db): Promise<Revision | null> {
    const row = await trx.selectFrom('revisions').select(['id', 'created_at']).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? { id: Number(row.id), created_at: row.created_at } : null;
  }

  /**
   * Rows written by revisions after `revision`, published or not (an unpublished one is a removal):
   * with the revision a previous read saw, exactly what changed since then. A page at a time: each
   * page is one short query, so a caller that serves requests can pause between pages (SQLite reads
   * block the thread that runs them).
   */
  async *reviewsChangedAfterPages(revision: number, trx: Tx = this.db, size = PAGE): AsyncGenerator<ReviewTable[]> {
    yield* keysetPages<ReviewTable, [number, string]>(
      (after) =>
        trx
          .selectFrom('reviews')
          .selectAll()
          .where('changed_revision', '>', revision)
          .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('changed_revision', 'id'), '>', eb.tuple(after![0], after![1]))))
          .orderBy('changed_revision')
          .orderBy('id')
          .limit(size)
          .execute(),
      (last) => [last.changed_revision!, last.id],
      size,
    );
  }

  /** Every published review, a page at a time (by id). */
  async *publishedReviewPages(trx: Tx = this.db, size = PAGE): AsyncGenerator<ReviewTable[]> {
    // Paged by the primary key alone, filtered here: with `published` in the query SQLite picks that
    // index and sorts every published row for each page.
    const pages = keysetPages<ReviewTable, string>(
      (after) =>
        trx
          .selectFrom('reviews')
          .selectAll()
          .$if(after !== null, (q) => q.where('id', '>', after!))
          .orderBy('id')
          .limit(size)
          .execute(),
      (last) => last.id,
      size,
    );
    for await (const page of pages) {
      const published = page.filter((r) => r.published === 1);
      if (published.length > 0) yield published;
    }
  }

  /** Stored analyses, a page at a time: of these reviews, or (without ids) all of them. */
  async *analysisPages(reviewIds: string[] | null, trx: Tx = this.db, size = PAGE): AsyncGenerator<ReviewAnalysisTable[]> {
    if (reviewIds) {
      for (let i = 0; i < reviewIds.length; i += 500)
        yield await trx
          .selectFrom('review_analysis')
          .selectAll()
          .where('review_id', 'in', reviewIds.slice(i, i + 500))
          .execute();
      return;
    }
    yield* keysetPages<ReviewAnalysisTable, string>(
      (after) =>
        trx
          .selectFrom('review_analysis')
          .selectAll()
          .$if(after !== null, (q) => q.where('review_id', '>', after!))
          .orderBy('review_id')
          .limit(size)
          .execute(),
      (last) => last.review_id,
      size,
    );
  }

  async publishedCount(trx: Tx = this.db): Promise<number> {
    const row = await trx
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('published', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async reviewCount(trx: Tx = this.db): Promise<number> {
    const row = await trx
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async loadSnapshot(revision: number, baseUrl: string, engine: string): Promise<CatalogSnapshotTable | null> {
    const row = await this.db
      .selectFrom('catalog_snapshots')
      .selectAll()
      .where('revision', '=', revision)
      .where('base_url', '=', baseUrl)
      .where('engine', '=', engine)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Keep the first snapshot written for a revision (every builder renders the same bytes); drop old revisions'. */
  async saveSnapshot(snap: CatalogSnapshotTable): Promise<void> {
    await this.transaction(async (trx) => {
      await trx
        .insertInto('catalog_snapshots')
        .values(snap)
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .deleteFrom('catalog_snapshots')
        .where('revision', '<', snap.revision - 1)
        .execute();
    });
  }

  async saveAnalyses(rows: readonly ReviewAnalysisTable[], trx: Tx = this.db): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('review_analysis')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.column('review_id').doUpdateSet((eb) => ({
            engine: eb.ref('excluded.engine'),
            content_hash: eb.ref('excluded.content_hash'),
            analysis: eb.ref('excluded.analysis'),
          })),
        )
        .execute();
    }
  }
}

import { sql } from 'kysely';
import {
  type Business,
  BusinessSchema,
  type StoredAnalysis,
  type StoredReview,
  type StoredSnapshot,
  type StoredSnapshotParts,
} from '../domain/index.js';
import { type AnalysisContext, type AnalysisWrite, analysisKey } from './analyses.js';
import { type ReviewChange, reviewChanges } from './changes.js';
import { analysisOf, RECORD_COLUMNS, reviewOf } from './codec.js';
import { connect } from './connect.js';
import type { ConnectOptions, Db, DialectAdapter, Listener, Queryable } from './dialect.js';
import { HubDeliveryRepository } from './hub-deliveries.js';
import { HubSubscriptionRepository } from './hub-subscriptions.js';
import { HubVerificationRepository } from './hub-verifications.js';
import { McpSessionRepository } from './mcp-sessions.js';
import { migrateToLatest } from './migrations.js';
import { type RateLimitRepository, rateLimitsFor } from './rate-limits.js';
import { type CandidateKeys, candidates, type ReviewIdentity, ReviewWriter } from './review-writes.js';
import type { RecordRow, ReviewAnalysisTable } from './schema.js';
import {
  corpusImage,
  newestSnapshot,
  SNAPSHOT_PART_BYTES,
  type SnapshotKey,
  type SnapshotReading,
  saveCorpusImage,
  saveSnapshot,
} from './snapshots.js';
import { SourceRepository } from './sources.js';

export interface StoreOptions extends ConnectOptions {
  /** The largest part a snapshot's bytes are stored in (tests make it small to store many parts). */
  snapshotPartBytes?: number;
}

export interface Revision {
  id: number;
  created_at: string;
}

/** A pending analysis: the review's analysable fields and the version they are of. */
export type PendingAnalysis = Pick<StoredReview, 'id' | 'text' | 'title' | 'rating' | 'language' | 'version'>;

/** The writes of one data revision, inside one transaction that holds the revision lock. */
export interface RevisionWrite {
  /** The stored reviews an import's rows may match, as of this transaction. */
  candidates(keys: CandidateKeys): Promise<ReviewIdentity[]>;
  /** Makes the revision (once, when something is to change) and returns the writer whose rows name it. */
  begin(now: string, reason: string): Promise<{ revision: Revision; reviews: ReviewWriter }>;
  saveAnalyses(items: readonly AnalysisWrite[], ctx: AnalysisContext): Promise<void>;
}

const REVISION_CHANNEL = 'reviewcast_revision';
const BUSINESS_ROW = 'default';
/** Rows per page of the paged reads: a few milliseconds of work each (SQLite reads run on the caller's thread). */
const PAGE = 100;

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

/** Reads that run alone or inside one consistent read. */
class Reads {
  constructor(protected readonly q: Queryable) {}

  async getBusiness(): Promise<Business | null> {
    const row = await this.q.selectFrom('business').select('profile').where('id', '=', BUSINESS_ROW).executeTakeFirst();
    return row ? BusinessSchema.parse(JSON.parse(row.profile)) : null;
  }

  /**
   * What a server watching the store checks each time, in one read: the newest revision, and how many
   * writes have been announced so far (Store.announceWrite: a count that only grows).
   */
  async watched(): Promise<{ latest: Revision | null; notices: number }> {
    const row = await this.q
      .selectNoFrom((eb) => [
        eb.selectFrom('revisions').select('id').orderBy('id', 'desc').limit(1).as('id'),
        eb.selectFrom('revisions').select('created_at').orderBy('id', 'desc').limit(1).as('created_at'),
        eb.selectFrom('write_notices').select('seq').where('id', '=', 1).as('notices'),
      ])
      .executeTakeFirstOrThrow();
    const latest = row.id === null ? null : { id: Number(row.id), created_at: row.created_at as string };
    return { latest, notices: Number(row.notices ?? 0) };
  }

  async latestRevision(): Promise<Revision | null> {
    const row = await this.q.selectFrom('revisions').select(['id', 'created_at']).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? { id: Number(row.id), created_at: row.created_at } : null;
  }

  /**
   * Rows written by revisions after `revision`, published or not (an unpublished one is a removal):
   * with the revision a previous read saw, exactly what changed since then. A page at a time: each
   * page is one short query, so a caller that serves requests can pause between pages (SQLite reads
   * block the thread that runs them).
   */
  async *reviewsChangedAfterPages(revision: number, size = PAGE): AsyncGenerator<StoredReview[]> {
    const pages = keysetPages<RecordRow, [number, string]>(
      (after) =>
        this.q
          .selectFrom('reviews')
          .select(RECORD_COLUMNS)
          .where('changed_revision', '>', revision)
          .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('changed_revision', 'id'), '>', eb.tuple(after![0], after![1]))))
          .orderBy('changed_revision')
          .orderBy('id')
          .limit(size)
          .execute(),
      (last) => [last.changed_revision!, last.id],
      size,
    );
    for await (const page of pages) yield page.map(reviewOf);
  }

  /**
   * Every published review with its stored analysis (if it has one, of whichever version), a page at a
   * time, by id: one query per page. (By SQLite's rowid, the order of the import, the full build at 100k
   * was slower, not faster: about 5.5 s against 5.0 s to ready.)
   */
  async *publishedReviewPages(size = PAGE): AsyncGenerator<{ rows: StoredReview[]; analyses: StoredAnalysis[] }> {
    // Filtered here, not in the query: with `published` in it SQLite picks that index and sorts every
    // published row for each page.
    const pages = keysetPages(
      (after: string | null) =>
        this.q
          .selectFrom('reviews')
          .leftJoin('review_analysis', (join) => {
            const on = join.onRef('review_analysis.review_id', '=', 'reviews.id');
            // The page's bound on the joined key too: PostgreSQL merges the two primary keys, and without it
            // scanned the analyses from the first for every page (at 100k, 550 ms a page mid-way, not 8).
            return after === null ? on : on.on('review_analysis.review_id', '>', after);
          })
          .select(RECORD_COLUMNS.map((c) => `reviews.${c}` as const))
          .select(['review_analysis.content_hash as analysis_key', 'review_analysis.analysis'])
          .$if(after !== null, (q) => q.where('reviews.id', '>', after!))
          .orderBy('reviews.id')
          .limit(size)
          .execute(),
      (last) => last.id,
      size,
    );
    for await (const page of pages) {
      const rows: StoredReview[] = [];
      const analyses: StoredAnalysis[] = [];
      for (const r of page) {
        if (r.published !== 1) continue;
        rows.push(reviewOf(r));
        if (r.analysis !== null && r.analysis_key !== null)
          analyses.push(analysisOf({ review_id: r.id, content_hash: r.analysis_key, analysis: r.analysis }));
      }
      if (rows.length > 0) yield { rows, analyses };
    }
  }

  /** Stored analyses, a page at a time: of these reviews, or (without ids) all of them. */
  async *analysisPages(reviewIds: string[] | null, size = PAGE): AsyncGenerator<StoredAnalysis[]> {
    if (reviewIds) {
      for (let i = 0; i < reviewIds.length; i += 500) {
        const rows = await this.q
          .selectFrom('review_analysis')
          .selectAll()
          .where('review_id', 'in', reviewIds.slice(i, i + 500))
          .execute();
        yield rows.map(analysisOf);
      }
      return;
    }
    const pages = keysetPages<ReviewAnalysisTable, string>(
      (after) =>
        this.q
          .selectFrom('review_analysis')
          .selectAll()
          .$if(after !== null, (q) => q.where('review_id', '>', after!))
          .orderBy('review_id')
          .limit(size)
          .execute(),
      (last) => last.review_id,
      size,
    );
    for await (const page of pages) yield page.map(analysisOf);
  }

  /** The change feed's rows: reviews last written after a position, by revision `upTo` at the latest. */
  reviewChanges(after: { revision: number; id: string | null }, upTo: number, limit: number): Promise<ReviewChange[]> {
    return reviewChanges(this.q, after, upTo, limit);
  }

  async publishedCount(): Promise<number> {
    const row = await this.q
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('published', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async reviewCount(): Promise<number> {
    const row = await this.q
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** The durable store: the only door to the database. One business, its reviews, data revisions, stored analyses, hub state. */
export class Store extends Reads {
  readonly hubSubscriptions: HubSubscriptionRepository;
  readonly hubVerifications: HubVerificationRepository;
  readonly hubDeliveries: HubDeliveryRepository;
  readonly rateLimits: RateLimitRepository;
  readonly mcpSessions: McpSessionRepository;
  readonly sources: SourceRepository;
  readonly #db: Db;
  readonly #adapter: DialectAdapter;
  readonly #snapshotPartBytes: number;

  private constructor(db: Db, adapter: DialectAdapter, snapshotPartBytes: number) {
    super(db);
    this.#db = db;
    this.#adapter = adapter;
    this.#snapshotPartBytes = snapshotPartBytes;
    this.hubSubscriptions = new HubSubscriptionRepository(db, adapter);
    this.hubVerifications = new HubVerificationRepository(db, adapter);
    this.hubDeliveries = new HubDeliveryRepository(db, adapter);
    this.rateLimits = rateLimitsFor(db, adapter);
    this.mcpSessions = new McpSessionRepository(db, adapter);
    this.sources = new SourceRepository(db);
  }

  static async open(url: string, opts: StoreOptions = {}): Promise<Store> {
    const { db, adapter } = await connect(url, opts);
    await migrateToLatest(db, adapter.columnTypes);
    return new Store(db, adapter, opts.snapshotPartBytes ?? SNAPSHOT_PART_BYTES);
  }

  /** Where the data lives, safe to log: a file path, or the PostgreSQL URL without its password. */
  get location(): string {
    return this.#adapter.location;
  }

  /** Several processes may share this database (PostgreSQL): sessions and limits must then live in it. */
  get sharesState(): boolean {
    return this.#adapter.sharedByProcesses;
  }

  /**
   * A read-only view of one consistent moment (PostgreSQL: repeatable read; SQLite: one read
   * transaction, on a connection of its own so a long read does not hold up other queries).
   */
  consistentRead<T>(fn: (view: Reads) => Promise<T>): Promise<T> {
    return this.#adapter.consistentRead((trx) => fn(new Reads(trx)));
  }

  /** Copies committed writes back from SQLite's write-ahead log (see `checkpointsElsewhere`); nothing on PostgreSQL. */
  checkpoint(): Promise<void> {
    return this.#adapter.checkpoint();
  }

  /** Writes of this connection (opened with `checkpointsElsewhere`) wait for another's `checkpoint`. */
  writesToCheckpoint(): boolean {
    return this.#adapter.writesToCheckpoint();
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.#db);
  }

  async close(): Promise<void> {
    await this.#adapter.close();
    await this.#db.destroy();
  }

  /**
   * Says a write is coming (an import about to analyse what it will write): a server watching the store
   * gets ready to build on what it serves while the writer works (watched).
   */
  async announceWrite(): Promise<void> {
    await this.#db
      .insertInto('write_notices')
      .values({ id: 1, seq: 1 })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ seq: eb(eb.ref('write_notices.seq'), '+', 1) })))
      .execute();
    // Servers listening look at once (SQLite's watchers saw the write itself).
    await this.#adapter.notify(this.#db, REVISION_CHANNEL, 'write');
  }

  /** Stores the profile; a changed profile is a new data revision. Returns that revision, or null if unchanged. */
  async setBusiness(business: Business, now: string): Promise<Revision | null> {
    const profile = JSON.stringify(business);
    return this.#db.transaction().execute(async (trx) => {
      await this.#adapter.advisoryLock(trx, REVISION_CHANNEL);
      const row = await trx.selectFrom('business').select('profile').where('id', '=', BUSINESS_ROW).executeTakeFirst();
      if (row?.profile === profile) return null;
      if (row) await trx.updateTable('business').set({ profile, updated_at: now }).where('id', '=', BUSINESS_ROW).execute();
      else await trx.insertInto('business').values({ id: BUSINESS_ROW, profile, updated_at: now }).execute();
      return this.addRevision(trx, now, 'business profile');
    });
  }

  /**
   * One transaction that writes a data revision (an import). Such transactions are serialised: on
   * PostgreSQL two could otherwise commit out of id order, or miss each other's new rows.
   */
  writeRevision<T>(fn: (w: RevisionWrite) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(async (trx) => {
      await this.#adapter.advisoryLock(trx, REVISION_CHANNEL);
      return fn({
        candidates: (keys) => candidates(trx, keys),
        begin: async (now, reason) => {
          const revision = await this.addRevision(trx, now, reason);
          return { revision, reviews: new ReviewWriter(trx, revision.id) };
        },
        saveAnalyses: (items, ctx) => this.saveAnalysesIn(trx, items, ctx),
      });
    });
  }

  /** The stored reviews an import's rows may match (a plain read, outside any write). */
  reviewCandidates(keys: CandidateKeys): Promise<ReviewIdentity[]> {
    return candidates(this.#db, keys);
  }

  private async addRevision(trx: Queryable, now: string, reason: string): Promise<Revision> {
    const { id } = await trx.insertInto('revisions').values({ created_at: now, reason }).returning('id').executeTakeFirstOrThrow();
    // Delivered at commit (PostgreSQL), so listeners never see a revision before its data.
    await this.#adapter.notify(trx, REVISION_CHANNEL, String(id));
    return { id: Number(id), created_at: now };
  }

  /**
   * Calls `onRevision` when another process may have committed a revision or announced a write
   * (PostgreSQL: their notifications; SQLite: any write to the file's log, this process's own too, such
   * as a snapshot's parts), or null: poll.
   */
  listenForRevisions(onRevision: () => void, onError: (err: Error) => void): Listener | null {
    return this.#adapter.listen(REVISION_CHANNEL, onRevision, onError);
  }

  /**
   * The published reviews whose stored analysis is missing or stale under `ctx` (only the rows
   * `revision` wrote, when given): the database itself compares the keys.
   */
  async pendingAnalyses(ctx: AnalysisContext, opts: { revision?: number } = {}): Promise<PendingAnalysis[]> {
    const suffix = analysisKey('', ctx);
    return this.#db
      .selectFrom('reviews as r')
      .leftJoin('review_analysis as a', 'a.review_id', 'r.id')
      .select(['r.id', 'r.text', 'r.title', 'r.rating', 'r.language', 'r.row_hash as version'])
      .where('r.published', '=', 1)
      .$if(opts.revision !== undefined, (q) => q.where('r.changed_revision', '=', opts.revision!))
      .where((eb) => eb.or([eb('a.review_id', 'is', null), eb('a.content_hash', '!=', sql<string>`r.row_hash || ${suffix}`)]))
      .execute();
  }

  /**
   * The newest snapshot stored for a revision up to `upTo` (for this base URL and format), with that
   * revision: a process killed before it stored its newest revision's snapshot still finds the one
   * before, and builds on it instead of reading everything. Read in one consistent read, in its parts
   * (see SnapshotReading).
   */
  async newestSnapshot(
    upTo: number,
    baseUrl: string,
    engine: string,
    reading: SnapshotReading = {},
  ): Promise<{ revision: Revision; snapshot: StoredSnapshotParts } | null> {
    const found = await this.#adapter.consistentRead((trx) => newestSnapshot(trx, this.#adapter, { upTo, baseUrl, engine }, reading));
    if (!found) return null;
    return { revision: { id: found.snapshot.revision, created_at: found.revisionCreatedAt }, snapshot: found.snapshot };
  }

  /** Keep the first snapshot written for a revision (every builder renders the same bytes) unless it is damaged; drop old revisions'. */
  saveSnapshot(snap: StoredSnapshot): Promise<void> {
    return saveSnapshot(this.#db, this.#adapter, snap, this.#snapshotPartBytes);
  }

  /** The corpus image of a stored snapshot's revision, kept beside it (the first written, unless damaged); false when the snapshot is gone or has a whole one. */
  saveCorpusImage(key: SnapshotKey, bytes: Buffer): Promise<boolean> {
    return saveCorpusImage(this.#db, this.#adapter, key, bytes, this.#snapshotPartBytes);
  }

  /** The corpus image stored beside a snapshot, in its stored parts (`pause` awaited after each one read on this thread: SQLite), or null when none is. */
  corpusImage(key: SnapshotKey, pause?: () => Promise<void>): Promise<Buffer[] | null> {
    return this.#adapter.consistentRead((trx) => corpusImage(trx, this.#adapter, key, pause));
  }

  saveAnalyses(items: readonly AnalysisWrite[], ctx: AnalysisContext): Promise<void> {
    return this.saveAnalysesIn(this.#db, items, ctx);
  }

  private async saveAnalysesIn(q: Queryable, items: readonly AnalysisWrite[], ctx: AnalysisContext): Promise<void> {
    const rows: ReviewAnalysisTable[] = items.map((i) => ({
      review_id: i.reviewId,
      engine: ctx.engine,
      content_hash: analysisKey(i.version, ctx),
      analysis: i.analysis,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await q
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

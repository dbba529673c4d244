import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Logger } from 'pino';
import { buildCatalog, CATALOG_FORMAT, Catalog, CorpusWorker, StaleCorpusError, unpackLayouts } from '../catalog/index.js';
import { demoBusiness } from '../demo/index.js';
import { type Business, NotReadyError } from '../domain/index.js';
import { analysisContext } from '../ingest/index.js';
import { ENGINE_VERSION } from '../insights/index.js';
import type { RevisionListener as PgRevisionListener, ReviewAnalysisTable, ReviewTable, Revision, Store } from '../store/index.js';
import { SliceClock } from '../threads/index.js';
import { StoreWriter } from './store-writer.js';

const gunzipAsync = promisify(gunzip);

/** What every rendered review depends on besides its row and analysis: a catalog can be updated only under the same. */
const buildContext = (business: Business, base: string) => JSON.stringify([business, base]);

const EMPTY_REVISION: Revision = { id: 0, created_at: new Date(0).toISOString() };

interface BuildState {
  /** The revision the held rows are as of. */
  revision: number;
  /** The business profile and base URL the catalog was rendered for. */
  context: string;
  /** The published review ids as of that revision. */
  ids: Set<string>;
  catalog: Catalog;
}

export type RevisionListener = (catalog: Catalog) => void | Promise<void>;

/**
 * Holds the current catalog and replaces it whole when the store has a newer revision (written by
 * this process or by the import CLI in another one). Building happens off the request path; readers
 * always get one complete revision.
 */
export class CatalogSource {
  private current: Catalog | null = null;
  private timer: NodeJS.Timeout | null = null;
  private listener: PgRevisionListener | null = null;
  private building: Promise<void> | null = null;
  private readonly listeners: RevisionListener[] = [];
  /** What the previous build read and made, to reuse what did not change. */
  private state: BuildState | null = null;
  private readonly persisting = new Set<Promise<void>>();
  private nextSnapshot: { catalog: Catalog; base: string; format: string } | null = null;
  private snapshotting: Promise<void> | null = null;
  private engine: CorpusWorker | null = null;
  private writer: StoreWriter | null = null;

  constructor(
    private readonly store: Store,
    private readonly opts: { publicBaseUrl: () => string; pollMs: number; log: Logger },
  ) {
    // Started now, so its modules load while the server starts rather than on the first build.
    this.corpus();
  }

  get(): Catalog {
    if (!this.current) throw new NotReadyError('the catalog is still loading');
    return this.current;
  }

  get loaded(): boolean {
    return this.current !== null;
  }

  onRevision(listener: RevisionListener): void {
    this.listeners.push(listener);
  }

  /** Load the newest revision now (and analyse what is not analysed yet). */
  async refresh(): Promise<void> {
    // One build at a time; a caller that arrives during a build waits for it and then checks again.
    while (this.building) await this.building;
    this.building = this.load().finally(() => (this.building = null));
    await this.building;
  }

  private async load(): Promise<void> {
    const latest = await this.store.latestRevision();
    if (this.current && (latest?.id ?? 0) === this.current.revision) return;
    const started = performance.now();
    const base = this.opts.publicBaseUrl();
    const format = `${ENGINE_VERSION} ${CATALOG_FORMAT}`;
    // A stored snapshot spares a full read (a process that holds nothing yet, or whose catalog was made
    // for another profile or base URL); a process that can update what it holds does, which is cheaper
    // than parsing a whole snapshot.
    const canUpdate = this.state !== null && this.state.context === buildContext((await this.store.getBusiness()) ?? demoBusiness(), base);
    const stored = latest && !canUpdate ? await this.store.loadSnapshot(latest.id, base, format) : null;
    const snap = stored?.layout ? { ...stored, layout: stored.layout } : null;
    let catalog: Catalog;
    let analysed: ReviewAnalysisTable[] = [];
    let from = 'snapshot';
    if (snap) {
      const [reviews, insights] = await Promise.all([gunzipAsync(snap.reviews), gunzipAsync(snap.insights)]);
      catalog = Catalog.fromSnapshot({
        revision: latest!,
        reviews,
        insights,
        reviewsGzip: snap.reviews,
        insightsGzip: snap.insights,
        insightsCore: snap.insights_core,
        layout: snap.layout,
        publicBaseUrl: base,
      });
      // The corpus thread takes this revision over (parsing its analyses there), so the next one is built on it.
      this.state = {
        revision: catalog.revision,
        context: buildContext(catalog.business, base),
        ids: new Set(catalog.reviews.map((r) => r.id)),
        catalog,
      };
      const loaded = catalog;
      void this.corpus()
        .seed(catalog.revision, reviews, insights, unpackLayouts(snap.layout)[1], new SliceClock())
        .catch((err) => {
          this.opts.log.warn(
            { err, revision: loaded.revision },
            'the corpus thread could not take over the loaded catalog; the next revision reads everything',
          );
          if (this.state?.catalog === loaded) this.state = null;
        });
    } else ({ catalog, analysed, from } = await this.build());
    this.current = catalog;
    this.opts.log.info(
      { revision: catalog.revision, reviews: catalog.reviews.length, from, ms: Math.round(performance.now() - started) },
      'catalog revision loaded',
    );
    if (!snap) this.persist(catalog, analysed, base, format);
    for (const l of this.listeners) {
      try {
        await l(catalog);
      } catch (err) {
        this.opts.log.error({ err }, 'revision listener failed');
      }
    }
  }

  /**
   * Stores what a build made, after the swap and off the request path: clients get the new revision
   * first; restarts and other replicas load it from here. Everything is written by the store writer
   * thread, so no write holds up requests. Analyses are written at once. A snapshot
   * waits for the gzip codings (made on zlib's threads), and only the newest waiting one is stored:
   * under a burst of imports an older revision's snapshot is useless, and holding each one's bodies
   * until its turn would pile up memory.
   */
  private persist(catalog: Catalog, analysed: ReviewAnalysisTable[], base: string, format: string): void {
    if (analysed.length > 0) {
      const task = this.storeWriter()
        .saveAnalyses(analysed, new SliceClock())
        .catch((err) => this.opts.log.warn({ err }, 'storing analyses failed (the next build recomputes them)'));
      this.persisting.add(task);
      void task.finally(() => this.persisting.delete(task));
    }
    this.nextSnapshot = { catalog, base, format };
    this.snapshotting ??= this.storeSnapshots();
  }

  private storeWriter(): StoreWriter {
    return (this.writer ??= new StoreWriter(this.store.conn.url));
  }

  /** The corpus thread, started again (fresh, holding nothing) after a failure. */
  private corpus(): CorpusWorker {
    if (!this.engine || this.engine.failed) {
      if (this.engine) {
        this.opts.log.warn('the corpus thread failed; starting a new one (the next revision reads everything)');
        void this.engine.close();
        this.state = null;
      }
      this.engine = new CorpusWorker();
    }
    return this.engine;
  }

  private async storeSnapshots(): Promise<void> {
    try {
      for (let job = this.nextSnapshot; job; job = this.nextSnapshot) {
        this.nextSnapshot = null;
        try {
          const stored = await job.catalog.snapshot();
          await this.storeWriter().saveSnapshot(
            { revision: job.catalog.revision, base_url: job.base, engine: job.format, ...stored, created_at: new Date().toISOString() },
            new SliceClock(),
          );
        } catch (err) {
          this.opts.log.warn({ err, revision: job.catalog.revision }, 'storing the catalog snapshot failed');
        }
      }
    } finally {
      // In the same turn as the last check for a waiting job, so a job queued later starts a new run.
      this.snapshotting = null;
    }
  }

  /**
   * A catalog for the newest revision. After a first full read, a build reads only the rows written by
   * revisions since the one it holds (and their analyses) and updates the previous catalog with them.
   * A changed business profile or base URL (every review renders differently) and any sign of drift
   * (the published count disagrees) fall back to a full read.
   */
  private async build(): Promise<{ catalog: Catalog; analysed: ReviewAnalysisTable[]; from: 'full read' | 'update' }> {
    const engine = this.corpus();
    const held = this.state;
    const base = this.opts.publicBaseUrl();
    // Every long step runs in slices with the event loop turning in between (reads a page at a time,
    // the catalog a slice at a time); analyses and insights are made on the corpus thread.
    const clock = new SliceClock();
    const read = await this.store.snapshot(async (trx) => {
      const revision = (await this.store.latestRevision(trx)) ?? EMPTY_REVISION;
      const business = (await this.store.getBusiness(trx)) ?? demoBusiness();
      const context = buildContext(business, base);
      const suffix = `|${analysisContext(business)}`;
      const full = !(held && held.context === context);
      // Each row read by id (a full read: the published ones; an update: every changed one).
      const byId = new Map<string, ReviewTable>();
      const published: string[] = [];
      for await (const page of full ? this.store.publishedReviewPages(trx) : this.store.reviewsChangedAfterPages(held!.revision, trx)) {
        for (const r of page) {
          byId.set(r.id, r);
          if (r.published === 1) published.push(r.id);
        }
        await clock.maybePause();
      }
      // A stored analysis counts only if it is of this text under this profile and engine; the others
      // (and the missing ones) are made on the corpus thread.
      const stored = new Map<string, string>();
      for await (const page of this.store.analysisPages(full ? null : published, trx)) {
        for (const a of page) {
          const row = byId.get(a.review_id);
          if (row && row.published === 1 && a.content_hash === row.row_hash + suffix) stored.set(a.review_id, a.analysis);
        }
        await clock.maybePause();
      }
      return {
        revision,
        business,
        context,
        suffix,
        byId,
        full,
        published: full ? byId.size : await this.store.publishedCount(trx),
        stored,
      };
    });
    // The held id set is updated in place; until this build completes nothing is held, so a failure starts over.
    this.state = null;
    const ids = read.full ? new Set<string>() : held!.ids;
    const changes = new Map<string, ReviewTable | null>();
    for (const r of read.byId.values()) {
      changes.set(r.id, r.published === 1 ? r : null);
      if (r.published === 1) ids.add(r.id);
      else ids.delete(r.id);
      if (clock.due()) await clock.pause();
    }
    if (ids.size !== read.published) {
      this.opts.log.warn({ held: ids.size, published: read.published }, 'catalog drifted from the store; reading everything');
      return this.build();
    }
    const common = { revision: read.revision, business: read.business, analyses: read.stored, publicBaseUrl: base };
    let catalog: Catalog;
    try {
      catalog = read.full
        ? await buildCatalog({ ...common, rows: read.byId }, engine, clock)
        : await buildCatalog({ ...common, previous: held!.catalog, changes }, engine, clock);
    } catch (err) {
      // The corpus thread holds another revision than the one this build is based on (it was replaced,
      // or its take-over of a loaded snapshot failed): read everything.
      if (!(err instanceof StaleCorpusError) || read.full) throw err;
      this.opts.log.warn({ err: err.message }, 'the corpus thread is not at the held revision; reading everything');
      return this.build();
    }
    // The corpus thread analysed what had no current analysis; those are stored after the swap.
    const analysed: ReviewAnalysisTable[] = [];
    for (const [id, analysis] of catalog.analysed) {
      analysed.push({ review_id: id, engine: ENGINE_VERSION, content_hash: read.byId.get(id)!.row_hash + read.suffix, analysis });
      if (clock.due()) await clock.pause();
    }
    this.state = { revision: read.revision.id, context: read.context, ids, catalog };
    return { catalog, analysed, from: read.full ? 'full read' : 'update' };
  }

  /** Follow new revisions: PostgreSQL LISTEN/NOTIFY when available, and periodic checks as the fallback. */
  startWatching(): void {
    this.listener = this.store.listenForRevisions(
      () => void this.refresh().catch((err) => this.opts.log.warn({ err }, 'revision refresh failed')),
      (err) => this.opts.log.warn({ err: err.message }, 'revision listener disconnected; retrying (polling continues)'),
    );
    this.startPolling();
  }

  private startPolling(): void {
    const tick = () => {
      this.refresh()
        .catch((err) => this.opts.log.warn({ err }, 'revision check failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.opts.pollMs).unref();
        });
    };
    this.timer = setTimeout(tick, this.opts.pollMs).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.listener?.stop();
    while (this.building) await this.building.catch(() => {});
    await Promise.all([...this.persisting, this.snapshotting]);
    await this.engine?.close();
    await this.writer?.close();
  }
}

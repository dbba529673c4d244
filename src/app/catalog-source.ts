import type { Logger } from 'pino';
import { CATALOG_FORMAT, Catalog } from '../catalog/index.js';
import { demoBusiness } from '../demo/index.js';
import { ReviewAnalysis } from '../domain/insights.js';
import { analysisHashFor, analyzePending } from '../ingest/index.js';
import { ENGINE_VERSION } from '../insights/index.js';
import type { Revision, ReviewTable, RevisionListener as PgRevisionListener, Store } from '../store/index.js';

const EMPTY_REVISION: Revision = { id: 0, created_at: new Date(0).toISOString() };

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
  /** What the previous build read, to reuse what did not change. */
  private rows = new Map<string, ReviewTable>();
  private analysisHashes = new Map<string, string>();
  private parsedAnalyses = new Map<string, ReviewAnalysis>();

  constructor(
    private readonly store: Store,
    private readonly opts: { publicBaseUrl: () => string; pollMs: number; log: Logger },
  ) {}

  get(): Catalog {
    if (!this.current) throw Object.assign(new Error('the catalog is still loading'), { statusCode: 503 });
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
    if (this.current && latest && latest.id === this.current.revision) return;
    const started = performance.now();
    const base = this.opts.publicBaseUrl();
    const format = `${ENGINE_VERSION} ${CATALOG_FORMAT}`;
    const snap = latest ? await this.store.loadSnapshot(latest.id, base, format) : null;
    let catalog: Catalog;
    if (snap) catalog = new Catalog({ revision: latest!, reviews: snap.reviews, insights: snap.insights, insightsCore: snap.insights_core, publicBaseUrl: base });
    else {
      await analyzePending(this.store);
      catalog = await this.build();
    }
    this.current = catalog;
    // Stored after the swap: clients get the new revision first, restarts and other replicas get it from here.
    if (!snap) await this.store.saveSnapshot({ revision: catalog.revision, base_url: base, engine: format, ...catalog.snapshot(), created_at: new Date().toISOString() });
    this.opts.log.info(
      { revision: catalog.revision, reviews: catalog.reviews.length, from: snap ? 'snapshot' : 'rebuilt', ms: Math.round(performance.now() - started) },
      'catalog revision loaded',
    );
    for (const l of this.listeners) {
      try {
        await l(catalog);
      } catch (err) {
        this.opts.log.error({ err }, 'revision listener failed');
      }
    }
  }

  private async build(): Promise<Catalog> {
    // One snapshot for the revision and its data, so a catalog never mixes two revisions. Rows and
    // analyses unchanged since the previous build are reused, so one new review reads one row, not all.
    const { revision, business, rows, analyses } = await this.store.snapshot(async (trx) => ({
      revision: (await this.store.latestRevision(trx)) ?? EMPTY_REVISION,
      business: await this.store.getBusiness(trx),
      rows: await this.store.publishedReviewsSince(this.rows, trx),
      analyses: await this.store.analysesSince(this.analysisHashes, trx),
    }));
    const parsed = new Map<string, ReviewAnalysis>();
    for (const id of analyses.current.keys()) {
      const previous = this.parsedAnalyses.get(id);
      if (previous) parsed.set(id, previous);
    }
    for (const a of analyses.fresh) parsed.set(a.review_id, JSON.parse(a.analysis) as ReviewAnalysis);
    // An analysis of an older text (a change committed after the analysis pass) is left out, so the
    // catalog computes a current one for this build instead of quoting words the review no longer has.
    const profile = business ?? demoBusiness();
    const forCatalog = new Map<string, ReviewAnalysis>();
    for (const r of rows) {
      const a = parsed.get(r.id);
      if (a && analyses.current.get(r.id) === analysisHashFor(r, profile)) forCatalog.set(r.id, a);
    }
    this.rows = new Map(rows.map((r) => [r.id, r]));
    this.analysisHashes = analyses.current;
    this.parsedAnalyses = parsed;
    return new Catalog({ revision, business: profile, rows, analyses: forCatalog, publicBaseUrl: this.opts.publicBaseUrl() });
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
  }
}

import { type Business, DamagedSnapshotError, NotReadyError, type StoredAnalysis, type StoredReview } from '../domain/index.js';
import { type AnalysisContext, type AnalysisWrite, analysisKey, type Revision, type Store } from '../store/index.js';
import { SliceClock } from '../threads/index.js';
import { type RowsPage, stageAll } from './build-catalog.js';
import { Catalog } from './catalog.js';
import { type Seeded, StaleCorpusError } from './corpus-model.js';
import type { CorpusWorker } from './corpus-worker.js';
import type { Engine } from './engine.js';
import { SnapshotFormatError, snapshotFormat, snapshotLoader } from './snapshot-format.js';

/** Without a profile there is nothing to publish: the service stays not ready until one is stored. */
export const NO_PROFILE = 'No business profile is stored: run `reviewcast business set FILE` to publish one.';

/** What every rendered review depends on besides its row and analysis: a catalog can be updated only under the same. */
export const buildContext = (business: Business, base: string) => JSON.stringify([business, base]);

/** What a build read and made, so the next one reuses what did not change. */
export interface HeldRevision {
  /** The revision the held rows are as of. */
  revision: number;
  /** The business profile and base URL the catalog was rendered for. */
  context: string;
  catalog: Catalog;
}

/** Analyses a build made (on the corpus thread), to store under their context after the swap. */
export interface AnalysesToStore {
  items: AnalysisWrite[];
  ctx: AnalysisContext;
}

export interface NextRevisionDeps {
  store: Store;
  /** The NLP engine the corpus thread runs: its version keys analyses and stored snapshots. */
  engine: Engine;
  /** The corpus thread: the only place reviews are analysed and insights made. */
  corpus: () => CorpusWorker;
  publicBaseUrl: string;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The newest stored snapshot up to revision `upTo` as a catalog, or null when there is none usable.
 * It is of an older revision when the process that built the newer ones stopped before storing theirs:
 * the caller builds the rest on it. `seed` hands it to the corpus thread (which takes it over in the
 * background, reading its rows from `image`, the corpus image stored beside the snapshot, when given)
 * so the next revision is built on it: the caller calls it before building on it.
 */
export async function loadRevision(
  upTo: Revision,
  deps: NextRevisionDeps,
): Promise<{ catalog: Catalog; held: HeldRevision; seed: (image: Buffer | null) => Promise<Seeded> } | null> {
  const base = deps.publicBaseUrl;
  const format = snapshotFormat(deps.engine.version);
  // Read with the event loop turning in between (SQLite reads block the thread: a part at a time, with a
  // pause after each); the bodies inflate on the thread pool while the rest is read.
  const clock = new SliceClock();
  const loader = snapshotLoader(format);
  let found: Awaited<ReturnType<Store['newestSnapshot']>>;
  try {
    found = await deps.store.newestSnapshot(upTo.id, base, format, { pause: () => clock.maybePause(), onField: loader.onField });
  } catch (err) {
    // A part lost or changed: this process builds instead (the snapshot it stores of that revision replaces the damaged one).
    if (!(err instanceof DamagedSnapshotError)) throw err;
    deps.log.warn({ revision: err.revision, err: err.message }, 'stored snapshot is damaged; building the revision');
    return null;
  }
  if (!found) return null;
  const { revision } = found;
  let snapshot: Awaited<ReturnType<typeof loader.decode>>;
  try {
    snapshot = await loader.decode(found.snapshot);
  } catch (err) {
    // Stored by another version: this one builds the revision itself (and stores its own snapshot).
    if (!(err instanceof SnapshotFormatError)) throw err;
    deps.log.warn({ revision: revision.id, err: err.message }, 'stored snapshot is of another format; building the revision');
    return null;
  }
  const catalog = Catalog.fromSnapshot(revision, snapshot, base);
  const held = { revision: catalog.revision, context: buildContext(catalog.business, base), catalog };
  // The corpus thread takes this revision over (reading its rows from the image, or parsing the bodies there).
  const bodies = {
    reviews: [snapshot.reviews],
    reviewsLayout: snapshot.reviewsLayout,
    insights: [snapshot.insights],
    insightsLayout: snapshot.insightsLayout,
  };
  return { catalog, held, seed: (image) => deps.corpus().seed(catalog.revision, bodies, image) };
}

/**
 * A catalog for the newest revision: read (in one consistent read) every published review or, on the
 * held revision under the same profile and base URL, only what later revisions wrote; have the
 * corpus thread analyse what has no current analysis; build. Any sign of drift (the published count
 * disagrees, the corpus thread holds another revision) falls back to a full read.
 */
export async function buildNextRevision(
  held: HeldRevision | null,
  deps: NextRevisionDeps,
): Promise<{ catalog: Catalog; held: HeldRevision; analysed: AnalysesToStore; from: 'full read' | 'update' }> {
  const engine = deps.corpus();
  const base = deps.publicBaseUrl;
  // Every long step runs in slices with the event loop turning in between (reads a page at a time,
  // the catalog a slice at a time); analyses and insights are made on the corpus thread.
  const clock = new SliceClock();
  const read = await deps.store.consistentRead(async (view) => {
    const revision = await view.latestRevision();
    const business = await view.getBusiness();
    // A profile is never removed: one seen before this read is still there.
    if (!revision || !business) throw new NotReadyError(NO_PROFILE);
    const context = buildContext(business, base);
    const ctx: AnalysisContext = { engine: deps.engine.version, business };
    if (!(held && held.context === context)) {
      // A full read: each page of rows becomes reviews and corpus rows before the next one is read.
      const staged = await stageAll(publishedPages(view, ctx), { business, publicBaseUrl: base }, engine, clock);
      return { revision, business, context, ctx, staged };
    }
    // An update: every changed row, by id.
    const byId = new Map<string, StoredReview>();
    const published: string[] = [];
    for await (const page of view.reviewsChangedAfterPages(held.revision)) {
      for (const r of page) {
        byId.set(r.id, r);
        if (r.published) published.push(r.id);
      }
      await clock.maybePause();
    }
    const stored = await currentAnalyses(view, published, byId, ctx, clock);
    return { revision, business, context, ctx, changed: { byId, stored, published: await view.publishedCount() } };
  });
  const common = { revision: read.revision, business: read.business, publicBaseUrl: base };
  const analysed: AnalysesToStore = { items: [], ctx: read.ctx };
  const { staged } = read;
  const tell = (catalog: Catalog) => {
    for (const [review, err] of catalog.failed)
      deps.log.warn({ review, err }, 'the engine could not read a review; its analysis is from its rating and title alone');
  };
  if (staged) {
    const catalog = await Catalog.fromStaged({ ...common, staged }, engine, clock);
    tell(catalog);
    for (const [id, analysis] of catalog.analysed) {
      analysed.items.push({ reviewId: id, version: staged.versions.get(id)!, analysis });
      if (clock.due()) await clock.pause();
    }
    return { catalog, held: { revision: read.revision.id, context: read.context, catalog }, analysed, from: 'full read' };
  }
  const { byId, stored, published } = read.changed;
  const changes = new Map<string, StoredReview | null>();
  for (const r of byId.values()) {
    changes.set(r.id, r.published ? r : null);
    if (clock.due()) await clock.pause();
  }
  let catalog: Catalog;
  try {
    catalog = await Catalog.update(held!.catalog, { ...common, analyses: stored, changes }, engine, clock);
  } catch (err) {
    // The corpus thread holds another revision than the one this build is based on (it was replaced,
    // or its take-over of a loaded snapshot failed): read everything.
    if (!(err instanceof StaleCorpusError)) throw err;
    deps.log.warn({ err: err.message }, 'the corpus thread is not at the held revision; reading everything');
    return buildNextRevision(null, deps);
  }
  // The held reviews less the changed ones, plus the changed ones published: what the store publishes, unless
  // something was written without being marked as changed.
  if (catalog.reviews.length !== published) {
    deps.log.warn({ built: catalog.reviews.length, published }, 'catalog drifted from the store; reading everything');
    return buildNextRevision(null, deps);
  }
  tell(catalog);
  for (const [id, analysis] of catalog.analysed) {
    analysed.items.push({ reviewId: id, version: byId.get(id)!.version, analysis });
    if (clock.due()) await clock.pause();
  }
  return { catalog, held: { revision: read.revision.id, context: read.context, catalog }, analysed, from: 'update' };
}

type StoreView = Parameters<Parameters<Store['consistentRead']>[0]>[0];

/**
 * The stored analyses that count for these rows: only one of the row's text under this profile and
 * engine (the others, and the missing ones, are made on the corpus thread).
 */
async function currentAnalyses(
  view: StoreView,
  ids: string[],
  rows: ReadonlyMap<string, StoredReview>,
  ctx: AnalysisContext,
  clock: SliceClock,
): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for await (const page of view.analysisPages(ids)) {
    keepCurrent(page, rows, ctx, stored);
    await clock.maybePause();
  }
  return stored;
}

/** Adds to `into` each analysis that counts for its row (of the row's text under this profile and engine). */
function keepCurrent(
  analyses: readonly StoredAnalysis[],
  rows: ReadonlyMap<string, StoredReview>,
  ctx: AnalysisContext,
  into: Map<string, string>,
): void {
  for (const a of analyses) {
    const row = rows.get(a.review_id);
    if (row?.published && a.key === analysisKey(row.version, ctx)) into.set(a.review_id, a.analysis);
  }
}

/** Every published row a page at a time, each page with its current stored analyses. */
async function* publishedPages(view: StoreView, ctx: AnalysisContext): AsyncGenerator<RowsPage> {
  for await (const page of view.publishedReviewPages()) {
    const analyses = new Map<string, string>();
    keepCurrent(page.analyses, new Map(page.rows.map((r) => [r.id, r])), ctx, analyses);
    yield { rows: page.rows, analyses };
  }
}

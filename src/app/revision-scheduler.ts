import type { Logger } from 'pino';
import {
  type AnalysesToStore,
  buildContext,
  buildNextRevision,
  type Catalog,
  CorpusWorker,
  type Engine,
  type HeldRevision,
  loadRevision,
  NO_PROFILE,
  type Seeded,
  snapshotFormat,
} from '../catalog/index.js';
import { NotReadyError } from '../domain/index.js';
import { engine as defaultEngine } from '../insights/index.js';
import type { Listener, Store } from '../store/index.js';
import { drainSteps, runInSlices, SliceClock } from '../threads/index.js';
import { collectGarbage } from './collect-garbage.js';
import { type CorpusIdle, corpusIdleWait } from './corpus-idle.js';
import type { GarbageReason } from './quiet-collector.js';
import { StoreWriter } from './store-writer.js';

/** How often the server's own writes (sessions, hub state, limits) are copied back from SQLite's log. */
const CHECKPOINT_EVERY_MS = 30_000;
/** The pause before the check that follows one with hints before or during it (a burst of writes: a check, this pause, a check, ...). */
const WAKE_GAP_MS = 10;
/**
 * How soon a thread stands by when none holds the corpus (after a start from the stored revision): not
 * the idle wait, which is for letting go of a thread that holds it. A write in the server's first minute
 * then has its take-over run on it, without the wait for a thread's start and modules (about 0.3 s).
 */
const STANDBY_WAIT_MS = 2000;

export type RevisionListener = (catalog: Catalog) => void | Promise<void>;

/**
 * Schedules revisions: follows the store (listen, poll), has the catalog build the next revision one
 * at a time (catalog/next-revision.ts), swaps the whole catalog in, notifies listeners and stores what
 * the build made. Readers always get one complete revision.
 */
export class RevisionScheduler {
  private current: Catalog | null = null;
  /** Why there is no catalog yet, when it is not only loading. */
  private waiting: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private listener: Listener | null = null;
  private building: Promise<void> | null = null;
  private readonly listeners: RevisionListener[] = [];
  /** What the previous build read and made, to reuse what did not change. */
  private state: HeldRevision | null = null;
  private readonly persisting = new Set<Promise<void>>();
  private nextSnapshot: { catalog: Catalog; base: string } | null = null;
  private snapshotting: Promise<void> | null = null;
  private engine: CorpusWorker | null = null;
  /**
   * A corpus thread started while idle, holding nothing, for the next take-over: its start and modules
   * (about a quarter of a take-over at 100k reviews on Node 20) are then off the path of the next revision.
   */
  private standby: CorpusWorker | null = null;
  /** The last thread taken from standing by (the take-over's log says whether its thread was). */
  private tookStandby: CorpusWorker | null = null;
  /** A take-over under way on the corpus thread (it must not be released meanwhile). */
  private seeding: Promise<void> | null = null;
  /** A renewal of the corpus thread waiting for the image the fresh one is to take over from (renewCorpus): its take-over is not sent yet. */
  private renewing: Promise<void> | null = null;
  /** The pending release of an idle corpus thread (releaseCorpusLater). */
  private idleTimer: NodeJS.Timeout | null = null;
  /** How long the last take-over took (ms, as logged), which an `auto` idle wait follows. */
  private lastTakeOverMs: number | null = null;
  private writer: StoreWriter | null = null;
  /** Threads let go of (an idle store writer, a replaced corpus thread) until they have exited. */
  private readonly closing = new Set<Promise<void>>();
  private checkedWritesAt = performance.now();
  private stopping = false;
  /** stop() was called (`stopping` is set only after it has waited for builds and a snapshot). */
  private stopRequested = false;
  /** Checks are scheduled (until stop); while polling, no timer means a check is running. */
  private polling = false;
  /** A hint came since the last check began. */
  private hinted = false;
  /** The scheduled check is one owed to a hint. */
  private soon = false;
  /** The store's count of announced writes when last looked at (null: not yet). */
  private noticesSeen: number | null = null;
  private readonly nlp: Engine;

  constructor(
    private readonly store: Store,
    private readonly opts: {
      publicBaseUrl: () => string;
      databaseUrl: string;
      pollMs: number;
      /** How long an idle corpus thread is kept (REVIEWCAST_CORPUS_IDLE: see corpusIdleWait); without it, for the scheduler's life. */
      corpusIdle?: CorpusIdle;
      /**
       * Called when much was let go of (see QuietCollector.expectGarbage), with why: once storing the newest
       * revision's snapshot and corpus image has ended (stored or not), the revision it replaced and what
       * building and storing it made; once an idle corpus thread's close has ended (it has exited, or failed to), what
       * this thread held for it.
       */
      onGarbage?: (reason: GarbageReason) => void;
      /** The NLP engine (a test hands in one of its own); the insights engine without it. */
      engine?: Engine;
      log: Logger;
    },
  ) {
    this.nlp = opts.engine ?? defaultEngine;
  }

  get(): Catalog {
    if (!this.current) throw new NotReadyError(this.waiting ?? 'The catalog is still loading; retry in a moment.');
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
    // A fresh corpus thread waiting for its image: this build is sent to it after its take-over.
    while (this.renewing) await this.renewing;
    const { latest, notices } = await this.store.watched();
    const announced = this.noticesSeen !== null && notices > this.noticesSeen;
    this.noticesSeen = notices;
    if (this.current && latest?.id === this.current.revision) {
      if (announced) await this.prepareForWrite();
      return;
    }
    const business = await this.store.getBusiness();
    // Storing a profile makes a revision, so a later check finds it.
    if (!business || !latest) {
      this.waiting = NO_PROFILE;
      return;
    }
    this.waiting = null;
    const started = performance.now();
    const deps = {
      store: this.store,
      engine: this.nlp,
      corpus: () => this.corpus(),
      publicBaseUrl: this.opts.publicBaseUrl(),
      log: this.opts.log,
    };
    // A stored snapshot spares a full read (a process that holds nothing yet, or whose catalog was made
    // for another profile or base URL); a process that can update what it holds does, which is cheaper
    // than parsing a whole snapshot.
    const canUpdate = this.state !== null && this.state.context === buildContext(business, deps.publicBaseUrl);
    const loaded = canUpdate ? null : await loadRevision(latest, deps);
    let catalog: Catalog;
    let from: string;
    let analysed: AnalysesToStore | null = null;
    let collectedMs: number | undefined;
    if (loaded) this.state = loaded.held;
    // A process serving the stored revision itself takes nothing over (one holding nothing stands by
    // shortly after: STANDBY_WAIT_MS): the next revision has one take the served revision over first (from
    // its stored corpus image, or its bodies), as after an idle exit. Until then it holds neither the
    // corpus (and the take-over's peak, 250–330 MB at 100k) nor what it would read.
    if (loaded?.catalog.revision === latest.id) {
      ({ catalog } = loaded);
      from = 'snapshot';
      // Nothing is served yet: what the load read and let go is returned before the first revision is.
      if (!this.current) {
        const collecting = performance.now();
        collectGarbage();
        collectedMs = Math.round(performance.now() - collecting);
      }
    } else {
      // A loaded older revision is taken over before the build on it.
      if (loaded) {
        // The thread starts (its modules load) while the image is read.
        this.corpus();
        const image = await this.readImage(loaded.catalog, deps.publicBaseUrl);
        this.seedingUntil(
          loaded.seed(image),
          loaded.catalog,
          'the corpus thread could not take over the loaded catalog; the next revision reads everything',
        );
      }
      // Until this build completes nothing is held (it updates the held ids in place), so a failure starts over.
      const held = this.state;
      this.state = null;
      // The corpus thread was released while idle: a new one takes the held revision over first (its
      // messages are handled in order, so before this build's).
      if (canUpdate && held && !this.engine) await this.takeOver(held.catalog);
      const built = await buildNextRevision(held, deps);
      ({ catalog, from, analysed } = built);
      this.state = built.held;
      // The fresh thread takes the rows over from the build's thread (its image) instead of parsing every
      // review and analysis of the bodies again: at 100k 1.6-1.8 s with the thread's start, against 3.3-3.9 s.
      if (built.from === 'full read')
        this.renewCorpus(catalog, this.builtImage(catalog.revision)).catch((err) =>
          this.opts.log.warn({ err }, 'starting a fresh corpus thread failed'),
        );
    }
    this.current = catalog;
    // Served first; its lookup by id is made after, in slices, while it is still the one served.
    void catalog.indexIds(() => this.current === catalog).catch((err) => this.opts.log.warn({ err }, 'indexing the reviews by id failed'));
    this.opts.log.info(
      {
        revision: catalog.revision,
        reviews: catalog.reviews.length,
        from,
        // A snapshot of an older revision was loaded to build this one on (its process stopped before storing the newer one).
        ...(loaded && loaded.catalog !== catalog ? { snapshot: loaded.catalog.revision } : {}),
        ms: Math.round(performance.now() - started),
        // Of those, the garbage collection before a loaded revision is first served.
        ...(collectedMs === undefined ? {} : { gc_ms: collectedMs }),
      },
      'catalog revision loaded',
    );
    if (analysed) this.persist(catalog, analysed, deps.publicBaseUrl);
    for (const l of this.listeners) {
      try {
        await l(catalog);
      } catch (err) {
        this.opts.log.error({ err }, 'revision listener failed');
      }
    }
    this.releaseCorpusLater();
  }

  /**
   * A take-over of `catalog` by the corpus thread: the thread is not released while it runs, and if it
   * fails the next revision reads everything. With `stored` (the base URL of the revision's stored
   * snapshot), one that had to parse the bodies then stores the revision's corpus image.
   */
  private seedingUntil(takeOver: Promise<Seeded>, catalog: Catalog, failure: string, stored?: string): void {
    const started = performance.now();
    // Said of this take-over only: a thread that stood by and took one over does not stand by for the next.
    const standingBy = this.engine !== null && this.engine === this.tookStandby;
    this.tookStandby = null;
    const seeding = takeOver.then(
      ({ from, passedOver, state }) => {
        // Tests and operators read which way it went: rows from the stored image, or the bodies parsed
        // (and why an image was passed over: a defect to look into, since the one read is of this revision),
        // and the insight builders' state taken back with them or made by a pass.
        const ms = Math.round(performance.now() - started);
        this.lastTakeOverMs = ms;
        if (passedOver) this.opts.log.warn({ revision: catalog.revision, passedOver }, 'the stored corpus image was passed over');
        this.opts.log.info(
          { revision: catalog.revision, from, state, ms, standing_by: standingBy },
          'corpus thread took the revision over',
        );
        // A stored revision with no image (lost to a kill between its snapshot and it, say): the thread now
        // holds the rows, so it gives them for the next take-over, as after a snapshot. Part of the take-over,
        // so the thread is not released meanwhile. Not when an image was passed over (one is kept: this one
        // would not be), nor once a build on it has begun (nothing is held then: its revision stores its own,
        // and this one would delay it).
        if (from === 'bodies' && stored !== undefined && !passedOver && this.state?.catalog === catalog)
          return this.writing(this.storeImage(catalog.revision, stored));
      },
      (err) => {
        // A stop closes the thread under a take-over (a write announced just before it): no failure then.
        if (!this.stopping) this.opts.log.warn({ err, revision: catalog.revision }, failure);
        if (this.state?.catalog === catalog) this.state = null;
      },
    );
    this.seeding = seeding;
    void seeding.finally(() => {
      if (this.seeding !== seeding) return;
      this.seeding = null;
      if (!this.stopping) this.releaseCorpusLater();
    });
  }

  /**
   * (Re)starts the wait after which an idle corpus thread exits and one holding nothing stands by; with
   * no thread to let go of, only the shorter wait for the one to stand by.
   */
  private releaseCorpusLater(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.opts.corpusIdle === undefined) return;
    const idle = corpusIdleWait(this.opts.corpusIdle, this.lastTakeOverMs);
    const wait = this.engine ? idle : Math.min(idle, STANDBY_WAIT_MS);
    this.idleTimer = setTimeout(() => this.releaseIdleCorpus(idle), wait).unref();
  }

  /**
   * The corpus thread exits once it has had nothing to do for a while: between revisions it only keeps
   * the corpus (its heap is the process's largest after the bodies, about 150 MB at 100k reviews). A new
   * one holding nothing (15–25 MB at 100k) then stands by, and the next take-over of the held revision
   * (from its stored corpus image, or the catalog's bodies) runs on it, without the wait for its start.
   */
  private releaseIdleCorpus(idleMs: number): void {
    this.idleTimer = null;
    // Busy (a build, or a check for one, a take-over or one waiting for its image, or a snapshot whose corpus image it is to give): wait again.
    if (this.engine && (this.building || this.renewing || this.seeding || this.snapshotting)) {
      this.releaseCorpusLater();
      return;
    }
    if (this.engine) {
      // What this thread kept for it is garbage once it has exited, much of it outside the heap: at 100k
      // reviews on Node 20 a full collection then gave back 25 MB of external memory (RSS 477 → 446 MB).
      void this.letGo(this.engine).then(() => this.opts.onGarbage?.('the idle corpus thread exited'));
      this.engine = null;
      this.opts.log.info({ revision: this.state?.revision, idle_ms: idleMs }, 'corpus thread released (idle)');
    }
    if (this.stopRequested) return;
    // One that stood by and failed meanwhile is replaced (at most once a wait).
    if (this.standby?.failed) {
      this.opts.log.warn('the corpus thread standing by had failed; another stands by');
      this.letGo(this.standby);
      this.standby = null;
    }
    // Idle too since a restart, which starts none: one stands by from now on.
    if (this.standby) return;
    try {
      this.standby = new CorpusWorker(this.nlp);
      this.opts.log.info({ revision: this.state?.revision }, 'a corpus thread stands by');
    } catch (err) {
      // Only a head start: the next take-over starts its own.
      this.opts.log.warn({ err }, 'starting a corpus thread to stand by failed');
    }
  }

  /** A corpus thread holding nothing: the one standing by if it is alive, else a new one. */
  private freshCorpus(): CorpusWorker {
    const standing = this.standby;
    this.standby = null;
    if (standing && !standing.failed) return (this.tookStandby = standing);
    if (standing) this.letGo(standing);
    return new CorpusWorker(this.nlp);
  }

  /**
   * Stores what a build made, after the swap and off the request path: clients get the new revision
   * first; restarts and other replicas load it from here. Everything is written by the store writer
   * thread, so no write holds up requests. Analyses are written at once. A snapshot
   * waits for the gzip codings (made on zlib's threads), and only the newest waiting one is stored:
   * under a burst of imports an older revision's snapshot is useless, and holding each one's bodies
   * until its turn would pile up memory.
   */
  private persist(catalog: Catalog, analysed: AnalysesToStore, base: string): void {
    if (analysed.items.length > 0)
      void this.writing(
        this.storeWriter()
          .saveAnalyses(analysed.items, analysed.ctx, new SliceClock())
          .catch((err) => this.opts.log.warn({ err }, 'storing analyses failed (the next build recomputes them)')),
      );
    this.nextSnapshot = { catalog, base };
    this.snapshotting ??= this.storeSnapshots();
  }

  private storeWriter(): StoreWriter {
    return (this.writer ??= new StoreWriter(this.opts.databaseUrl));
  }

  /**
   * A write besides the snapshots' (which `snapshotting` tracks), one that does not fail: the idle writer is
   * not released while it runs, and is once it ends; stop() waits for it.
   */
  private writing(task: Promise<void>): Promise<void> {
    this.persisting.add(task);
    return task.finally(() => {
      this.persisting.delete(task);
      this.releaseIdleWriter();
    });
  }

  /**
   * The store writer thread exits once nothing is left to write (the next write starts another): after
   * a large write (100k analyses) its heap would stay at that size, hundreds of MB, for nothing. Called
   * when a write ends; one still queued on the thread is done before it exits.
   */
  private releaseIdleWriter(): void {
    if (!this.writer || this.persisting.size > 0 || this.snapshotting) return;
    this.letGo(this.writer, (err) => this.opts.log.warn({ err }, 'closing the idle store writer failed'));
    this.writer = null;
  }

  /** A thread let go of closes in the background; stop() waits for it. */
  private letGo(thread: { close(): Promise<void> }, onError: (err: unknown) => void = () => {}): Promise<void> {
    const closed = thread.close().catch(onError);
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
    return closed;
  }

  /**
   * A fresh corpus thread that takes the revision over: after the idle one was released (or none was
   * started since a restart), when a write is announced or its revision comes; or after a full build
   * (whose thread's heap stays at its peak, every stored analysis read, parsed and rendered: hundreds of
   * MB at 100k that V8 keeps; the old one exits, returning that memory). It reads the rows
   * from `image` when there is one (read from the store while the new one starts, or made by the old
   * thread before it starts), else parses the catalog's bodies (shared memory, not copied). Resolves once
   * the take-over is sent (the next build waits for that too: `renewing`), so that build is queued behind
   * it; if it fails, that build reads everything.
   */
  private async renewCorpus(catalog: Catalog, image: Promise<Buffer | null> | null, stored?: string): Promise<void> {
    const old = this.engine;
    // A fresh thread starts while a stored image is read; after a full build only once the build's thread
    // has given its image and is let go, so that their heaps are never held together.
    let thread = old ? null : this.freshCorpus();
    if (thread) this.engine = thread;
    // Until the take-over is sent no thread holds the revision: the next build, storeImage, the idle release and stop wait for it.
    let sent = () => {};
    const renewing = new Promise<void>((resolve) => (sent = resolve));
    this.renewing = renewing;
    try {
      // Without an image, sent in this turn.
      const bytes = image && (await image);
      if (old) {
        this.letGo(old);
        // None while the fresh one starts: if it cannot, the next build has another take the revision over.
        this.engine = null;
      }
      thread ??= this.freshCorpus();
      this.engine = thread;
      this.seedingUntil(
        thread.seed(catalog.revision, catalog.seedBodies(), bytes),
        catalog,
        'a new corpus thread could not take over the catalog; the next revision reads everything',
        stored,
      );
    } finally {
      if (this.renewing === renewing) this.renewing = null;
      sent();
    }
  }

  /**
   * A writer announced a write: a corpus thread that has exited (idle, or not started since a restart) is
   * replaced now (by the one standing by, if any), and the new one takes the served revision over while the
   * writer analyses, instead of after its commit (the take-over is most of the wait for a new revision:
   * 1.3–1.5 s at 100k reviews on Node 20). If no revision comes, it exits when idle as any other.
   */
  private async prepareForWrite(): Promise<void> {
    const held = this.state;
    if (!held || this.stopping) return;
    // A thread kept: its idle wait starts again, so it is not released while the writer works.
    if (this.engine) {
      this.releaseCorpusLater();
      return;
    }
    this.opts.log.info({ revision: held.revision }, 'a write was announced: the corpus thread takes the revision over');
    await this.takeOver(held.catalog);
  }

  /** The corpus thread's image of the revision it has just built, for a fresh one to take over; null (the bodies) when it gives none. */
  private async builtImage(revision: number): Promise<Buffer | null> {
    try {
      return (await this.engine?.image(revision)) ?? null;
    } catch (err) {
      this.opts.log.warn({ err, revision }, 'the build’s corpus thread gave no image; the fresh one parses the bodies');
      return null;
    }
  }

  /** A new corpus thread takes the served `catalog` over, from its stored corpus image if there is one. */
  private takeOver(catalog: Catalog): Promise<void> {
    const base = this.opts.publicBaseUrl();
    return this.renewCorpus(catalog, this.readImage(catalog, base), base);
  }

  /** The corpus thread, started (or taken from standing by) on first use, and again (fresh, holding nothing) after a failure. */
  private corpus(): CorpusWorker {
    if (!this.engine || this.engine.failed) {
      if (this.engine) {
        this.opts.log.warn('the corpus thread failed; starting a new one (the next revision reads everything)');
        this.letGo(this.engine);
        this.state = null;
      }
      this.engine = this.freshCorpus();
    }
    return this.engine;
  }

  /** The snapshot's key of a revision rendered for `base`. */
  private snapshotKey(revision: number, base: string) {
    return { revision, base_url: base, engine: snapshotFormat(this.nlp.version) };
  }

  /**
   * Stores the corpus thread's rows beside the revision's snapshot (a corpus image), after it: a thread
   * started later (after the idle exit, or a restart) takes the revision over from those instead of
   * parsing every review and analysis of its bodies. Nothing when the thread holds another revision.
   */
  private async storeImage(revision: number, base: string): Promise<void> {
    while (this.renewing) await this.renewing;
    const engine = this.engine;
    if (!engine || engine.failed || this.stopping) return;
    const started = performance.now();
    try {
      const bytes = await engine.image(revision);
      if (!bytes) return;
      const size = bytes.length;
      // False when one is kept already (another replica's) or the snapshot is gone.
      if (await this.storeWriter().saveCorpusImage(this.snapshotKey(revision, base), bytes))
        this.opts.log.info({ revision, bytes: size, ms: Math.round(performance.now() - started) }, 'corpus image stored');
    } catch (err) {
      // Stopping closes the thread: its image is not to come.
      if (!this.stopping) this.opts.log.warn({ err, revision }, 'storing the corpus image failed (a later take-over parses the bodies)');
    }
  }

  /**
   * The corpus image stored beside the snapshot of the catalog (rendered for `base`), or null (none, or
   * unreadable): read and joined in slices, with requests served in between.
   */
  private async readImage(catalog: Catalog, base: string): Promise<Buffer | null> {
    try {
      const clock = new SliceClock();
      const parts = await this.store.corpusImage(this.snapshotKey(catalog.revision, base), () => clock.maybePause());
      return parts && (await runInSlices(drainSteps(parts), clock));
    } catch (err) {
      this.opts.log.warn({ err, revision: catalog.revision }, 'reading the stored corpus image failed; the take-over parses the bodies');
      return null;
    }
  }

  private async storeSnapshots(): Promise<void> {
    try {
      for (let job = this.nextSnapshot; job; job = this.nextSnapshot) {
        this.nextSnapshot = null;
        const started = performance.now();
        try {
          const stored = await job.catalog.snapshot(snapshotFormat(this.nlp.version));
          await this.storeWriter().saveSnapshot(
            {
              revision: job.catalog.revision,
              base_url: job.base,
              ...stored,
              created_at: new Date().toISOString(),
            },
            new SliceClock(),
          );
          // What a restart loads from now on (tests and operators wait for this line, not for a time).
          this.opts.log.info({ revision: job.catalog.revision, ms: Math.round(performance.now() - started) }, 'catalog snapshot stored');
          // Not for a revision already behind the next snapshot: that one's image is what counts.
          if (!this.nextSnapshot) await this.storeImage(job.catalog.revision, job.base);
        } catch (err) {
          this.opts.log.warn({ err, revision: job.catalog.revision }, 'storing the catalog snapshot failed');
        }
      }
      this.opts.onGarbage?.('a revision was stored');
    } finally {
      // In the same turn as the last check for a waiting job, so a job queued later starts a new run.
      this.snapshotting = null;
      this.releaseIdleWriter();
    }
  }

  /**
   * Follow new revisions: periodic checks, run at once when the store hints at a change (PostgreSQL's
   * LISTEN/NOTIFY, SQLite's log written).
   */
  startWatching(): void {
    this.listener = this.store.listenForRevisions(
      () => this.wake(),
      (err) => this.opts.log.warn({ err: err.message }, 'revision listener failed; polling continues (PostgreSQL reconnects)'),
    );
    this.polling = true;
    this.schedule(this.opts.pollMs, false);
  }

  /** The next check in `ms`; `soon`: one owed to a hint (a later hint does not bring it forward again). */
  private schedule(ms: number, soon: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, ms).unref();
    this.soon = soon;
  }

  private readonly tick = () => {
    this.timer = null;
    const hintedBefore = this.hinted;
    this.hinted = false;
    this.refresh()
      .catch((err) => this.opts.log.warn({ err }, 'revision check failed'))
      .finally(() => {
        if (!this.polling) return;
        this.checkpointOwnWrites();
        // One more check, soon, after a hint: one that came during this check may be of a commit it read
        // before, and one that came before it may be a moment ahead of its commit (SQLite writes the log
        // before the index readers look in, and only the log's writes are seen).
        const again = hintedBefore || this.hinted;
        this.schedule(again ? WAKE_GAP_MS : this.opts.pollMs, again);
      });
  };

  /**
   * A hint that the store changed: the next check runs now instead of at the poll. However many hints
   * come (one large write logs many), one check runs at a time and a check already due soon is not put
   * back; each check that had hints before or during it is followed by one more.
   */
  private wake(): void {
    if (!this.polling) return;
    this.hinted = true;
    // A check running (no timer) is followed by one more; one due soon is not put back.
    if (this.timer === null || this.soon) return;
    this.schedule(0, true);
  }

  /**
   * The server's connection leaves copying SQLite's log back to the store writer (a commit crossing the
   * log's limit would do it on the event loop): its own small writes are handed over every so often,
   * and the writer's own commits copy back what they wrote.
   */
  private checkpointOwnWrites(): void {
    const now = performance.now();
    if (now - this.checkedWritesAt < CHECKPOINT_EVERY_MS) return;
    this.checkedWritesAt = now;
    if (!this.store.writesToCheckpoint()) return;
    void this.writing(
      this.storeWriter()
        .checkpoint()
        .catch((err) => this.opts.log.warn({ err }, 'checkpointing the write-ahead log failed (the next one retries)')),
    );
  }

  async stop(): Promise<void> {
    this.stopRequested = true;
    this.polling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.listener?.stop();
    while (this.building) await this.building.catch(() => {});
    // The old thread is let go once it has given the fresh one its image (closed below with the rest).
    while (this.renewing) await this.renewing;
    // A snapshot being stored is followed by its corpus image, which the thread makes once it holds that
    // revision (after a take-over under way, such as the fresh thread's after a full build): waited for,
    // so the next start's first change takes over from it instead of parsing the bodies (at 100k, 0.8
    // against 1.7 s, and a new review served 0.15 against 0.9 s after its commit). Through a take-over
    // from the bodies that can be seconds (about 17 s at 1M); a kill meanwhile loses only the image.
    await this.snapshotting;
    this.stopping = true;
    // After the waits, which can arm it (a release meanwhile only closes the thread sooner: none stands by once a stop is asked for).
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await Promise.all([this.engine?.close(), this.standby?.close()]);
    await Promise.all([...this.persisting, this.snapshotting]);
    await this.writer?.close();
    await Promise.all(this.closing);
  }
}

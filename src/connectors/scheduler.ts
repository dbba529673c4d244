import { type SyncDeps, syncDue } from './sync.js';

/**
 * The worker role's sync loop: every tick it claims and syncs the sources that are due. Which sources
 * are due, and who holds them, lives in the store, so several replicas share the work and exactly one
 * syncs a given source at a time.
 */
export class SyncScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: SyncDeps,
    private readonly tickMs = Math.max(250, Math.min(10_000, Math.floor(deps.intervalMs / 4))),
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
    this.tick();
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = syncDue(this.deps)
      .then(() => undefined)
      .catch((err) => this.deps.log.warn({ err: (err as Error)?.message }, 'sync: claiming sources failed'))
      .finally(() => {
        this.running = null;
      });
  }

  /** Stops claiming; a run in progress finishes (its requests are bounded by the request timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

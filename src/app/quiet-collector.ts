import type { Server } from 'node:http';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from 'pino';
import { collectGarbage } from './collect-garbage.js';

/**
 * How often the collector looks, and by how much the heap's size must have grown since its low point:
 * growthBytes, or growthShare of the low point if that is more (a full collection costs about the live
 * heap: 40–80 ms at 100k reviews, 350–520 ms at 1M, where storing a snapshot alone grew the heap enough
 * for two collections in a row that gave back only 57 and 138 MB).
 */
export interface QuietCollection {
  checkMs: number;
  growthBytes: number;
  growthShare: number;
}

/**
 * A busy spell (50 connections of searches at 100k reviews) grows V8's heap by 100–250 MB (garbage
 * promoted to the old generation, a larger young generation), and with no more allocation V8 gives it
 * back only when its memory reducer runs, about 20 s later. A full collection then costs 40–80 ms at
 * 100k, paid only once nothing was asked for a whole look (1–2 s) and nothing is being answered.
 */
export const QUIET_COLLECTION: QuietCollection = { checkMs: 1000, growthBytes: 32 << 20, growthShare: 0.25 };

/**
 * Whether to collect now: no request began since the last look and none is being answered (a long
 * download would stall for the collection), and the heap grew enough above its low point.
 */
export const collectsNow = (
  requestsSinceLook: number,
  inFlight: number,
  heapBytes: number,
  lowBytes: number,
  { growthBytes, growthShare }: Pick<QuietCollection, 'growthBytes' | 'growthShare'>,
): boolean => requestsSinceLook === 0 && inFlight === 0 && heapBytes - lowBytes >= Math.max(growthBytes, lowBytes * growthShare);

/** The memory V8's heap holds, garbage and room to allocate included: what a collection can give back. */
const heapSize = () => getHeapStatistics().total_heap_size;
const mb = (bytes: number) => Math.round(bytes / (1 << 20));

/** What let go of much without growing the heap for it (see QuietCollector.expectGarbage). */
export type GarbageReason = 'a revision was stored' | 'the idle corpus thread exited';

/** Collects the heap in full once requests stop, after they grew it (see QUIET_COLLECTION) or much was let go of (expectGarbage). */
export class QuietCollector {
  /** Collections run so far. */
  collections = 0;
  private requests = 0;
  private inFlight = 0;
  private low = 0;
  /** Set by expectGarbage, with why: the next quiet look collects however little the heap grew. */
  private expecting: GarbageReason | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Logger,
    private readonly options: QuietCollection = QUIET_COLLECTION,
  ) {}

  /** Counts `server`'s requests from now on, and looks every checkMs. */
  start(server: Server): void {
    server.on('request', (_req, res) => {
      this.requests++;
      this.inFlight++;
      res.once('close', () => this.inFlight--);
    });
    this.low = heapSize();
    this.timer = setInterval(() => this.look(), this.options.checkMs).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Much was let go of without the heap growing for it: the next quiet look collects, however little the
   * heap grew. A revision is replaced, and once the new one is stored what it replaced and what building and
   * storing it made are garbage, mostly outside the heap (buffers), so growth does not show it: at 100k
   * reviews, 15 s after one new review, a forced collection still gave back 177–185 MB. One full
   * collection per stored revision, when quiet (at 1M it costs 350–520 ms). So too when an idle corpus
   * thread has exited (revision-scheduler.ts).
   */
  expectGarbage(reason: GarbageReason): void {
    this.expecting = reason;
  }

  /** One look (what the timer runs; tests call it directly). */
  look(): void {
    const requests = this.requests;
    this.requests = 0;
    const size = heapSize();
    // A collection V8 ran on its own lowers the mark: growth counts from the least the heap held.
    this.low = Math.min(this.low, size);
    const reason = requests === 0 && this.inFlight === 0 ? this.expecting : null;
    if (reason === null && !collectsNow(requests, this.inFlight, size, this.low, this.options)) return;
    this.expecting = null;
    const started = performance.now();
    if (!collectGarbage()) return;
    this.low = heapSize();
    this.collections++;
    this.log.info(
      {
        heap_before_mb: mb(size),
        heap_after_mb: mb(this.low),
        ms: Math.round(performance.now() - started),
        reason: reason ?? 'requests grew the heap',
      },
      'heap collected after a busy spell',
    );
  }

  /** Prometheus text: how many such collections this process ran. */
  metricsText(): string {
    const name = 'reviewcast_quiet_collections_total';
    return [
      `# HELP ${name} Full heap collections run once requests stopped, after they grew the heap or much was let go of: a revision stored, an idle corpus thread gone (this process).`,
      `# TYPE ${name} counter`,
      `${name} ${this.collections}`,
      '',
    ].join('\n');
  }
}

/** Let the event loop run (I/O, timers, other requests) before continuing. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Cuts long work into slices: `due()` is true once the current slice has run for `sliceMs`; the caller
 * then awaits `pause()`, which yields to the event loop and starts the next slice. Work that checks
 * `due()` every few items keeps every request's wait near the slice length.
 */
export class SliceClock {
  private started = performance.now();

  constructor(private readonly sliceMs = 8) {}

  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await yieldToLoop();
    this.started = performance.now();
  }

  /** Yield if the slice is used up. */
  async maybePause(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/**
 * Long work written once as a generator that `yield`s at points where it may pause (every few
 * hundred items): run at once where nothing waits (tests, tools), or in slices on a server.
 */
export type Steps<T> = Generator<void, T, void>;

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export async function runInSlices<T>(steps: Steps<T>, clock: SliceClock): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (clock.due()) await clock.pause();
  }
}

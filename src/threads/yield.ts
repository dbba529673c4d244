/** Let the event loop run (I/O, timers, other requests) before continuing. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Cuts long work into slices: `due()` is true once the current slice has run for `sliceMs`; the caller
 * then awaits `pause()`, which yields to the event loop and starts the next slice. Work written as
 * "check due() every few items" keeps every request's wait below the slice length.
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

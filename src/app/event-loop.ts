import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Sampling interval: every recorded value is at least this long, so the figures are an upper bound on a pause. */
const RESOLUTION_MS = 10;

/**
 * How long requests wait for the event loop: a timer every 10 ms records how late it fires. Started
 * once the server is ready, so it measures serving (imports, revision builds, traffic), not start-up,
 * during which the process answers 503 anyway.
 */
export class EventLoopMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  start(): void {
    this.histogram.enable();
  }

  stop(): void {
    this.histogram.disable();
  }

  /** Prometheus text (a summary in seconds, since the server became ready). */
  metricsText(): string {
    const h = this.histogram;
    const s = (ns: number) => (Number.isFinite(ns) && h.count > 0 ? ns / 1e9 : 0);
    const name = 'reviewcast_event_loop_delay_seconds';
    return [
      `# HELP ${name} Time between event-loop turns, sampled every ${RESOLUTION_MS} ms since the server became ready (includes the sampling interval).`,
      `# TYPE ${name} summary`,
      `${name}{quantile="0.5"} ${s(h.percentile(50))}`,
      `${name}{quantile="0.99"} ${s(h.percentile(99))}`,
      `${name}{quantile="1"} ${s(h.max)}`,
      `${name}_count ${h.count}`,
      `${name}_sum ${s(h.mean * h.count)}`,
      `# HELP reviewcast_event_loop_delay_max_seconds The longest time between event-loop turns since the server became ready.`,
      '# TYPE reviewcast_event_loop_delay_max_seconds gauge',
      `reviewcast_event_loop_delay_max_seconds ${s(h.max)}`,
      '',
    ].join('\n');
  }
}

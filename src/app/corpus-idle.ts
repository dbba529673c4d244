import type { Config } from '../config.js';

/** REVIEWCAST_CORPUS_IDLE: a fixed wait in milliseconds, or `auto` (corpusIdleWait). */
export type CorpusIdle = Config['corpusIdle'];

/** The `auto` wait's bounds, and its wait before any take-over was timed (the fixed default it replaced). */
export const AUTO_IDLE = { factor: 10, minMs: 5_000, maxMs: 600_000, untimedMs: 60_000 } as const;

/**
 * How long an idle corpus thread is kept before it exits. `auto` keeps it ten times as long as its last
 * take-over took (the price of getting it back): writes spaced just past the wait then spend at most a
 * tenth of their time on take-overs, and a small corpus, cheap to take over, gives its memory back within
 * seconds (at 100k about 150 MB, from a take-over of 0.7–0.9 s), while a large one is kept about as long
 * as before (a minute at 1M). Never under 5 s, so a burst of writes (an import in parts) keeps one thread.
 */
export function corpusIdleWait(idle: CorpusIdle, lastTakeOverMs: number | null): number {
  if (idle !== 'auto') return idle;
  if (lastTakeOverMs === null) return AUTO_IDLE.untimedMs;
  return Math.min(AUTO_IDLE.maxMs, Math.max(AUTO_IDLE.minMs, Math.round(AUTO_IDLE.factor * lastTakeOverMs)));
}

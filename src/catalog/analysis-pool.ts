import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { AnalysisInput } from '../domain/index.js';
import { startWorker } from '../threads/index.js';
import type { AnalysisFailure, OnAnalysisFailure } from './analyze-or-rate.js';
import type { AnalyzerOptions, Engine } from './engine.js';

const BATCH = 250;

/** A batch's analyses, and the reviews among them whose text the engine could not read (see analyzeOrRate). */
interface Answer {
  analyses: string[];
  failures: AnalysisFailure[];
}

/** What the analysis thread answers a batch with. */
export type FromAnalysis = { id: number } & (Answer | { error: string });

interface Pending {
  resolve(answer: Answer): void;
  reject(err: Error): void;
}

/**
 * Per-review analysis on worker threads, up to one per core: an import of 100k reviews analyses on
 * every core instead of one, and a process that serves requests never analyses on its event loop.
 * Results are the stored form (JSON text), in input order.
 */
export class AnalysisPool {
  private readonly workers: Worker[];
  private readonly idle: Worker[];
  private readonly queue: { id: number; inputs: AnalysisInput[] }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failed: Error | null = null;

  /**
   * `reviews`: how many the pool is for, so it starts no more threads than it has batches (each loads
   * the engine, about a second of CPU: a one-review import then leaves the other core to a server).
   */
  constructor(engine: Engine, options: AnalyzerOptions, reviews: number) {
    const size = Math.max(1, Math.min(availableParallelism(), Math.ceil(reviews / BATCH)));
    this.workers = Array.from({ length: size }, () => {
      const w = startWorker('analysis-thread', import.meta.url, { engine: engine.module, options });
      w.on('message', (m: FromAnalysis) => {
        const p = this.pending.get(m.id)!;
        this.pending.delete(m.id);
        if ('error' in m) p.reject(new Error(`analysis failed: ${m.error}`));
        else p.resolve(m);
        this.idle.push(w);
        this.pump();
      });
      w.on('error', (err) => this.fail(err));
      w.on('exit', (code) => code !== 0 && this.fail(new Error(`an analysis thread exited with code ${code}`)));
      return w;
    });
    this.idle = [...this.workers];
  }

  private fail(err: Error): void {
    this.failed ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) this.idle.pop()!.postMessage(this.queue.shift());
  }

  private batch(inputs: AnalysisInput[]): Promise<Answer> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    const done = new Promise<Answer>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.queue.push({ id, inputs });
    this.pump();
    return done;
  }

  /**
   * The analyses of `inputs` (JSON text), in order; `onProgress` after each batch, `onFailure` for each review
   * whose analysis is its rating's and title's alone because the engine threw on its text.
   */
  async analyze(
    inputs: readonly AnalysisInput[],
    onProgress?: (done: number, total: number) => void,
    onFailure?: OnAnalysisFailure,
  ): Promise<string[]> {
    const out: string[] = new Array(inputs.length);
    let done = 0;
    const batches: Promise<void>[] = [];
    for (let i = 0; i < inputs.length; i += BATCH) {
      const slice = inputs.slice(i, i + BATCH);
      batches.push(
        this.batch(slice).then(({ analyses, failures }) => {
          for (const [id, error] of failures) onFailure?.(id, error);
          for (let k = 0; k < analyses.length; k++) out[i + k] = analyses[k];
          done += analyses.length;
          onProgress?.(done, inputs.length);
        }),
      );
    }
    await Promise.all(batches);
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

// Worker thread: analyses batches of reviews for AnalysisPool. Pure CPU work, no store access.
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalysisInput } from '../domain/index.js';
import { errorText } from '../threads/index.js';
import type { FromAnalysis } from './analysis-pool.js';
import { type AnalysisFailure, analyzeOrRate } from './analyze-or-rate.js';
import { type Analyzer, type AnalyzerOptions, loadEngine } from './engine.js';

type Batch = { id: number; inputs: AnalysisInput[] };
const { engine, options } = workerData as { engine: string; options: AnalyzerOptions };
let analyzer: Analyzer;

function handle({ id, inputs }: Batch): void {
  try {
    const failures: AnalysisFailure[] = [];
    const analyses = inputs.map((input) => {
      const { analysis, failure } = analyzeOrRate(analyzer, input);
      if (failure !== null) failures.push([input.id, failure]);
      return JSON.stringify(analysis);
    });
    parentPort!.postMessage({ id, analyses, failures } satisfies FromAnalysis);
  } catch (err) {
    parentPort!.postMessage({ id, error: errorText(err) } satisfies FromAnalysis);
  }
}

// The engine loads asynchronously; batches that arrive meanwhile wait, in order (one posted before a
// listener exists would be lost).
const early: Batch[] = [];
parentPort!.on('message', (m: Batch) => (analyzer ? handle(m) : early.push(m)));
analyzer = (await loadEngine(engine)).createAnalyzer(options);
for (const m of early.splice(0)) handle(m);

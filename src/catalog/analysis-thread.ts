// Worker thread: analyses batches of reviews for AnalysisPool. Pure CPU work, no store access.
import { parentPort, workerData } from 'node:worker_threads';
import { type AnalysisInput, type AnalyzerOptions, createAnalyzer } from '../insights/index.js';

const analyzer = createAnalyzer(workerData as AnalyzerOptions);
parentPort!.on('message', ({ id, inputs }: { id: number; inputs: AnalysisInput[] }) => {
  try {
    parentPort!.postMessage({ id, analyses: inputs.map((input) => JSON.stringify(analyzer.analyze(input))) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});

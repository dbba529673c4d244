// Worker thread: analyses batches of reviews for AnalysisPool. Pure CPU work, no store access.
import { parentPort, workerData } from 'node:worker_threads';
import { type AnalysisInput, type AnalyzerOptions, loadEngine } from './engine.js';

const { engine, options } = workerData as { engine: string; options: AnalyzerOptions };
const analyzer = (await loadEngine(engine)).createAnalyzer(options);
parentPort!.on('message', ({ id, inputs }: { id: number; inputs: AnalysisInput[] }) => {
  try {
    parentPort!.postMessage({ id, analyses: inputs.map((input) => JSON.stringify(analyzer.analyze(input))) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});

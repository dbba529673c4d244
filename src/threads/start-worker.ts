import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module `name` beside `base` (a caller's import.meta.url), whether the
 * code runs as TypeScript under tsx (development, tests) or compiled to JavaScript. Every worker does
 * background work (analyses, the corpus model, store writes), so it lowers its own priority first
 * (lowerThreadPriority), before it loads its modules: loading and compiling them is tens to hundreds of
 * ms of CPU that would otherwise compete with the event loop at its priority. Node 20 does not apply
 * the parent's `--import tsx` to workers, so a TypeScript worker registers tsx itself.
 */
export function startWorker(name: string, base: string, workerData: unknown): Worker {
  const ext = extname(fileURLToPath(base));
  const url = JSON.stringify(new URL(`./${name}${ext}`, base).href);
  const priority = JSON.stringify(new URL(`./priority${ext}`, import.meta.url).href);
  const lowered = `import(${priority}).then((p) => { p.lowerThreadPriority(); return import(${url}); })`;
  if (ext !== '.ts') return new Worker(lowered, { eval: true, workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return ${lowered}; })`, { eval: true, workerData });
}

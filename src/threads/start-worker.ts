import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module `name` beside `base` (a caller's import.meta.url), whether the
 * code runs as TypeScript under tsx (development, tests) or compiled to JavaScript. Node 20 does not
 * apply the parent's `--import tsx` to workers, so a TypeScript worker registers tsx itself first.
 */
export function startWorker(name: string, base: string, workerData: unknown): Worker {
  const ext = extname(fileURLToPath(base));
  const url = new URL(`./${name}${ext}`, base);
  if (ext !== '.ts') return new Worker(url, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

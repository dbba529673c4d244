export { startWorker } from './start-worker.js';
export { SliceClock, type Steps, runAtOnce, runInSlices } from './yield.js';
export { lowerThreadPriority } from './priority.js';

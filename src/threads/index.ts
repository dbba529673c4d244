export { startWorker } from './start-worker.js';
export { yieldToLoop, SliceClock } from './yield.js';

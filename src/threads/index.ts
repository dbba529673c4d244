export { errorText } from './error-text.js';
export {
  type Allocate,
  drainSteps,
  EMPTY_BYTES,
  everyPosition,
  type GrowableMemory,
  growablePrivate,
  growTo,
  joinSteps,
  sharedBuffer,
  TOUCH_STEP,
  zeroedSteps,
} from './join.js';
export { ownBytes } from './posted.js';
export { lowerProcessPriority } from './priority.js';
export { startWorker } from './start-worker.js';
export { runAtOnce, runInSlices, SliceClock, type Steps } from './yield.js';

export { formatLogLine } from './logger.js';
export { MMAP_THRESHOLD, MMAP_THRESHOLD_VARIABLE, restartEnv, runsOnGlibc } from './malloc-threshold.js';

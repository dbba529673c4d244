export { formatLogLine } from './logger.js';
export { MMAP_THRESHOLD, MMAP_THRESHOLD_VARIABLE, restartEnv } from './malloc-threshold.js';

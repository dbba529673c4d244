export { formatLogLine } from './logger.js';
export { MMAP_THRESHOLD, MMAP_THRESHOLD_VARIABLE, nodeAccepts, restartWith, runsOnGlibc, THREAD_PAGES_FLAG } from './memory-settings.js';

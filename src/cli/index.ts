export { formatLogLine } from './logger.js';

export { prefersHtml } from './accept.js';
export { buildApp } from './app.js';
export { answer, CACHE_CONTROL, etagMatches, negotiateEncoding, sendRepresentation, WAIT_FOR_CODING_UP_TO } from './conditional.js';
export { NotFoundError, sendError } from './errors.js';
export { FastPathCounts } from './fast-path.js';
export { parseHttpDate } from './http-date.js';
export { fastPathMetricsText, memoMetricsText } from './metrics.js';
export { buildOpenApi } from './openapi.js';
export { parseSearchParams, searchKey } from './search-params.js';

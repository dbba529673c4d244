export { buildApp } from './app.js';
export { CACHE_CONTROL, etagMatches, negotiateEncoding, sendRepresentation } from './conditional.js';
export { NotFoundError, sendError } from './errors.js';
export { parseHttpDate } from './http-date.js';
export { memoMetricsText } from './metrics.js';
export { buildOpenApi } from './openapi.js';
export { MemoBudget, RevisionCache } from './revision-cache.js';
export { representationSize } from './routes/search.js';
export { parseSearchParams, searchKey } from './search-params.js';

export { buildApp, type AppDeps } from './app.js';
export { buildOpenApi } from './openapi.js';
export { sendRepresentation, negotiateEncoding, etagMatches, CACHE_CONTROL } from './conditional.js';
export { sendError } from './errors.js';
export { parseHttpDate } from './http-date.js';
export { renderLlmsTxt } from './routes/discovery.js';
export { MemoBudget, RevisionCache } from './revision-cache.js';
export { representationSize } from './routes/search.js';
export { memoMetricsText } from './metrics.js';

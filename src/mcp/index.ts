export { MAX_BODY_BYTES, type McpConfig, registerMcp } from './http.js';
export { McpCounters, mcpMetricsText } from './metrics.js';
export { mcpToolDefinitions } from './server.js';
export { EVICTABLE_AFTER_MS, InMemorySessionStore, type SessionStore } from './sessions.js';
export { StoreSessionStore } from './store-sessions.js';
export { READ_ONLY_ANNOTATIONS, TOOLS } from './tools.js';
export { warmUp } from './warm-up.js';

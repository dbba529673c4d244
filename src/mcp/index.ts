export { MAX_BODY_BYTES, type McpConfig, type McpDeps, type McpLogger, registerMcp } from './http.js';
export { McpCounters, mcpMetricsText } from './metrics.js';
export { RESOURCE_URIS } from './resources.js';
export { createMcpServerFactory, type Exchange, type McpServerFactory, mcpToolDefinitions, SERVER_INFO } from './server.js';
export { EVICTABLE_AFTER_MS, InMemorySessionStore, type SessionLimits, type SessionRecord, type SessionStore } from './sessions.js';
export { StoreSessionStore } from './store-sessions.js';
export { READ_ONLY_ANNOTATIONS, TOOLS, type ToolSpec } from './tools.js';

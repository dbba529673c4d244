export { registerMcp, MAX_BODY_BYTES, type McpConfig, type McpDeps, type McpLogger } from './http.js';
export { mcpToolDefinitions, createMcpServerFactory, SERVER_INFO, type Exchange, type McpServerFactory } from './server.js';
export { InMemorySessionStore, EVICTABLE_AFTER_MS, type SessionRecord, type SessionStore, type SessionLimits } from './sessions.js';
export { RESOURCE_URIS } from './resources.js';
export { TOOLS, READ_ONLY_ANNOTATIONS, type ToolSpec } from './tools.js';
export { StoreSessionStore } from './store-sessions.js';
export { McpCounters, mcpMetricsText } from './metrics.js';

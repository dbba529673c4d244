export { HubConfigSchema, hubConfigFromEnv, clampLease, retryDelayMs, type HubConfig, type HubConfigInput } from './config.js';
export { registerHub, HUB_PATH } from './routes.js';
export { HubWorker, type HubDeps, type HubLog } from './worker.js';
export { formatSubscriptions, listSubscriptions, removeSubscription, type SubscriptionInfo } from './admin.js';
export { metricsText, type HubMetrics, HubCounters } from './metrics.js';
export { hubSignature } from './signature.js';

export { canonicalHost, forbiddenReason, isLocalHostname } from './address.js';
export { formatSubscriptions, listSubscriptions, removeSubscription } from './admin.js';
export { clampLease, type HubConfigInput, HubConfigSchema, type HubLimits, hubConfigFrom, retryDelayMs } from './config.js';
export { guardConnector, OutboundClient, type OutboundResult, publicOnlyLookup, refuseUrl } from './outbound.js';
export { redactUrl } from './redact.js';
export { parseHubRequest, withQuery } from './request.js';
export { registerHub } from './routes.js';
export { hubSignature } from './signature.js';
export { HubWorker } from './worker.js';

export { DEFAULT_API_OPTIONS, retryAfterMs } from './api-client.js';
export { SyncError } from './errors.js';
export { type GoogleAuthOptions, googleConsentUrl, googleExchangeCode } from './google-auth.js';
export { SyncScheduler } from './scheduler.js';
export { SECRETS, SOURCE_KINDS, type SourceKind, type SourceSettingsInput, SourceSettingsSchema } from './settings.js';
export { describeCredentials, type SourceStatus, sourceStatuses, sourcesMetricsText } from './status.js';
export { parseSettings, type SyncDeps, type SyncLog, type SyncOutcome, syncNow } from './sync.js';
export { trustpilotToRecord } from './trustpilot.js';

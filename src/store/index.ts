export { Store, type Revision, type Tx } from './store.js';
export { connect, isPostgresUrl, type Connection, type Dialect } from './connect.js';
export type { Database, ReviewTable, ReviewAnalysisTable, RevisionTable, CatalogSnapshotTable } from './schema.js';
export { RevisionListener, REVISION_CHANNEL } from './revision-listener.js';
export { RateLimiter } from './rate-limit.js';
export type { WebsubDeliveryTable, WebsubSubscriptionTable, WebsubVerificationTable } from './schema.js';

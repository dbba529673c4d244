export { type ReviewChange, reviewChanges } from './changes.js';
export { type Connection, connect, type Dialect, isPostgresUrl } from './connect.js';
export { RateLimiter } from './rate-limit.js';
export { REVISION_CHANNEL, RevisionListener } from './revision-listener.js';
export type {
  CatalogSnapshotTable,
  Database,
  ReviewAnalysisTable,
  ReviewTable,
  RevisionTable,
  WebsubDeliveryTable,
  WebsubSubscriptionTable,
  WebsubVerificationTable,
} from './schema.js';
export { type Revision, Store, type Tx } from './store.js';

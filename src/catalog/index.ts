export { type CatalogChanges, type CatalogInput, holdAll, type RowsPage, stageAll } from './build-catalog.js';
export { totalLength } from './byte-parts.js';
export { Catalog, type Representations } from './catalog.js';
export { type ChangesReader, changesPage } from './change-feed.js';
export { type Seeded, StaleCorpusError } from './corpus-model.js';
export { type CorpusEngine, CorpusWorker, LocalCorpus } from './corpus-worker.js';
export { analyzerOptions, type Engine } from './engine.js';
export { analyseReviews, analyzePending } from './missing-analyses.js';
export { NeedleMemo } from './needle-memo.js';
export {
  type AnalysesToStore,
  buildContext,
  buildNextRevision,
  type HeldRevision,
  loadRevision,
  NO_PROFILE,
} from './next-revision.js';
export { newestFirst, orderUpdated } from './ordered-reviews.js';
export { type CarriedRuns, carriedRuns } from './render/carried-runs.js';
export { FEED_SIZE } from './render/feeds.js';
export { SplicedJson } from './render/spliced-json.js';
export { type CompressionPolicy, type Encoding, httpDate, PER_REVISION, PER_URL, Representation } from './representation.js';
export { ReviewIndex } from './review-index.js';
export { MemoBudget, perRevision, RevisionCache, representationSize } from './revision-memo.js';
export {
  type CatalogSnapshot,
  catalogFormat,
  decodeSnapshot,
  SnapshotFormatError,
  snapshotFormat,
  snapshotLoader,
} from './snapshot-format.js';
export { TextIndex } from './text-index.js';

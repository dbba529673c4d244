export { type AggregateRating, AggregateRatingSchema, RatingTally, shiftDays } from './aggregate-rating.js';
export { type Business, type BusinessInput, BusinessSchema, ServiceSchema, TechnicianSchema, VerticalSchema } from './business.js';
export {
  type ChangesQuery,
  ChangesQuerySchema,
  type ChangesResult,
  ChangesResultSchema,
  type Tombstone,
  TombstoneSchema,
} from './changes.js';
export { IsoDateSchema } from './common.js';
export { decodeCursor, encodeCursor, fingerprint, type SearchCursor } from './cursor.js';
export { DamagedSnapshotError, type ErrorBody, type ErrorIssue, NotReadyError, StoreBusyError, toErrorIssues } from './errors.js';
export { hashOf } from './hash.js';
export { HubRequestFormSchema } from './hub.js';
export {
  type AspectInsight,
  AspectInsightSchema,
  type AspectMention,
  type CorpusAnalysis,
  type EntityInsight,
  EntityInsightSchema,
  type FaqEntry,
  type Insights,
  InsightsSchema,
  type MonthlyPoint,
  POLARITIES,
  type Polarity,
  type ProblemInsight,
  type ReviewAnalysis,
  ReviewAnalysisSchema,
  type ReviewAspect,
  type SentenceAnalysis,
  type TopicInsight,
  type Trend,
  type TrendDetail,
} from './insights.js';
export { Interner } from './interner.js';
export { type JsonFeed, JsonFeedSchema } from './json-feed.js';
export { componentRef, componentSchemas, inlineLocalRefs, inlineRootRef, refName, standalone } from './json-schema.js';
export { createMentionMatcher, foldText, type MentionMatcher, type Nameable } from './mentions.js';
export {
  DATASETS,
  type DatasetName,
  isTopic,
  type Links,
  linkHeader,
  links,
  PATHS,
  TOPICS,
  type TopicName,
  topicUrl,
} from './public-paths.js';
export type { Result } from './result.js';
export {
  type AnalysisInput,
  EARLIEST_REVIEW_DATE,
  FUTURE_TOLERANCE_MS,
  type ImportRecord,
  type ImportRecordInput,
  ImportRecordSchema,
  type Review,
  ReviewSchema,
  type StoredAnalysis,
  type StoredReview,
  StoredReviewSchema,
} from './review.js';
export { REVIEW_VIEW_KEYS, ReviewItemSchema, type ReviewView, ReviewViewSchema, resolveView, viewReview } from './review-view.js';
export { type ReviewsDocument, ReviewsDocumentSchema } from './reviews-document.js';
export {
  SEARCH_LIMIT_DEFAULT,
  SEARCH_PARAMS,
  type SearchParam,
  type SearchQuery,
  SearchQuerySchema,
  type SearchRequest,
  type SearchResult,
  SearchResultSchema,
  SinceQuerySchema,
  type SinceResult,
  SinceResultSchema,
  searchFingerprint,
  sinceAfterUntil,
} from './search.js';
export { SNAPSHOT_BYTES_FIELDS, type SnapshotBytesField, type StoredSnapshot, type StoredSnapshotParts } from './snapshot.js';
export type { StoredSource } from './source.js';
export { varintBytes } from './varint.js';

import { z } from 'zod';
import { type Catalog, type ChangesReader, changesPage } from '../catalog/index.js';
import {
  AggregateRatingSchema,
  AspectInsightSchema,
  BusinessSchema,
  ChangesQuerySchema,
  ChangesResultSchema,
  EntityInsightSchema,
  InsightsSchema,
  IsoDateSchema,
  type Review,
  ReviewAnalysisSchema,
  ReviewItemSchema,
  ReviewSchema,
  ReviewViewSchema,
  SearchQuerySchema,
  SearchResultSchema,
  ServiceSchema,
  SinceQuerySchema,
  SinceResultSchema,
  TechnicianSchema,
  TombstoneSchema,
} from '../domain/index.js';
import { type EntityKind, mentioning } from './entity-kinds.js';
import { entityStats, findAspect, findEntity, UnknownName } from './lookup.js';

/**
 * The thirteen read-only tools. Each is a pure function of one catalog revision; inputs and outputs
 * are the domain's Zod schemas (composed where a tool returns a wrapper), so tools/list, validation
 * and the REST surface can never disagree about a shape.
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  /** Returns the structured result, or throws UnknownName with a message that says what is valid. */
  run(catalog: Catalog, args: unknown, store: ToolStore): unknown;
  /** Reads the store as well as the catalog (up to the catalog's revision): offered only when the store is there. */
  readsStore?: true;
  /** A short text block for clients on revisions where structuredContent carries the result (lists of reviews); `viewed`: trimmed by a review view. */
  summary?: (result: never, viewed: boolean) => string;
  /** The result's list of reviews: the tool also takes the review view options (ReviewViewSchema), applied to that list. */
  reviewList?: string;
}

/** What the tools that read the store get besides the catalog. */
export interface ToolStore {
  changes: ChangesReader;
}

/** Every tool only reads one immutable snapshot of public data. */
export const READ_ONLY_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

function tool<I extends z.ZodType, O extends z.ZodType>(spec: {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(catalog: Catalog, args: z.output<I>, store: ToolStore): z.output<O> | Promise<z.output<O>>;
  readsStore?: true;
  summary?: (result: z.output<O>, viewed: boolean) => string;
  reviewList?: string;
}): ToolSpec {
  return spec as ToolSpec;
}

const NoArguments = z.object({});

/** Where the structured result is, as the summaries say it. */
const holds = (list: string, viewed: boolean) => `(structuredContent.${list} has them ${viewed ? 'with the fields asked for' : 'in full'})`;

/** The text block beside a list of reviews: what it holds, one line per review (only fields the view kept), and how to go on. */
function listSummary(
  reviews: readonly { id: string; rating?: number; date?: string }[],
  what: string,
  next: string | null,
  viewed: boolean,
): string {
  const lines = reviews.map((r) =>
    [r.id, r.rating === undefined ? '' : ` ${r.rating}★`, r.date === undefined ? '' : ` ${r.date}`].join(''),
  );
  const more = next ? `next page: cursor=${next}` : 'last page';
  return [`${what} ${holds('reviews', viewed)}; ${more}`, ...lines].join('\n');
}

/** The review view options, beside a tool's own (safeExtend keeps the refinements of the tool's schema). */
const VIEW = ReviewViewSchema.shape;
/** A result whose list of reviews may be trimmed by a view: the list's items are ReviewItems. */
const ReviewItems = z.array(ReviewItemSchema);

/** How many recent reviews the entity tools return unless told otherwise. */
const RECENT_DEFAULT = 5;
const RecentLimit = z.int().min(0).max(20).default(RECENT_DEFAULT).describe('how many of the newest reviews to include (0–20, default 5)');
/** Aspects shown in the summary: the most mentioned ones. */
const TOP_ASPECTS = 5;

const EntityWithAliases = EntityInsightSchema.extend({ aliases: TechnicianSchema.shape.aliases });
const TechnicianListEntry = EntityWithAliases.extend({ role: TechnicianSchema.shape.role });

/** Paging of the entity tools' review lists: a search cursor of the search for reviews mentioning the entity. */
const EntityCursor = SearchQuerySchema.shape.cursor.describe(
  'next_cursor of the previous answer for the same entity, unchanged, to page through every review that mentions it',
);

function entityDetail<K extends EntityKind>(catalog: Catalog, kind: K, value: string, limit: number, cursor: string | undefined) {
  const { profile, stats } = findEntity(catalog, kind, value);
  const q = { ...mentioning(kind, profile.id), cursor };
  // The cursor is a search cursor for this entity's search: the one search schema checks it.
  const check = SearchQuerySchema.safeParse(q);
  if (!check.success) throw new UnknownName(check.error.issues.map((i) => i.message).join('; '));
  const page: { reviews: Review[]; next_cursor: string | null } =
    limit === 0 ? { reviews: [], next_cursor: null } : catalog.search({ ...q, limit });
  return { profile, stats, recent: page.reviews, next_cursor: page.next_cursor };
}

const EntityNextCursor = z.string().nullable().describe('pass as cursor (same entity) for the next page; null on the last page');

export const TOOLS: readonly ToolSpec[] = [
  tool({
    name: 'get_business',
    title: 'Business profile and rating',
    description:
      'The business these reviews are about: name, contact, address, opening hours, service areas, services and technicians (with aliases), plus the aggregate rating over every published review.',
    input: NoArguments,
    output: z.object({ business: BusinessSchema, aggregate_rating: AggregateRatingSchema }),
    run: (c) => ({ business: c.business, aggregate_rating: c.aggregateRating }),
  }),
  tool({
    name: 'search_reviews',
    title: 'Search reviews',
    description:
      'Verified reviews matching every given filter (AND), newest first: exact or minimum star rating, date range, case-insensitive text substring, technician or service (id, name or alias). `matched` counts all matches; at most `limit` (default 20, max 100) are returned.',
    input: SearchQuerySchema.safeExtend(VIEW),
    output: SearchResultSchema.extend({ reviews: ReviewItems }),
    run: (c, q) => c.search(q),
    reviewList: 'reviews',
    summary: (r, v) => listSummary(r.reviews, `${r.returned} of ${r.matched} matching reviews`, r.next_cursor, v),
  }),
  tool({
    name: 'get_review',
    title: 'Get one review',
    description: 'One published review by its id, with its aspect-based sentiment analysis when the review has one.',
    input: z.object({ id: z.string().min(1).max(64).describe('review id: the 26-character ULID returned by the search tools') }),
    output: z.object({ review: ReviewSchema, analysis: ReviewAnalysisSchema.nullable() }),
    run: (c, { id }) => {
      const review = c.review(id.toUpperCase());
      if (!review) {
        throw new UnknownName(
          `No published review has id "${id}". Review ids are 26-character ULIDs such as ${c.reviews[0]?.id ?? '01JA0000000000000000000000'}; find them with search_reviews or get_reviews_since.`,
        );
      }
      return { review, analysis: c.analysisOf(review.id) ?? null };
    },
  }),
  tool({
    name: 'get_reviews_since',
    title: 'Reviews since a date',
    description:
      'Reviews dated on or after a day (YYYY-MM-DD), newest first, for incremental sync. `count` is every review since that day; a page of at most `limit` (default 20, max 100) is returned, the newest first; pass next_cursor back as `cursor` for the next page. get_changes also reports edits, removals and late imports.',
    input: z
      .object({
        date: IsoDateSchema.describe('first day to include, YYYY-MM-DD'),
        limit: SearchQuerySchema.shape.limit,
        cursor: SinceQuerySchema.shape.cursor,
      })
      .extend(VIEW),
    output: SinceResultSchema.extend({ returned: z.int().min(0), reviews: ReviewItems }),
    run: (c, { date, limit, cursor }) => {
      // The cursor is a search cursor for since=date: the one search schema checks it.
      const check = SearchQuerySchema.safeParse({ since: date, cursor });
      if (!check.success) throw new UnknownName(check.error.issues.map((i) => i.message).join('; '));
      const page = c.sincePage(date, limit, cursor);
      return { ...page, returned: page.reviews.length };
    },
    reviewList: 'reviews',
    summary: (r, v) => listSummary(r.reviews, `${r.returned} of ${r.count} reviews since ${r.since}`, r.next_cursor, v),
  }),
  tool({
    name: 'get_changes',
    title: 'Changes since a cursor',
    description:
      'Every review added, changed or removed since `after` (a cursor from an earlier answer; none: from the start), in revision order: a review as it now is, or a tombstone { id, removed_at }. Follow next_cursor while it is not null, then keep now_cursor for the next poll. The REST GET /api/reviews/changes with the same schema.',
    input: ChangesQuerySchema.safeExtend(VIEW),
    output: ChangesResultSchema.extend({
      changes: z.array(z.union([ReviewItemSchema, TombstoneSchema])).describe(ChangesResultSchema.shape.changes.description!),
    }),
    readsStore: true,
    run: (c, q, store) => changesPage(c, store.changes, q),
    reviewList: 'changes',
    summary: (r, v) =>
      `${r.changes.length} changes up to revision ${r.revision} ${holds('changes', v)}; ` +
      (r.next_cursor ? `more follow: after=${r.next_cursor}` : `caught up: poll again with after=${r.now_cursor}`),
  }),
  tool({
    name: 'get_insights_summary',
    title: 'Insights summary',
    description:
      'What customers say overall: sentiment split, the editorial summary, a pull quote, the rating trend and the five most mentioned aspects with their sentiment.',
    input: NoArguments,
    output: InsightsSchema.pick({
      review_count: true,
      date_range: true,
      overall_sentiment: true,
      summary: true,
      pull_quote: true,
      pull_quote_review_id: true,
    }).extend({ trend: InsightsSchema.shape.temporal.shape.trend, top_aspects: z.array(AspectInsightSchema) }),
    run: (c) => {
      const i = c.insights;
      return {
        review_count: i.review_count,
        date_range: i.date_range,
        overall_sentiment: i.overall_sentiment,
        summary: i.summary,
        pull_quote: i.pull_quote,
        pull_quote_review_id: i.pull_quote_review_id,
        trend: i.temporal.trend,
        top_aspects: [...i.aspects].sort((a, b) => b.mention_count - a.mention_count).slice(0, TOP_ASPECTS),
      };
    },
  }),
  tool({
    name: 'list_aspects',
    title: 'List aspects',
    description:
      "Every aspect of the business's taxonomy (e.g. punctuality, pricing) with mention counts, sentiment split, score (-1..1), top phrases and quotes.",
    input: NoArguments,
    output: InsightsSchema.pick({ aspects: true }),
    run: (c) => ({ aspects: c.insights.aspects }),
  }),
  tool({
    name: 'get_aspect_sentiment',
    title: 'Sentiment about one aspect',
    description: 'Sentiment about one aspect, by id or label: counts, percentages, score, top phrases, example reviews and quotes.',
    input: z.object({ aspect: z.string().min(1).max(120).describe('aspect id or label, e.g. "punctuality"; list_aspects lists them') }),
    output: AspectInsightSchema,
    run: (c, { aspect }) => findAspect(c, aspect),
  }),
  tool({
    name: 'list_technicians',
    title: 'List technicians',
    description:
      'Every technician of the business with aliases, role, review count, average rating, share of positive reviews and top aspects.',
    input: NoArguments,
    output: z.object({ technicians: z.array(TechnicianListEntry) }),
    run: (c) => ({
      technicians: c.business.technicians.map((t) => ({ ...entityStats(c, 'technician', t), aliases: t.aliases, role: t.role })),
    }),
  }),
  tool({
    name: 'get_technician',
    title: 'Technician details',
    description:
      'One technician by id, name or alias: profile, review statistics, the aspects customers mention, and the newest reviews that mention them (`recent` per page; pass next_cursor back as `cursor` for older ones).',
    input: z
      .object({
        technician: z.string().min(1).max(120).describe('technician id, name or alias'),
        recent: RecentLimit,
        cursor: EntityCursor,
      })
      .extend(VIEW),
    output: z.object({
      technician: TechnicianSchema,
      stats: EntityInsightSchema,
      recent_reviews: ReviewItems,
      next_cursor: EntityNextCursor,
    }),
    run: (c, { technician, recent, cursor }) => {
      const d = entityDetail(c, 'technician', technician, recent, cursor);
      return { technician: d.profile, stats: d.stats, recent_reviews: d.recent, next_cursor: d.next_cursor };
    },
    reviewList: 'recent_reviews',
  }),
  tool({
    name: 'list_services',
    title: 'List services',
    description: 'Every service the business offers with aliases, review count, average rating, share of positive reviews and top aspects.',
    input: NoArguments,
    output: z.object({ services: z.array(EntityWithAliases) }),
    run: (c) => ({ services: c.business.services.map((s) => ({ ...entityStats(c, 'service', s), aliases: s.aliases })) }),
  }),
  tool({
    name: 'get_service',
    title: 'Service details',
    description:
      'One service by id, name or alias: profile, review statistics, the aspects customers mention, and the newest reviews about it (`recent` per page; pass next_cursor back as `cursor` for older ones).',
    input: z
      .object({ service: z.string().min(1).max(120).describe('service id, name or alias'), recent: RecentLimit, cursor: EntityCursor })
      .extend(VIEW),
    output: z.object({ service: ServiceSchema, stats: EntityInsightSchema, recent_reviews: ReviewItems, next_cursor: EntityNextCursor }),
    run: (c, { service, recent, cursor }) => {
      const d = entityDetail(c, 'service', service, recent, cursor);
      return { service: d.profile, stats: d.stats, recent_reviews: d.recent, next_cursor: d.next_cursor };
    },
    reviewList: 'recent_reviews',
  }),
  tool({
    name: 'get_rating_trend',
    title: 'Rating trend',
    description:
      'Monthly review count, average rating and sentiment (oldest month first), the trend label (improving, stable or declining) and the numbers behind it.',
    input: z.object({ months: z.int().min(1).max(600).optional().describe('only the most recent N months of the series (default: all)') }),
    output: InsightsSchema.shape.temporal,
    run: (c, { months }) => {
      const t = c.insights.temporal;
      return months === undefined ? t : { ...t, monthly: t.monthly.slice(-months) };
    },
  }),
  tool({
    name: 'get_faq',
    title: 'Questions answered by reviews',
    description:
      'Frequently asked questions about the business, each answered from the reviews with the ids of the reviews that support it.',
    input: NoArguments,
    output: InsightsSchema.pick({ faq: true }),
    run: (c) => ({ faq: c.insights.faq }),
  }),
];

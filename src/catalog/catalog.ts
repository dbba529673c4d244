import {
  type AggregateRating,
  type Business,
  type Review,
  type ReviewsDocument,
  type SearchQuery,
  type SearchResult,
  type SinceResult,
  computeAggregateRating,
  createMentionMatcher,
} from '../domain/index.js';
import type { Insights, ReviewAnalysis } from '../domain/insights.js';
import { buildInsights, createAnalyzer } from '../insights/index.js';
import type { Revision, ReviewTable } from '../store/index.js';
import { ReviewIndex } from './review-index.js';
import { renderAtom } from './render/atom.js';
import { renderJsonFeed } from './render/json-feed.js';
import { SplicedJson } from './render/spliced-json.js';
import { type Links, links } from './render/links.js';
import { Representation, httpDate } from './representation.js';
import { orderAll, orderUpdated } from './ordered-reviews.js';
import type { Attribution } from './to-review.js';

export const FEED_SIZE = 50;

/** Bump when the rendered shape of /reviews.json or /insights.json changes, so stored snapshots are rebuilt. */
export const CATALOG_FORMAT = 'catalog/2';

interface BuildCommon {
  revision: Revision;
  business: Business;
  /** Analyses by review id; a review without one is analysed here. */
  analyses: ReadonlyMap<string, ReviewAnalysis>;
  publicBaseUrl: string;
}

/** Build from stored rows: what a revision is made of. */
export interface CatalogInput extends BuildCommon {
  /** The published rows by id. */
  rows: ReadonlyMap<string, ReviewTable>;
}

/**
 * Build on the previous build (same business profile and base URL) from what changed since. Every
 * review not in `changes` keeps its Review object, its place in the order and its rendered bytes, so
 * one new review costs a splice, not a re-render of the corpus.
 */
export interface CatalogUpdate extends BuildCommon {
  previous: Catalog;
  /** Each id whose row or analysis may differ: its current published row, or null if it is no longer published. */
  changes: ReadonlyMap<string, ReviewTable | null>;
}

/** What a build from rows keeps for the next one. */
interface Built {
  /** The catalog's reviews and, at the same positions, their analyses. */
  reviews: readonly Review[];
  analyses: readonly ReviewAnalysis[];
  reviewsJson: SplicedJson;
  insightsJson: SplicedJson;
}

/** Load from a stored snapshot: the exact bytes an earlier build rendered for this revision. */
export interface CatalogSnapshot {
  revision: Revision;
  reviews: Buffer;
  insights: Buffer;
  /** Their gzip codings, as stored. */
  reviewsGzip: Buffer;
  insightsGzip: Buffer;
  /** The insights without `per_review` (the bulk of the document), parsed eagerly. */
  insightsCore: string;
  publicBaseUrl: string;
}

export interface Representations {
  reviews: Representation;
  insights: Representation;
  feedJson: Representation;
  feedAtom: Representation;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Analyses for the rows that have none in `known` (imported a moment after the analysis pass, or
 * analysed under an older profile): the engine is deterministic, so each equals what will be stored.
 */
export function analyzeMissing(business: Business, rows: Iterable<ReviewTable>, known: ReadonlyMap<string, ReviewAnalysis>): Map<string, ReviewAnalysis> {
  const out = new Map<string, ReviewAnalysis>();
  const missing: ReviewTable[] = [];
  for (const r of rows) if (!known.has(r.id)) missing.push(r);
  if (missing.length === 0) return out;
  const analyzer = createAnalyzer({ vertical: business.vertical, technicians: business.technicians, services: business.services, serviceAreas: business.service_areas });
  for (const r of missing) out.set(r.id, analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language }));
  return out;
}

/**
 * The per-review analyses are most of the insights document and are read one review at a time
 * (permalinks, MCP get_review), so a process loading a snapshot parses them on first use, not at start.
 */
function withLazyPerReview(core: Omit<Insights, 'per_review'>, body: Buffer): Insights {
  let perReview: Insights['per_review'] | undefined;
  return Object.defineProperty(core, 'per_review', {
    enumerable: true,
    get: () => (perReview ??= (JSON.parse(body.toString()) as Insights).per_review),
  }) as Insights;
}

/**
 * One data revision, immutable: everything every surface serves, with the dataset and feed bodies
 * rendered once. Built off the request path and swapped in whole, so a request never sees two revisions.
 */
export class Catalog {
  readonly revision: number;
  readonly generatedAt: string;
  readonly lastModified: string;
  readonly links: Links;
  readonly business: Business;
  readonly aggregateRating: AggregateRating;
  /** Published reviews, newest first. */
  readonly reviews: readonly Review[];
  readonly insights: Insights;
  readonly representations: Representations;
  readonly attribution: Attribution;
  private readonly index: ReviewIndex;
  private readonly built: Built | null = null;
  /** Review id → position, made on first use (a permalink or get_review), not on the freshness path. */
  private positions: Map<string, number> | null = null;

  constructor(input: CatalogInput | CatalogUpdate | CatalogSnapshot) {
    this.revision = input.revision.id;
    this.generatedAt = input.revision.created_at;
    this.lastModified = httpDate(this.generatedAt);
    this.links = links(input.publicBaseUrl);
    let reviewsBody: Buffer;
    let insightsBody: Buffer;
    let gzipped: { reviews?: Buffer; insights?: Buffer } = {};
    /** When built on a previous build: what this one made (everything else is carried over). */
    let carried: ReadonlySet<unknown> | undefined;
    if ('rows' in input || 'changes' in input) {
      this.business = input.business;
      const previous = 'changes' in input ? input.previous.built : null;
      if ('changes' in input && !previous) throw new Error('Catalog: an update needs a previous catalog that was built, not loaded');
      const rows = 'rows' in input ? input.rows.values() : [...input.changes.values()].filter((r) => r !== null);
      const missing = analyzeMissing(input.business, rows, input.analyses);
      const analyses = missing.size === 0 ? input.analyses : new Map([...input.analyses, ...missing]);
      const ordered = 'rows' in input ? orderAll(input.rows, analyses, this.links.review) : orderUpdated(previous!, input.changes, analyses, this.links.review);
      const { reviews } = ordered;
      this.reviews = reviews;
      this.aggregateRating = computeAggregateRating(reviews, this.generatedAt);
      this.insights = buildInsights({ business: input.business, reviews, analyses: ordered.analyses, generatedAt: this.generatedAt });
      const doc: ReviewsDocument = { business: this.business, aggregate_rating: this.aggregateRating, reviews, generated_at: this.generatedAt, revision: this.revision };
      const ids = reviews.map((r) => r.id);
      const reviewsJson = SplicedJson.render(doc, 'reviews', 'array', { keys: ids, values: reviews }, previous?.reviewsJson, ordered.fresh);
      // per_review in corpus order, which is this order (newest first): a property test holds the bytes to JSON.stringify.
      const insightsJson = SplicedJson.render(this.insights, 'per_review', 'object', { keys: ids, values: ordered.analyses }, previous?.insightsJson, ordered.fresh);
      this.built = { reviews, analyses: ordered.analyses, reviewsJson, insightsJson };
      if (previous) carried = ordered.fresh;
      reviewsBody = reviewsJson.body;
      insightsBody = insightsJson.body;
    } else {
      // Trusted bytes this service rendered and stored itself: parsed, not re-validated.
      const doc = JSON.parse(input.reviews.toString()) as ReviewsDocument;
      this.business = doc.business;
      this.aggregateRating = doc.aggregate_rating;
      this.reviews = doc.reviews;
      this.insights = withLazyPerReview(JSON.parse(input.insightsCore) as Omit<Insights, 'per_review'>, input.insights);
      reviewsBody = input.reviews;
      insightsBody = input.insights;
      gzipped = { reviews: input.reviewsGzip, insights: input.insightsGzip };
    }
    this.attribution = {
      technicians: createMentionMatcher(this.business.technicians),
      services: createMentionMatcher(this.business.services),
      areas: createMentionMatcher(this.business.service_areas),
    };
    const previousIndex = carried && 'changes' in input ? { index: input.previous.index, fresh: carried } : undefined;
    this.index = new ReviewIndex(this.reviews, this.attribution.technicians, this.attribution.services, undefined, previousIndex);

    const newest = this.reviews.slice(0, FEED_SIZE);
    const rep = (type: string, body: string | Buffer, gzip?: Buffer) => new Representation(type, typeof body === 'string' ? Buffer.from(body) : body, this.lastModified, gzip);
    this.representations = {
      reviews: rep(JSON_TYPE, reviewsBody, gzipped.reviews),
      insights: rep(JSON_TYPE, insightsBody, gzipped.insights),
      feedJson: rep('application/feed+json; charset=utf-8', JSON.stringify(renderJsonFeed(this.business, newest, this.links))),
      feedAtom: rep('application/atom+xml; charset=utf-8', renderAtom(this.business, newest, this.links, this.generatedAt)),
    };
  }

  private positionOf(id: string): number | undefined {
    if (!this.positions) {
      this.positions = new Map();
      for (let i = 0; i < this.reviews.length; i++) this.positions.set(this.reviews[i].id, i);
    }
    return this.positions.get(id);
  }

  /** A published review by id. */
  review(id: string): Review | undefined {
    const i = this.positionOf(id);
    return i === undefined ? undefined : this.reviews[i];
  }

  /** The stored analysis of a published review (without building the whole per_review object). */
  analysisOf(id: string): ReviewAnalysis | undefined {
    if (!this.built) return this.insights.per_review[id];
    const i = this.positionOf(id);
    return i === undefined ? undefined : this.built.analyses[i];
  }

  /**
   * What to store so the next process (or replica) can load this revision without rebuilding it: the
   * two large bodies gzip-coded (the coding clients are served anyway, made off the event loop), which
   * keeps the write small enough not to stall requests.
   */
  async snapshot(): Promise<{ reviews: Buffer; insights: Buffer; insights_core: string }> {
    const core: Record<string, unknown> = {};
    for (const k of Object.keys(this.insights)) if (k !== 'per_review') core[k] = this.insights[k as keyof Insights];
    const [reviews, insights] = await Promise.all([this.representations.reviews.encoded('gzip'), this.representations.insights.encoded('gzip')]);
    return { reviews, insights, insights_core: JSON.stringify(core) };
  }

  /** REST search and MCP search_reviews: one function, one schema (validated by the caller). */
  search(q: SearchQuery): SearchResult {
    return this.index.search(q);
  }

  since(date: string): SinceResult {
    const reviews = this.index.since(date) as Review[];
    return { since: date, count: reviews.length, reviews };
  }
}

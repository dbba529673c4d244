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
import { type Links, links } from './render/links.js';
import { Representation, httpDate } from './representation.js';
import { type Attribution, toReview } from './to-review.js';

export const FEED_SIZE = 50;

/** Bump when the rendered shape of /reviews.json or /insights.json changes, so stored snapshots are rebuilt. */
export const CATALOG_FORMAT = 'catalog/1';

/** Build from stored rows: what a revision is made of. */
export interface CatalogInput {
  revision: Revision;
  business: Business;
  rows: readonly ReviewTable[];
  analyses: ReadonlyMap<string, ReviewAnalysis>;
  publicBaseUrl: string;
}

/** Load from a stored snapshot: the exact bytes an earlier build rendered for this revision. */
export interface CatalogSnapshot {
  revision: Revision;
  reviews: Buffer;
  insights: Buffer;
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

/** The contract's order: date desc, then published_at desc, then id desc (plain code-unit comparison). */
const newestFirst = (a: Review, b: Review) =>
  a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.published_at !== b.published_at ? (a.published_at < b.published_at ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/**
 * Stored analyses plus, for any review that has none yet (imported a moment after the analysis pass),
 * one computed here: the engine is deterministic, so the result equals what will be stored.
 */
function completeAnalyses(business: Business, rows: readonly ReviewTable[], stored: ReadonlyMap<string, ReviewAnalysis>): Map<string, ReviewAnalysis> {
  const all = new Map(stored);
  const missing = rows.filter((r) => !all.has(r.id));
  if (missing.length === 0) return all;
  const analyzer = createAnalyzer({ vertical: business.vertical, technicians: business.technicians, services: business.services, serviceAreas: business.service_areas });
  for (const r of missing) all.set(r.id, analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language }));
  return all;
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
  readonly byId: ReadonlyMap<string, Review>;
  readonly insights: Insights;
  readonly representations: Representations;
  readonly attribution: Attribution;
  private readonly index: ReviewIndex;

  constructor(input: CatalogInput | CatalogSnapshot) {
    this.revision = input.revision.id;
    this.generatedAt = input.revision.created_at;
    this.lastModified = httpDate(this.generatedAt);
    this.links = links(input.publicBaseUrl);
    let reviewsBody: Buffer;
    let insightsBody: Buffer;
    if ('rows' in input) {
      this.business = input.business;
      const analyses = completeAnalyses(input.business, input.rows, input.analyses);
      this.reviews = input.rows.map((row) => toReview(row, analyses.get(row.id)!, this.links.review)).sort(newestFirst);
      this.aggregateRating = computeAggregateRating(this.reviews, this.generatedAt);
      this.insights = buildInsights({ business: input.business, reviews: this.reviews as Review[], analyses, generatedAt: this.generatedAt });
      const doc: ReviewsDocument = {
        business: this.business,
        aggregate_rating: this.aggregateRating,
        reviews: this.reviews as Review[],
        generated_at: this.generatedAt,
        revision: this.revision,
      };
      reviewsBody = Buffer.from(JSON.stringify(doc));
      insightsBody = Buffer.from(JSON.stringify(this.insights));
    } else {
      // Trusted bytes this service rendered and stored itself: parsed, not re-validated.
      const doc = JSON.parse(input.reviews.toString()) as ReviewsDocument;
      this.business = doc.business;
      this.aggregateRating = doc.aggregate_rating;
      this.reviews = doc.reviews;
      this.insights = withLazyPerReview(JSON.parse(input.insightsCore) as Omit<Insights, 'per_review'>, input.insights);
      reviewsBody = input.reviews;
      insightsBody = input.insights;
    }
    this.attribution = {
      technicians: createMentionMatcher(this.business.technicians),
      services: createMentionMatcher(this.business.services),
      areas: createMentionMatcher(this.business.service_areas),
    };
    this.byId = new Map(this.reviews.map((r) => [r.id, r]));
    this.index = new ReviewIndex(this.reviews, this.attribution.technicians, this.attribution.services);

    const newest = this.reviews.slice(0, FEED_SIZE);
    const rep = (type: string, body: string | Buffer) => new Representation(type, typeof body === 'string' ? Buffer.from(body) : body, this.lastModified);
    this.representations = {
      reviews: rep(JSON_TYPE, reviewsBody),
      insights: rep(JSON_TYPE, insightsBody),
      feedJson: rep('application/feed+json; charset=utf-8', JSON.stringify(renderJsonFeed(this.business, newest, this.links))),
      feedAtom: rep('application/atom+xml; charset=utf-8', renderAtom(this.business, newest, this.links, this.generatedAt)),
    };
  }

  /** What to store so the next process (or replica) can load this revision without rebuilding it. */
  snapshot(): { reviews: Buffer; insights: Buffer; insights_core: string } {
    const { per_review: _, ...core } = this.insights;
    return { reviews: this.representations.reviews.body, insights: this.representations.insights.body, insights_core: JSON.stringify(core) };
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

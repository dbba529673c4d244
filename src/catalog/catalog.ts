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
import { PER_URL, Representation, httpDate } from './representation.js';
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

/** What a catalog keeps so the next revision can be built on it. */
interface Built {
  /** The catalog's reviews and, at the same positions, their analyses (filled on use after a snapshot load). */
  reviews: readonly Review[];
  analyses: (ReviewAnalysis | undefined)[];
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
  /** Where each review and analysis lies in the bodies (Catalog.snapshot's `layout`). */
  layout: Buffer;
  /** The insights document with `per_review` (its bulk) as an empty placeholder, parsed eagerly. */
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
function analyzeMissing(business: Business, rows: Iterable<ReviewTable>, known: ReadonlyMap<string, ReviewAnalysis>): Map<string, ReviewAnalysis> {
  const out = new Map<string, ReviewAnalysis>();
  const missing: ReviewTable[] = [];
  for (const r of rows) if (!known.has(r.id)) missing.push(r);
  if (missing.length === 0) return out;
  const analyzer = createAnalyzer({ vertical: business.vertical, technicians: business.technicians, services: business.services, serviceAreas: business.service_areas });
  for (const r of missing) out.set(r.id, analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language }));
  return out;
}

/** Two layouts in one stored value: the first's length, then both. */
const packLayouts = (a: Buffer, b: Buffer) => {
  const n = Buffer.alloc(4);
  n.writeUInt32LE(a.length, 0);
  return Buffer.concat([n, a, b]);
};
const unpackLayouts = (packed: Buffer): [Buffer, Buffer] => {
  const n = packed.readUInt32LE(0);
  return [packed.subarray(4, 4 + n), packed.subarray(4 + n)];
};

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
  private readonly built: Built;
  /** Analyses this build computed because none was given (to be stored); empty for a loaded snapshot. */
  readonly analysed: ReadonlyMap<string, ReviewAnalysis> = new Map();
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
      let previous: (Built & { analyses: ReviewAnalysis[] }) | null = null;
      if ('changes' in input) {
        // After a snapshot load, whatever the background pass has not parsed yet is parsed now.
        for (let i = 0; i < input.previous.reviews.length; i++) input.previous.analysisAt(i);
        previous = input.previous.built as Built & { analyses: ReviewAnalysis[] };
      }
      const rows = 'rows' in input ? input.rows.values() : [...input.changes.values()].filter((r) => r !== null);
      const missing = analyzeMissing(input.business, rows, input.analyses);
      this.analysed = missing;
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
      // Trusted bytes this service rendered and stored itself: parsed, not re-validated. The analyses
      // (most of the insights document) are parsed one at a time when used, from the stored layout.
      const doc = JSON.parse(input.reviews.toString()) as ReviewsDocument;
      this.business = doc.business;
      this.aggregateRating = doc.aggregate_rating;
      this.reviews = doc.reviews;
      const ids = doc.reviews.map((r) => r.id);
      const [reviewsLayout, insightsLayout] = unpackLayouts(input.layout);
      const analyses: (ReviewAnalysis | undefined)[] = new Array(ids.length).fill(undefined);
      this.built = {
        reviews: doc.reviews,
        analyses,
        reviewsJson: SplicedJson.fromLayout(input.reviews, reviewsLayout, ids, doc.reviews),
        insightsJson: SplicedJson.fromLayout(input.insights, insightsLayout, ids, analyses),
      };
      let perReview: Insights['per_review'] | undefined;
      this.insights = Object.defineProperty(JSON.parse(input.insightsCore), 'per_review', {
        enumerable: true,
        configurable: true,
        get: () => (perReview ??= Object.fromEntries(ids.map((id, i) => [id, this.analysisAt(i)]))),
      }) as Insights;
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
    const rep = (type: string, body: string | Buffer, known?: { digest: Buffer; gzipped?: Buffer }) =>
      new Representation(type, typeof body === 'string' ? Buffer.from(body) : body, this.lastModified, known);
    this.representations = {
      reviews: rep(JSON_TYPE, reviewsBody, { digest: this.built.reviewsJson.digest, gzipped: gzipped.reviews }),
      insights: rep(JSON_TYPE, insightsBody, { digest: this.built.insightsJson.digest, gzipped: gzipped.insights }),
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
    const i = this.positionOf(id);
    return i === undefined ? undefined : this.analysisAt(i);
  }

  /** The analysis at position i, parsed from the stored bytes on first use after a snapshot load (once, so it stays one object). */
  private analysisAt(i: number): ReviewAnalysis {
    const built = this.built;
    let a = built.analyses[i];
    if (!a) {
      const item = built.insightsJson.itemText(i);
      a = built.analyses[i] = JSON.parse(item.slice(JSON.stringify(this.reviews[i].id).length + 1)) as ReviewAnalysis;
    }
    return a;
  }

  /**
   * Parses every analysis still unparsed (after a snapshot load), a slice per event-loop turn, so the
   * next revision's build finds them ready without stalling requests meanwhile; stops early once
   * `stillNeeded` says this catalog was replaced.
   */
  async prepareUpdate(stillNeeded: () => boolean, slice = 2_000): Promise<void> {
    for (let i = 0; i < this.reviews.length && stillNeeded(); i++) {
      if (this.built.analyses[i]) continue;
      this.analysisAt(i);
      if (i % slice === slice - 1) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * What to store so the next process (or replica) can load this revision without rebuilding it: the
   * two large bodies gzip-coded (the coding clients are served anyway, made off the event loop), which
   * keeps the write small enough not to stall requests.
   */
  async snapshot(): Promise<{ reviews: Buffer; insights: Buffer; insights_core: string; layout: Buffer }> {
    const core: Record<string, unknown> = {};
    // per_review stays as an empty placeholder, keeping its place in the key order for the loader.
    for (const k of Object.keys(this.insights)) core[k] = k === 'per_review' ? {} : this.insights[k as keyof Insights];
    const [reviews, insights] = await Promise.all([this.representations.reviews.encoded('gzip'), this.representations.insights.encoded('gzip')]);
    return { reviews, insights, insights_core: JSON.stringify(core), layout: packLayouts(this.built.reviewsJson.layout(), this.built.insightsJson.layout()) };
  }

  /** REST search and MCP search_reviews: one function, one schema (validated by the caller). */
  search(q: SearchQuery): SearchResult {
    return this.index.search(q);
  }

  since(date: string): SinceResult {
    const reviews = this.index.since(date) as Review[];
    return { since: date, count: reviews.length, reviews };
  }

  /**
   * `GET /api/reviews/since/{date}`: the bytes of JSON.stringify(this.since(date)), spliced from the
   * rendered /reviews.json (the reviews since a day are its newest-first prefix), so even a body of
   * every review costs no rendering and no copy. A property test holds it to JSON.stringify.
   */
  sinceRepresentation(date: string): Representation {
    const count = this.index.since(date).length;
    const doc: Omit<SinceResult, 'reviews'> & { reviews: [] } = { since: date, count, reviews: [] };
    const { parts, digest, ownedBytes } = this.built.reviewsJson.prefixDocument(doc, 'reviews', count);
    return new Representation(JSON_TYPE, parts, this.lastModified, { digest, ownedBytes, policy: PER_URL });
  }
}

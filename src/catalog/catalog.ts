import type { Insights, ReviewAnalysis } from '../domain/index.js';
import {
  type AggregateRating,
  type Business,
  decodeCursor,
  type Links,
  links,
  type Review,
  type ReviewsDocument,
  type SearchRequest,
  type SearchResult,
  type SinceResult,
} from '../domain/index.js';
import type { Revision } from '../store/index.js';
import { runAtOnce, runInSlices, SliceClock, type Steps } from '../threads/index.js';
import type { AnalysisFailure } from './analyze-or-rate.js';
import { attributionFor, buildParts, type CatalogChanges, type CatalogFromStaged, type CatalogInput, stageAll } from './build-catalog.js';
import type { SeedBodies } from './corpus-model.js';
import type { CorpusEngine } from './corpus-worker.js';
import { type HeldOrder, heldColumns, holdColumns, plainReview } from './lazy-review.js';
import { FEED_SIZE, renderFeeds } from './render/feeds.js';
import { SplicedJson } from './render/spliced-json.js';
import { httpDate, PER_URL, Representation } from './representation.js';
import { ReviewIndex } from './review-index.js';
import { type CatalogSnapshot, encodeSnapshot, type SnapshotBodies } from './snapshot-format.js';
import type { Attribution } from './to-review.js';

/** Everything one revision is made of: what a build computes, or a snapshot holds. */
export interface CatalogParts {
  revision: Revision;
  business: Business;
  links: Links;
  aggregateRating: AggregateRating;
  /** Published reviews, newest first, and their records (see HeldOrder). */
  held: HeldOrder;
  reviewsJson: SplicedJson;
  /** The insights body: per_review items at the reviews' positions, parsed from it when used. */
  insightsJson: SplicedJson;
  insightsCore: string;
  attribution: Attribution;
  index: ReviewIndex;
  /** Analyses this build made because none was stored (JSON, to be stored). */
  analysed: ReadonlyMap<string, string>;
  /** Reviews among those whose text the engine could not read: their analyses are their ratings' and titles' (see analyzeOrRate). */
  failed: readonly AnalysisFailure[];
  feeds: { json: Buffer; atom: Buffer };
  /** Each body's gzip coding in the parts a snapshot was read in. */
  gzipped?: { reviews: readonly Buffer[]; insights: readonly Buffer[] };
}

export interface Representations {
  reviews: Representation;
  insights: Representation;
  feedJson: Representation;
  feedAtom: Representation;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * One data revision, immutable: everything every surface serves, with the dataset and feed bodies
 * rendered once. Built off the request path and swapped in whole, so a request never sees two
 * revisions. Made only by its named builders: fromReviews or fromStaged (from scratch), update (on the previous
 * revision, from what changed) and fromSnapshot (the bytes an earlier build stored).
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
  /** The same reviews with their records: the next revision's build carries them by position. */
  readonly held: HeldOrder;
  readonly insights: Insights;
  readonly representations: Representations;
  readonly attribution: Attribution;
  /** Analyses this build made because none was stored (JSON, to be stored); empty for a loaded snapshot. */
  readonly analysed: ReadonlyMap<string, string>;
  /** Reviews among those whose text the engine could not read: their analyses are their ratings' and titles' (see analyzeOrRate). */
  readonly failed: readonly AnalysisFailure[];
  /** The search index; the next revision's build carries its text index over. */
  readonly index: ReviewIndex;
  readonly reviewsJson: SplicedJson;
  readonly insightsJson: SplicedJson;
  private readonly insightsCore: string;
  /** Analyses parsed from the insights body on first use, at the reviews' positions. */
  private readonly analyses: (ReviewAnalysis | undefined)[];
  /** Review id → position: made by indexIds once the catalog is served, or at once by a lookup before that. */
  private positions: Map<string, number> | null = null;

  private constructor(parts: CatalogParts) {
    this.revision = parts.revision.id;
    this.generatedAt = parts.revision.created_at;
    this.lastModified = httpDate(this.generatedAt);
    this.links = parts.links;
    this.business = parts.business;
    this.aggregateRating = parts.aggregateRating;
    this.held = parts.held;
    this.reviews = parts.held.reviews;
    this.reviewsJson = parts.reviewsJson;
    this.insightsJson = parts.insightsJson;
    this.insightsCore = parts.insightsCore;
    this.attribution = parts.attribution;
    this.index = parts.index;
    this.analysed = parts.analysed;
    this.failed = parts.failed;
    this.analyses = new Array(this.reviews.length);
    const ids = () => this.reviewsJson.keys;
    let perReview: Insights['per_review'] | undefined;
    // The bulk of the document (100k analyses) is parsed only if something reads it whole.
    this.insights = Object.defineProperty(JSON.parse(parts.insightsCore), 'per_review', {
      enumerable: true,
      configurable: true,
      get: () => (perReview ??= Object.fromEntries(ids().map((id, i) => [id, this.analysisAt(i)]))),
    }) as Insights;
    const rep = (type: string, body: Buffer | readonly Buffer[], known?: ConstructorParameters<typeof Representation>[3]) =>
      new Representation(type, body, this.lastModified, known);
    this.representations = {
      reviews: rep(JSON_TYPE, parts.reviewsJson.parts, { digest: parts.reviewsJson.digest, gzipped: parts.gzipped?.reviews }),
      insights: rep(JSON_TYPE, parts.insightsJson.parts, { digest: parts.insightsJson.digest, gzipped: parts.gzipped?.insights }),
      feedJson: rep('application/feed+json; charset=utf-8', parts.feeds.json),
      feedAtom: rep('application/atom+xml; charset=utf-8', parts.feeds.atom),
    };
  }

  /** A revision from every published review, held at once (tests and tools; a server reads in pages). */
  static async fromReviews(input: CatalogInput, engine: CorpusEngine, clock = new SliceClock()): Promise<Catalog> {
    const staged = await stageAll([{ rows: [...input.rows.values()], analyses: input.analyses }], input, engine, clock);
    return Catalog.fromStaged({ ...input, staged }, engine, clock);
  }

  /** A revision from every published review, made and staged page by page as they were read (stageAll). */
  static async fromStaged(input: CatalogFromStaged, engine: CorpusEngine, clock = new SliceClock()): Promise<Catalog> {
    return new Catalog(await buildParts(input, null, engine, clock));
  }

  /**
   * The next revision, built on `previous` from what changed since: only the changed reviews are
   * rendered and indexed again. `engine` must hold `previous`'s corpus (else StaleCorpusError).
   */
  static async update(previous: Catalog, input: CatalogChanges, engine: CorpusEngine, clock = new SliceClock()): Promise<Catalog> {
    return new Catalog(await buildParts(input, previous, engine, clock));
  }

  /**
   * A revision from a stored snapshot: trusted bytes this service rendered and stored itself, parsed,
   * not re-validated. Analyses are parsed one at a time when used, from the stored layout.
   */
  static fromSnapshot(revision: Revision, input: CatalogSnapshot, publicBaseUrl: string): Catalog {
    // No review is parsed: each is held where its bytes are by the fields stored beside the body, and
    // the text index is restored as it was stored.
    const spans: { start: number; length: number }[] = [];
    const items = SplicedJson.storedSpans(input.reviews, input.reviewsLayout);
    let step = items.next();
    for (; !step.done; step = items.next()) spans.push(step.value);
    const held = holdColumns(input.heldColumns, input.reviews, spans);
    const { reviews } = held;
    const doc = JSON.parse(step.value) as Omit<ReviewsDocument, 'reviews'>;
    const ids = held.records.map((r) => r.id);
    const l = links(publicBaseUrl);
    const attribution = attributionFor(doc.business);
    return new Catalog({
      revision,
      business: doc.business,
      links: l,
      aggregateRating: doc.aggregate_rating,
      held,
      reviewsJson: SplicedJson.fromLayout(input.reviews, input.reviewsLayout, ids, reviews),
      insightsJson: SplicedJson.fromLayout(input.insights, input.insightsLayout, ids, []),
      insightsCore: input.insightsCore,
      attribution,
      index: ReviewIndex.create(
        reviews,
        held.records,
        attribution.technicians,
        attribution.services,
        undefined,
        undefined,
        input.textIndex,
      ),
      analysed: new Map(),
      failed: [],
      feeds: renderFeeds(doc.business, reviews.slice(0, FEED_SIZE).map(plainReview), l, revision.created_at),
      gzipped: { reviews: input.reviewsGzip, insights: input.insightsGzip },
    });
  }

  /**
   * Makes the id → position map in slices (100k map entries at 100k reviews: tens of milliseconds), so a
   * revision is served without waiting for it and a permalink does not make it on the request path.
   * It stops once `wanted` says no (the catalog was replaced before it ended).
   */
  async indexIds(wanted: () => boolean = () => true, clock = new SliceClock()): Promise<void> {
    if (this.positions) return;
    const made = await runInSlices(positionsOf(this.reviewsJson.keys, wanted), clock);
    if (made) this.positions ??= made;
  }

  /** Review id → position, if made already (an update reads it to find the changed reviews without a pass). */
  get knownPositions(): ReadonlyMap<string, number> | null {
    return this.positions;
  }

  private positionOf(id: string): number | undefined {
    this.positions ??= runAtOnce(positionsOf(this.reviewsJson.keys))!;
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

  /** The analysis at position i, parsed from the insights body on first use (once, so it stays one object). */
  private analysisAt(i: number): ReviewAnalysis {
    let a = this.analyses[i];
    if (!a) {
      a = this.analyses[i] = JSON.parse(this.insightsJson.memberValueText(i)) as ReviewAnalysis;
    }
    return a;
  }

  /**
   * What to store so the next process (or replica) can load this revision without rebuilding it: the
   * two large bodies gzip-coded (the coding clients are served anyway, made off the event loop), which
   * keeps the write small enough not to stall requests. `format` is snapshotFormat of the engine whose analyses it holds.
   */
  async snapshot(format: string, clock = new SliceClock()): Promise<SnapshotBodies & { layout: Buffer }> {
    const [reviewsGzip, insightsGzip] = await Promise.all([
      this.representations.reviews.encoded('gzip'),
      this.representations.insights.encoded('gzip'),
    ]);
    const held = await runInSlices(heldColumns(this.held.records), clock);
    return runInSlices(
      encodeSnapshot(
        {
          reviewsGzip,
          insightsGzip,
          insightsCore: this.insightsCore,
          reviewsLayout: this.reviewsJson.layoutParts(),
          insightsLayout: this.insightsJson.layoutParts(),
          heldColumns: held,
          textIndex: await runInSlices(this.index.text.encodeSteps(), clock),
        },
        format,
      ),
      clock,
    );
  }

  /** Both bodies (in shared memory) and their layouts: what a corpus thread takes this revision over from. */
  seedBodies(): SeedBodies {
    return {
      reviews: this.reviewsJson.parts,
      reviewsLayout: this.reviewsJson.layout(),
      insights: this.insightsJson.parts,
      insightsLayout: this.insightsJson.layout(),
    };
  }

  /** REST search and MCP search_reviews: one function, one schema (validated by the caller). */
  search(q: SearchRequest): SearchResult {
    return this.index.search(q, searchAfter(q));
  }

  /**
   * The bytes of JSON.stringify(this.search(q)) as parts, views of the rendered /reviews.json between
   * the page's own head and tail (no review is serialised or copied per request), with the digest of a
   * spliced document and the next cursor. A property test holds it to JSON.stringify.
   */
  searchPage(q: SearchRequest): { parts: Buffer[]; digest: Buffer; next_cursor: string | null } {
    const { matched, positions, next_cursor } = this.index.searchPositions(q, searchAfter(q));
    const doc: SearchResult = { matched, returned: positions.length, reviews: [], next_cursor };
    return { ...this.reviewsJson.pickDocument(doc, 'reviews', positions), next_cursor };
  }

  since(date: string): SinceResult {
    const reviews = this.index.since(date) as Review[];
    return { since: date, count: reviews.length, reviews, next_cursor: null };
  }

  /** One page of `since/{date}`: the search with only that day as filter, so their cursors are interchangeable. */
  sincePage(date: string, limit: number, cursor?: string): SinceResult {
    const { reviews, next_cursor } = this.search({ since: date, limit, cursor });
    return { since: date, count: this.index.since(date).length, reviews, next_cursor };
  }

  /**
   * `GET /api/reviews/since/{date}`: the bytes of JSON.stringify(this.since(date)), spliced from the
   * rendered /reviews.json (the reviews since a day are its newest-first prefix), so even a body of
   * every review costs no rendering and no copy. A property test holds it to JSON.stringify.
   */
  sinceRepresentation(date: string): Representation {
    const count = this.index.since(date).length;
    const doc: Omit<SinceResult, 'reviews'> & { reviews: [] } = { since: date, count, reviews: [], next_cursor: null };
    const { parts, digest, ownedBytes } = this.reviewsJson.prefixDocument(doc, 'reviews', count);
    return new Representation(JSON_TYPE, parts, this.lastModified, { digest, ownedBytes, policy: PER_URL });
  }
}

/** Review id → position, a slice at a time; null when it stopped because it was no longer wanted. */
function* positionsOf(ids: readonly string[], wanted = () => true): Steps<Map<string, number> | null> {
  const positions = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    positions.set(ids[i], i);
    if (i % 4096 === 0) {
      yield;
      if (!wanted()) return null;
    }
  }
  return positions;
}

/** The keyset position a search's cursor names, if it has one. */
function searchAfter(q: SearchRequest) {
  if (q.cursor === undefined) return undefined;
  const got = decodeCursor(q.cursor, 'search', 'cursor');
  // The schema has checked it; a caller that skipped the schema gets an error, not a wrong page.
  if ('issue' in got) throw new Error(got.issue.message);
  return got.cursor;
}

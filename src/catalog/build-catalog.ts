import {
  type Business,
  createMentionMatcher,
  links,
  RatingTally,
  type Review,
  type ReviewsDocument,
  type StoredReview,
} from '../domain/index.js';
import type { Revision } from '../store/index.js';
import type { SliceClock, Steps } from '../threads/index.js';
import { runInSlices } from '../threads/index.js';
import type { Catalog, CatalogParts } from './catalog.js';
import type { CorpusRow } from './corpus-model.js';
import type { CorpusEngine } from './corpus-worker.js';
import { HeldReviews, plainReview, tallied } from './lazy-review.js';
import { orderAll, orderUpdated } from './ordered-reviews.js';
import { FEED_SIZE } from './render/feeds.js';
import { SplicedJson } from './render/spliced-json.js';
import { ReviewIndex } from './review-index.js';
import type { Attribution } from './to-review.js';

interface BuildCommon {
  revision: Revision;
  business: Business;
  /** Stored analyses (JSON) by review id, each of its row as it is now; a review without one is analysed. */
  analyses: ReadonlyMap<string, string>;
  publicBaseUrl: string;
}

/** Build from stored reviews: what a revision is made of. */
export interface CatalogInput extends BuildCommon {
  /** The published reviews by id. */
  rows: ReadonlyMap<string, StoredReview>;
}

/**
 * What changed since the previous build (same business profile and base URL). Every review not in
 * `changes` keeps its Review object, its place in the order and its rendered bytes, so one new review
 * costs a splice, not a re-render of the corpus.
 */
export interface CatalogChanges extends BuildCommon {
  /** Each id whose row or analysis may differ: its current published row, or null if it is no longer published. */
  changes: ReadonlyMap<string, StoredReview | null>;
}

export const attributionFor = (business: Business): Attribution => ({
  technicians: createMentionMatcher(business.technicians),
  services: createMentionMatcher(business.services),
  areas: createMentionMatcher(business.service_areas),
});

/** Review id → position, a slice at a time. */
export function* positionsOf(reviews: readonly Review[]): Steps<Map<string, number>> {
  const positions = new Map<string, number>();
  for (let i = 0; i < reviews.length; i++) {
    positions.set(reviews[i].id, i);
    if (i % 4096 === 0) yield;
  }
  return positions;
}

const corpusRow = (r: StoredReview, stored: string | null): CorpusRow => ({
  id: r.id,
  rating: r.rating,
  date: r.date,
  text: r.text,
  title: r.title,
  language: r.language,
  technicians: r.technicians,
  services: r.services,
  service_area: r.service_area,
  stored,
});

function* corpusRows(rows: Iterable<StoredReview>, analyses: ReadonlyMap<string, string>): Steps<CorpusRow[]> {
  const out: CorpusRow[] = [];
  for (const r of rows) {
    out.push(corpusRow(r, analyses.get(r.id) ?? null));
    if (out.length % 1024 === 0) yield;
  }
  return out;
}

function* idsOf(reviews: readonly { id: string }[]): Steps<string[]> {
  const ids: string[] = new Array(reviews.length);
  for (let i = 0; i < reviews.length; i++) {
    ids[i] = reviews[i].id;
    if (i % 8192 === 0) yield;
  }
  return ids;
}

/**
 * The reviews as held between builds: each as its bytes in the rendered body (see HeldReviews); a
 * review carried from the previous revision keeps its object, which follows its bytes into this body.
 */
export function* holdAll(reviews: readonly Review[], json: SplicedJson): Steps<Review[]> {
  const held = new HeldReviews();
  const out: Review[] = new Array(reviews.length);
  for (let i = 0; i < reviews.length; i++) {
    out[i] = held.hold(reviews[i], json.body, json.itemStart(i), json.itemLength(i));
    if (i % 4096 === 0) yield;
  }
  return out;
}

function* tally(reviews: ReviewsDocument['reviews'], asOf: string): Steps<ReturnType<RatingTally['result']>> {
  const t = new RatingTally(asOf);
  for (let i = 0; i < reviews.length; i++) {
    t.add(tallied(reviews[i]));
    if (i % 4096 === 0) yield;
  }
  return t.result();
}

/**
 * What a catalog for a revision is made of (Catalog.fromReviews and Catalog.update), made in slices of
 * about `clock`'s length with the event loop running in between, so requests keep being answered
 * however large the change: the analyses and the insights are made by the corpus engine (a worker
 * thread on a server), and this thread builds the reviews, their body and the search index meanwhile.
 * With `previous`, the engine must hold that revision's corpus.
 */
export async function buildParts(
  input: CatalogInput | CatalogChanges,
  previous: Catalog | null,
  engine: CorpusEngine,
  clock: SliceClock,
): Promise<CatalogParts> {
  const l = links(input.publicBaseUrl);
  const update = 'changes' in input && previous ? { previous, changes: input.changes } : null;
  const published: StoredReview[] = [];
  for (const r of update ? update.changes.values() : (input as CatalogInput).rows.values()) if (r) published.push(r);
  const rows = await runInSlices(corpusRows(published, input.analyses), clock);
  const staged = await engine.stage(
    {
      business: input.business,
      basedOn: update ? update.previous.revision : null,
      changed: update ? [...update.changes.keys()] : [],
      rows,
    },
    clock,
  );

  const ordered = await runInSlices(
    update ? orderUpdated(update.previous.reviews, update.changes, staged.found, l.review) : orderAll(published, staged.found, l.review),
    clock,
  );
  const { reviews, freshPositions } = ordered;
  const freshIds: string[] = new Array(freshPositions.length);
  for (let k = 0; k < freshIds.length; k++) {
    freshIds[k] = reviews[freshPositions[k]].id;
    if (k % 4096 === 0) await clock.maybePause();
  }
  // The engine renders the insights and feeds while this thread builds the rest.
  const committed = engine.commit({
    revision: input.revision,
    freshIds,
    freshPositions,
    // Plain objects: a held review (a Proxy) cannot be cloned into the engine's thread.
    newest: reviews.slice(0, FEED_SIZE).map(plainReview),
    publicBaseUrl: input.publicBaseUrl,
  });
  committed.catch(() => {});

  const generatedAt = input.revision.created_at;
  const aggregateRating = await runInSlices(tally(reviews, generatedAt), clock);
  const doc: ReviewsDocument = {
    business: input.business,
    aggregate_rating: aggregateRating,
    reviews,
    generated_at: generatedAt,
    revision: input.revision.id,
  };
  const ids = await runInSlices(idsOf(reviews), clock);
  const reviewsJson = await runInSlices(
    SplicedJson.renderSteps(
      doc,
      'reviews',
      'array',
      { keys: ids, values: reviews },
      update?.previous.reviewsJson,
      update ? ordered.fresh : undefined,
      // In shared memory, like the insights body: a new corpus thread can take the revision over without a copy.
      (n) => Buffer.from(new SharedArrayBuffer(n)),
    ),
    clock,
  );
  const attribution = attributionFor(input.business);
  const index = await runInSlices(
    ReviewIndex.build(
      reviews,
      attribution.technicians,
      attribution.services,
      undefined,
      update ? { index: update.previous.index, fresh: ordered.fresh } : undefined,
    ),
    clock,
  );
  const positions = await runInSlices(positionsOf(reviews), clock);
  const held = await runInSlices(holdAll(reviews, reviewsJson), clock);

  const insights = await committed;
  // Main never re-renders the insights body (the engine does): its items are only read back by position.
  const insightsJson = SplicedJson.fromLayout(insights.body, insights.layout, ids, [], insights.digest);
  return {
    revision: input.revision,
    business: input.business,
    links: l,
    aggregateRating,
    reviews: held,
    reviewsJson: reviewsJson.withValues(held),
    insightsJson,
    insightsCore: insights.core,
    attribution,
    index: await runInSlices(index.withReviews(held), clock),
    positions,
    analysed: staged.analysed,
    feeds: insights.feeds,
  };
}

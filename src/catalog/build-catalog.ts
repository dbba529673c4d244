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
import { everyPosition, runInSlices, sharedBuffer } from '../threads/index.js';
import type { AnalysisFailure } from './analyze-or-rate.js';
import type { Catalog, CatalogParts } from './catalog.js';
import type { CorpusRow } from './corpus-model.js';
import type { CorpusEngine } from './corpus-worker.js';
import { type Held, type HeldOrder, HeldReviews, heldOrder, plainReview, tallyHeld } from './lazy-review.js';
import { orderAll, orderUpdated } from './ordered-reviews.js';
import { FEED_SIZE } from './render/feeds.js';
import { SplicedJson } from './render/spliced-json.js';
import { ReviewIndex } from './review-index.js';
import { foldDoc, TextIndex } from './text-index.js';
import { type Attribution, NO_MENTIONS, toReview, withMentions } from './to-review.js';

interface BuildHead {
  revision: Revision;
  business: Business;
  publicBaseUrl: string;
}

interface BuildCommon extends BuildHead {
  /** Stored analyses (JSON) by review id, each of its row as it is now; a review without one is analysed. */
  analyses: ReadonlyMap<string, string>;
}

/** Build from stored reviews held at once (tests, tools): what a revision is made of. */
export interface CatalogInput extends BuildCommon {
  /** The published reviews by id. */
  rows: ReadonlyMap<string, StoredReview>;
}

/** One page of a full read: published rows, and the stored analyses (JSON) of those that have a current one. */
export interface RowsPage {
  rows: readonly StoredReview[];
  analyses: ReadonlyMap<string, string>;
}

/** A full build's reviews, made page by page as the rows were read, with their corpus staged. */
export interface StagedReviews {
  /** Newest first (sorted while the corpus ends the stage). */
  reviews: Review[];
  /** The index in the stage of the review at each position (the order the corpus got the rows in). */
  order: Int32Array;
  /** Analyses the corpus made because none was stored (JSON), by id. */
  analysed: ReadonlyMap<string, string>;
  /** Reviews among those whose text the engine could not read: their analyses are their ratings' and titles' (see analyzeOrRate). */
  failed: readonly AnalysisFailure[];
  /** The row version of each review that had no stored analysis: what a made analysis is stored under. */
  versions: ReadonlyMap<string, string>;
}

/** A full build after its read: every published review made and staged. */
export interface CatalogFromStaged extends BuildHead {
  staged: StagedReviews;
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

/**
 * A full build's read side: each page of rows becomes reviews (their mentions added once staged) and
 * corpus rows sent to the engine before the next page is read, so neither the stored rows nor their
 * analyses' JSON are held for the whole corpus (at 1M reviews that is gigabytes).
 */
export async function stageAll(
  pages: AsyncIterable<RowsPage> | Iterable<RowsPage>,
  head: Pick<BuildHead, 'business' | 'publicBaseUrl'>,
  engine: CorpusEngine,
  clock: SliceClock,
): Promise<StagedReviews> {
  const permalink = links(head.publicBaseUrl).review;
  const sink = engine.beginStage({ business: head.business, basedOn: null }, clock);
  const reviews: Review[] = [];
  const versions = new Map<string, string>();
  try {
    for await (const page of pages) {
      const rows: CorpusRow[] = new Array(page.rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = page.rows[i];
        const stored = page.analyses.get(r.id) ?? null;
        if (stored === null) versions.set(r.id, r.version);
        rows[i] = corpusRow(r, stored);
        reviews.push(toReview(r, NO_MENTIONS, permalink));
      }
      await sink.add(rows);
      await clock.maybePause();
    }
  } catch (err) {
    // The engine drops the stage, so it is not left waiting for parts (nor this call for its answer).
    sink.abort();
    throw err;
  }
  // The corpus finishes the stage and sends the mentions back while this thread sorts the reviews.
  const ending = sink.end();
  ending.catch(() => {});
  const order = await runInSlices(orderAll(reviews), clock);
  const staged = await ending;
  for (let i = 0; i < reviews.length; i++) {
    const found = staged.found.get(reviews[i].id);
    if (found) withMentions(reviews[i], found);
    if (i % 4096 === 0) await clock.maybePause();
  }
  return { reviews, order, analysed: staged.analysed, failed: staged.failed, versions };
}

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
 * The reviews as held between builds, each at its bytes in the rendered body (see HeldReviews). A review
 * `kept(i)` gives a record for (carried from the previous revision, or held while the body was
 * rendered) keeps its object, and its record follows its bytes into this body; any other is held anew.
 */
export function* holdAll(
  reviews: readonly Review[],
  json: SplicedJson,
  kept: (i: number) => Held | undefined = () => undefined,
): Steps<HeldOrder> {
  const held = new HeldReviews();
  const out = heldOrder(reviews.length);
  yield* json.eachItemPlace((i, buffer, at, length) => {
    const record = kept(i);
    if (record) {
      record.body = buffer;
      record.start = at;
      record.length = length;
      out.records[i] = record;
      out.reviews[i] = reviews[i];
    } else held.hold(reviews[i], buffer, at, length, out, i);
  });
  return out;
}

/** The aggregate rating; a carried review (`carried.from`) is read from its record in the previous revision. */
function* tally(
  reviews: ReviewsDocument['reviews'],
  asOf: string,
  carried?: { from: Int32Array; previous: HeldOrder },
): Steps<ReturnType<RatingTally['result']>> {
  const t = new RatingTally(asOf);
  for (let i = 0; i < reviews.length; i++) {
    const j = carried ? carried.from[i] : -1;
    if (j >= 0) tallyHeld(t, carried!.previous.records[j]);
    else {
      const r = reviews[i];
      t.add(r.rating, r.date, r.source, !!r.text, !!r.owner_reply);
    }
    if (i % 4096 === 0) yield;
  }
  return t.result();
}

/**
 * What a catalog for a revision is made of (Catalog.fromStaged and Catalog.update), made in slices of
 * about `clock`'s length with the event loop running in between, so requests keep being answered
 * however large the change: the analyses and the insights are made by the corpus engine (a worker
 * thread on a server), and this thread builds the reviews, their body and the search index meanwhile.
 * With `previous`, the engine must hold that revision's corpus.
 */
export async function buildParts(
  input: CatalogFromStaged | CatalogChanges,
  previous: Catalog | null,
  engine: CorpusEngine,
  clock: SliceClock,
): Promise<CatalogParts> {
  if ('staged' in input) return buildAll(input, engine, clock);
  if (!previous) throw new Error('buildParts: changes without the previous catalog');
  return buildUpdate(input, previous, engine, clock);
}

/**
 * A full build. Each review is rendered straight into the body, its text folded for the index, and
 * then held by its bytes in its place in the staged array: the `Review` objects die a slice at a time
 * instead of all living to the end of the build beside their held forms, their bytes and their folded
 * texts (at 1M reviews that peak did not fit the default heap).
 */
async function buildAll(input: CatalogFromStaged, engine: CorpusEngine, clock: SliceClock): Promise<CatalogParts> {
  const reviews = input.staged.reviews;
  // The corpus makes the text index's postings while this thread renders; asked first, so made first.
  const segment = engine.textSegment(input.staged.order);
  segment.catch(() => {});
  const ids = await runInSlices(idsOf(reviews), clock);
  // Nothing taken out of a previous order (an array of its own: the commit hands it over).
  const committed = commit(engine, input, reviews, ids, await runInSlices(everyPosition(reviews.length), clock), new Int32Array(0), clock);
  const { doc, aggregateRating } = await documentOf(input, reviews, clock);
  const holder = new HeldReviews();
  const pending = heldOrder(reviews.length);
  const folded: string[] = new Array(reviews.length);
  const json = await runInSlices(
    SplicedJson.renderAllSteps(doc, 'reviews', 'array', { keys: ids, values: reviews }, sharedBuffer, (i, start, length) => {
      folded[i] = foldDoc(reviews[i]);
      // Held at its span, in a body made once the render ends (holdAll moves it there).
      holder.hold(reviews[i], NO_BODY, start, length, pending, i);
      reviews[i] = pending.reviews[i];
    }),
    clock,
  );
  const held = await runInSlices(
    holdAll(reviews, json, (i) => pending.records[i]),
    clock,
  );
  const attribution = attributionFor(input.business);
  const text = await runInSlices(TextIndex.withBase(folded, await segment), clock);
  const index = await runInSlices(
    ReviewIndex.build(held.reviews, held.records, attribution.technicians, attribution.services, undefined, undefined, text),
    clock,
  );
  return {
    ...(await finish(input, committed, ids, aggregateRating, held)),
    reviewsJson: json.withValues(held.reviews),
    attribution,
    index,
    analysed: input.staged.analysed,
    failed: input.staged.failed,
  };
}

/** An update: the changed reviews are made, rendered and indexed; every other one is carried over. */
async function buildUpdate(input: CatalogChanges, previous: Catalog, engine: CorpusEngine, clock: SliceClock): Promise<CatalogParts> {
  const l = links(input.publicBaseUrl);
  const published: StoredReview[] = [];
  for (const r of input.changes.values()) if (r) published.push(r);
  const rows = await runInSlices(corpusRows(published, input.analyses), clock);
  const staged = await engine.stage(
    { business: input.business, basedOn: previous.revision, changed: [...input.changes.keys()], rows },
    clock,
  );
  const ordered = await runInSlices(
    orderUpdated(previous.reviews, previous.reviewsJson.keys, previous.knownPositions, input.changes, staged.found, l.review),
    clock,
  );
  const { reviews, ids, carried, freshPositions, removed } = ordered;
  const freshIds: string[] = new Array(freshPositions.length);
  for (let k = 0; k < freshIds.length; k++) {
    freshIds[k] = ids[freshPositions[k]];
    if (k % 4096 === 0) await clock.maybePause();
  }
  const committed = commit(engine, input, reviews, freshIds, freshPositions, removed, clock);
  const { doc, aggregateRating } = await documentOf(input, reviews, clock, { from: carried.from, previous: previous.held });
  const reviewsJson = await runInSlices(
    SplicedJson.renderSteps(
      doc,
      'reviews',
      'array',
      { keys: ids, values: reviews },
      previous.reviewsJson,
      carried,
      // In shared memory, like the insights body: a new corpus thread can take the revision over without a copy.
      sharedBuffer,
    ),
    clock,
  );
  const previousRecords = previous.held.records;
  const held = await runInSlices(
    holdAll(reviews, reviewsJson, (i) => (carried.from[i] >= 0 ? previousRecords[carried.from[i]] : undefined)),
    clock,
  );
  const attribution = attributionFor(input.business);
  // Over the reviews as made (a fresh one's text is read without parsing its held bytes) and the held records.
  const index = await runInSlices(
    ReviewIndex.build(reviews, held.records, attribution.technicians, attribution.services, undefined, {
      index: previous.index,
      carried,
    }),
    clock,
  );
  return {
    ...(await finish(input, committed, ids, aggregateRating, held)),
    reviewsJson: reviewsJson.withValues(held.reviews),
    attribution,
    index: index.withReviews(held.reviews),
    analysed: staged.analysed,
    failed: staged.failed,
  };
}

/** What a pending held review points at until its body is made. */
const NO_BODY = Buffer.alloc(0);

/** The engine renders the insights and feeds while this thread builds the rest. */
function commit(
  engine: CorpusEngine,
  input: BuildHead,
  reviews: readonly Review[],
  freshIds: string[],
  freshPositions: Int32Array,
  removedPositions: Int32Array,
  clock: SliceClock,
): ReturnType<CorpusEngine['commit']> {
  const committed = engine.commit(
    {
      revision: input.revision,
      freshIds,
      freshPositions,
      removedPositions,
      // Plain objects: a held review (a Proxy) cannot be cloned into the engine's thread.
      newest: reviews.slice(0, FEED_SIZE).map(plainReview),
      publicBaseUrl: input.publicBaseUrl,
    },
    clock,
  );
  committed.catch(() => {});
  return committed;
}

/** The /reviews.json document (its reviews member rendered apart) and its aggregate rating. */
async function documentOf(input: BuildHead, reviews: Review[], clock: SliceClock, carried?: Parameters<typeof tally>[2]) {
  const generatedAt = input.revision.created_at;
  const aggregateRating = await runInSlices(tally(reviews, generatedAt, carried), clock);
  const doc: ReviewsDocument = {
    business: input.business,
    aggregate_rating: aggregateRating,
    reviews,
    generated_at: generatedAt,
    revision: input.revision.id,
  };
  return { doc, aggregateRating };
}

/** The parts both builds make the same way once the reviews are held. */
async function finish(
  input: BuildHead,
  committed: ReturnType<CorpusEngine['commit']>,
  ids: readonly string[],
  aggregateRating: CatalogParts['aggregateRating'],
  held: HeldOrder,
) {
  const insights = await committed;
  return {
    revision: input.revision,
    business: input.business,
    links: links(input.publicBaseUrl),
    aggregateRating,
    held,
    // Main never re-renders the insights body (the engine does): its items are only read back by position.
    insightsJson: SplicedJson.fromLayout(insights.body, insights.layout, ids, [], insights.digest),
    insightsCore: insights.core,
    feeds: insights.feeds,
  };
}

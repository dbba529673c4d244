import type { Business, CorpusAnalysis, Review } from '../domain/index.js';
import { links } from '../domain/index.js';
import type { Revision } from '../store/index.js';
import { runAtOnce } from '../threads/index.js';
import { type AnalysisFailure, analyzeOrRate } from './analyze-or-rate.js';
import type { Analyzer, CorpusReview, Engine, InsightRow, InsightRowMaker } from './engine.js';
import { analyzerOptions } from './engine.js';
import { carriedRuns } from './render/carried-runs.js';
import { renderFeeds } from './render/feeds.js';
import { type Allocate, RawJson, SplicedJson } from './render/spliced-json.js';
import { type BaseSegment, foldDoc, TextIndex } from './text-index.js';
import { type FoundMentions, union } from './to-review.js';

/** What the corpus needs of a changed row that is published. */
export interface CorpusRow {
  id: string;
  rating: number;
  date: string;
  text: string | null;
  title: string | null;
  language: string | null;
  /** Explicit attributions (ids) from the import. */
  technicians: string[];
  services: string[];
  service_area: string | null;
  /** The stored analysis of exactly this row (JSON), or null to analyse it. */
  stored: string | null;
}

export interface StageInput {
  business: Business;
  /** The revision the held corpus must be at (an update), or null to start from nothing (a full build). */
  basedOn: number | null;
  /** Every changed id: taken out of the held order (those still published come back among `rows`). */
  changed: string[];
  rows: CorpusRow[];
}

export interface Staged {
  /** The mentions each row's analysis found, by id (a row whose analysis found none has no entry). */
  found: Map<string, FoundMentions>;
  /** Analyses made because none was stored (JSON, to be stored), by id. */
  analysed: Map<string, string>;
  /** The reviews among those whose text the engine could not read (their analyses are their ratings' and titles'). */
  failed: AnalysisFailure[];
}

/** The mentions a staged row's analysis found, as a stage's end answers them (and the corpus thread sends them). */
export type FoundEntry = [id: string, technicians: string[], services: string[], service_areas: string[]];

/** What a stage's end answers: Staged with its mentions as entries (the caller makes the map by id). */
export type StagedEntries = Omit<Staged, 'found'> & { found: FoundEntry[] };

export interface CommitInput {
  revision: Revision;
  /** The staged rows' ids and their places in the new order (ascending places). */
  freshIds: string[];
  /** Handed over: a worker thread is sent this array's memory (transferred), so the caller reads it no more. */
  freshPositions: Int32Array;
  /**
   * Where the changed reviews were in the held order (the catalog's previous one, which a stage checks),
   * ascending, as the catalog's order found them; handed over like freshPositions.
   */
  removedPositions: Int32Array;
  /** The newest reviews, for the feeds. */
  newest: Review[];
  publicBaseUrl: string;
}

/** The insights of a revision: the document without per_review, and the whole body (in its parts) with its layout. */
export interface Committed {
  core: string;
  body: readonly Buffer[];
  /** SplicedJson layout of the per_review items in `body`, and the body's digest. */
  layout: Buffer;
  digest: Buffer;
  feeds: { json: Buffer; atom: Buffer };
}

export class StaleCorpusError extends Error {}

/**
 * How a take-over went: the rows from a corpus image, or from the bodies (and why an image given was passed
 * over); the insight builders' state taken back with them from the image, or made by a pass over them.
 */
export interface Seeded {
  from: 'image' | 'bodies';
  passedOver?: string;
  state: 'image' | 'pass';
}

/** A stored revision's bodies and their layouts, as the corpus takes it over. */
export interface SeedBodies {
  /** Each body in its parts (SplicedJson.parts). */
  reviews: readonly Buffer[];
  reviewsLayout: Buffer;
  insights: readonly Buffer[];
  insightsLayout: Buffer;
}

/**
 * A revision's corpus as kept between builds. Its analyses are kept as the per_review bytes and as the
 * engine's compact insight rows (parsed whole they are the largest graph a server would hold, about
 * 160 MB at 100k reviews; a row keeps only what the insights read), so a revision parses only its
 * changed rows' analyses. The render stands each item by its id, so the next render still knows it
 * (ids are unique; a changed analysis is always a fresh value).
 */
interface Held {
  revision: number;
  business: Business;
  vertical: string;
  ids: string[];
  rows: InsightRow[];
  perReview: SplicedJson;
}

/** What a take-over reads, from an image or the bodies: the held corpus but its revision. */
type Taken = Pick<Held, 'business' | 'ids' | 'rows' | 'perReview'>;

/** Only what the insights read of a review: a seeded corpus keeps these, not whole parsed reviews. */
const corpusReview = (r: CorpusReview): CorpusReview => ({
  id: r.id,
  rating: r.rating,
  date: r.date,
  text: r.text,
  technicians: r.technicians,
  services: r.services,
  service_area: r.service_area,
});

/** The analyzer's options for a profile, and the key under which one is reused. */
const analyzerKey = (b: Business) => JSON.stringify([b.vertical, b.technicians, b.services, b.service_areas]);

/** The rows of a stage, kept until its commit. */
interface StagedRows {
  business: Business;
  changed: Set<string>;
  /** Each staged row's insight row and its analysis as JSON (what per_review renders: the object is not kept). */
  fresh: Map<string, { row: InsightRow; json: RawJson }>;
  /** A full stage's texts, folded, in the order its rows came (what textSegment indexes); null for an update. */
  texts: string[] | null;
}

/**
 * Everything about a corpus that is computed from analyses: the per-review analyses themselves (stored
 * ones parsed, missing ones made), the corpus insights and the per_review body; and the feeds, whose
 * rendering is slow too. It keeps the previous revision's corpus, and the engine the state of its
 * insights, so a revision's insights cost about its changes. It runs on a worker thread (CorpusWorker),
 * keeping that work off the event loop; the catalog on the main thread gets the mentions it needs for
 * reviews and the rendered bodies.
 */
export class CorpusModel {
  private held: Held | null = null;
  private staged: StagedRows | null = null;
  /** A stage under way (between stageBegin and stageEnd). */
  private staging: (StagedRows & StagedEntries) | null = null;
  private analyzer: { key: string; analyzer: Analyzer } | null = null;
  private rowMaker: { vertical: string; maker: InsightRowMaker } | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly allocate?: Allocate,
  ) {}

  private analyzerFor(b: Business) {
    const key = analyzerKey(b);
    if (this.analyzer?.key !== key)
      this.analyzer = {
        key,
        analyzer: this.engine.createAnalyzer(analyzerOptions(b)),
      };
    return this.analyzer.analyzer;
  }

  /** The engine's row maker for a vertical (its taxonomy fixes each row's aspect mask). */
  private rowsFor(vertical: string): InsightRowMaker {
    if (this.rowMaker?.vertical !== vertical) this.rowMaker = { vertical, maker: this.engine.insightRows(vertical) };
    return this.rowMaker.maker;
  }

  stage(input: StageInput): StagedEntries {
    this.stageBegin(input.business, input.basedOn);
    this.stageRows(input.rows, input.changed);
    return this.stageEnd();
  }

  /**
   * A stage in parts (`stage` is begin, one part, end): each part's stored analyses are parsed as it
   * arrives, so a full build of a large corpus never holds every row's analysis JSON at once.
   */
  stageBegin(business: Business, basedOn: number | null): void {
    if (basedOn === null) this.held = null;
    else if (this.held?.revision !== basedOn)
      throw new StaleCorpusError(`the corpus is at revision ${this.held?.revision ?? 'none'}, not ${basedOn}`);
    else if (this.held.vertical !== business.vertical)
      throw new StaleCorpusError(`the corpus holds rows of the ${this.held.vertical} taxonomy, not ${business.vertical}`);
    // A full stage folds each text as it comes (this thread waits on the reads meanwhile), for textSegment.
    const texts = basedOn === null ? [] : null;
    this.staging = { business, changed: new Set(), fresh: new Map(), found: [], analysed: new Map(), failed: [], texts };
    this.staged = null;
  }

  stageRows(rows: readonly CorpusRow[], changed: readonly string[]): void {
    const s = this.staging;
    if (!s) throw new Error('CorpusModel: stage rows without a stage begun');
    for (const id of changed) s.changed.add(id);
    const maker = this.rowsFor(s.business.vertical);
    for (const row of rows) {
      s.texts?.push(foldDoc(row));
      let analysis: CorpusAnalysis;
      let json: string;
      if (row.stored !== null) {
        json = row.stored;
        analysis = maker.read(json);
      } else {
        const made = analyzeOrRate(this.analyzerFor(s.business), {
          id: row.id,
          rating: row.rating,
          text: row.text,
          title: row.title,
          language: row.language,
        });
        analysis = made.analysis;
        if (made.failure !== null) s.failed.push([row.id, made.failure]);
        json = JSON.stringify(analysis);
        s.analysed.set(row.id, json);
      }
      // Only rows whose analysis found a mention are answered (no entry means none). A list, not a map: the
      // corpus thread sends it as it is. At 100k demo rows (75k with mentions) filling a map took about 70 ms of a
      // 1.2 s stage, and turning it into entries at the stage's end about 65 ms more.
      if (analysis.technicians.length + analysis.services.length + analysis.service_areas.length > 0)
        s.found.push([row.id, analysis.technicians, analysis.services, analysis.service_areas]);
      const review: CorpusReview = {
        id: row.id,
        rating: row.rating,
        date: row.date,
        text: row.text,
        technicians: union(row.technicians, analysis.technicians),
        services: union(row.services, analysis.services),
        service_area: row.service_area ?? analysis.service_areas[0] ?? null,
      };
      // The stored JSON is what JSON.stringify made of this analysis: per_review renders it as it is.
      s.fresh.set(row.id, { row: maker.row(review, analysis), json: new RawJson(json) });
    }
  }

  stageAbort(): void {
    this.staging = null;
  }

  /**
   * The search index's base segment of the last full stage's texts, numbered by position: `order` gives
   * the stage index of the row at each position (see BaseSegment). Asked once, after the stage ended.
   */
  textSegment(order: Int32Array): BaseSegment {
    const texts = this.staged?.texts;
    // Let go once indexed: the commit that follows needs only the rows.
    if (this.staged) this.staged.texts = null;
    if (!texts || texts.length !== order.length) throw new Error('CorpusModel: no full stage of these rows to index');
    const folded: string[] = new Array(order.length);
    for (let i = 0; i < order.length; i++) folded[i] = texts[order[i]];
    return runAtOnce(TextIndex.baseSegment(folded));
  }

  stageEnd(): StagedEntries {
    const s = this.staging;
    if (!s) throw new Error('CorpusModel: stage end without a stage begun');
    this.staging = null;
    this.staged = { business: s.business, changed: s.changed, fresh: s.fresh, texts: s.texts };
    return { found: s.found, analysed: s.analysed, failed: s.failed };
  }

  commit(input: CommitInput): Committed {
    const staged = this.staged;
    if (!staged) throw new Error('CorpusModel: commit without stage');
    this.staged = null;
    const held = this.held;
    const prevIds = held?.ids ?? [];
    // The catalog's order found the changed reviews' places already: the merge below skips them, and no
    // held id is looked up (asking the set of changed ids about each of 1M held ids, twice, was 208 of the
    // 421 samples two commits spent in their own code).
    const gone = input.removedPositions;
    const removed = Array.from(gone, (i) => {
      if (!staged.changed.has(prevIds[i])) throw new Error('CorpusModel: a removed place is not of a changed review');
      return held!.rows[i];
    });
    const kept = prevIds.length - removed.length;
    const n = kept + input.freshIds.length;
    const ids: string[] = new Array(n);
    const rows: InsightRow[] = new Array(n);
    // What the render is given per item: a fresh analysis (its JSON), or the id a carried item stands under.
    const values: unknown[] = new Array(n);
    // Where each item was in the held render (-1: fresh).
    const from = new Int32Array(n);
    // The held order without the changed ids, and the staged rows at the places the catalog gave them:
    // the same merge as the catalog's, so both orders agree.
    const added: InsightRow[] = [];
    let p = 0;
    let f = 0;
    let g = 0;
    for (let k = 0; k < n; k++) {
      if (f < input.freshIds.length && input.freshPositions[f] === k) {
        const id = input.freshIds[f++];
        const item = staged.fresh.get(id);
        if (!item) throw new Error(`CorpusModel: ${id} was not staged`);
        ids[k] = id;
        rows[k] = item.row;
        added.push(item.row);
        values[k] = item.json;
        from[k] = -1;
      } else {
        while (g < gone.length && gone[g] === p) {
          p++;
          g++;
        }
        const id = prevIds[p];
        ids[k] = id;
        from[k] = p;
        rows[k] = held!.rows[p++];
        values[k] = id;
      }
    }
    const insights = this.rowsFor(staged.business.vertical).insights({
      business: staged.business,
      rows,
      generatedAt: input.revision.created_at,
      // The maker's last rows are the held ones unless the corpus was seeded since; it checks.
      since: held ? { rows: held.rows, removed, added } : undefined,
    });
    // per_review in corpus order, which is the catalog's (newest first): a property test holds the bytes to JSON.stringify.
    const perReview = SplicedJson.render(
      insights,
      'per_review',
      'object',
      { keys: ids, values },
      held?.perReview,
      runAtOnce(carriedRuns(from)),
      this.allocate,
    );
    this.held = {
      revision: input.revision.id,
      business: staged.business,
      vertical: staged.business.vertical,
      ids,
      rows,
      perReview: perReview.withValues(ids),
    };
    const feeds = renderFeeds(staged.business, input.newest, links(input.publicBaseUrl), input.revision.created_at);
    // per_review is the maker's empty placeholder: the core is the document without it.
    return { core: JSON.stringify(insights), body: perReview.parts, layout: perReview.layout(), digest: perReview.digest, feeds };
  }

  /**
   * The held corpus as bytes (its revision, profile and rows: see imageHead), or null when it does not
   * hold `revision`. A thread that starts again takes the revision over from it (seed) without parsing
   * the bodies.
   */
  image(revision: number): Buffer | null {
    const held = this.held;
    if (held?.revision !== revision) return null;
    return this.rowsFor(held.vertical).image(held.rows, imageHead(held.revision, held.business));
  }

  /**
   * Takes over a revision loaded from a stored snapshot (its bodies and the per_review layout), so
   * the next revision is built on it. The insights body is kept as it is given (on a server, the
   * shared memory the catalog serves it from); the reviews body only while its reviews are read.
   * With an image of the same revision (image()), the rows are read from it instead of the bodies;
   * one that is not of these bodies, or does not read back, is passed over (`passedOver` says why).
   */
  seed(revision: number, bodies: SeedBodies, image: Buffer | null = null): Seeded {
    const imaged = image && this.fromImage(revision, bodies, image);
    const taken = imaged && typeof imaged !== 'string' ? imaged : this.fromBodies(bodies);
    // The maker's insight state over these rows is had now, in the take-over (taken back with the rows
    // from their image, or made by a pass), so the next revision moves it by its changes.
    const state = this.rowsFor(taken.business.vertical).keep(taken.business, taken.rows);
    this.held = { revision, vertical: taken.business.vertical, ...taken };
    this.staged = null;
    if (typeof imaged === 'string') return { from: 'bodies', passedOver: imaged, state };
    return { from: imaged ? 'image' : 'bodies', state };
  }

  /** What an image holds of these bodies' revision, or why it is passed over. */
  private fromImage(revision: number, bodies: SeedBodies, image: Buffer): Taken | string {
    let taken: Taken;
    try {
      const read = readImageHead(image);
      if (read.revision !== revision) return `an image of revision ${read.revision}`;
      const rows = this.rowsFor(read.business.vertical).fromImage(read.rows, read.business);
      const ids = rows.map((r) => r.review.id);
      // Throws unless the image has as many rows as the bodies' per_review has items.
      const perReview = SplicedJson.fromLayout(bodies.insights, bodies.insightsLayout, ids, ids);
      taken = { business: read.business, ids, rows, perReview };
    } catch (err) {
      // Not an image this engine reads (another version's, or damaged), or not of these bodies.
      return err instanceof Error ? err.message : String(err);
    }
    // Its rows must be the bodies' reviews in their order: per_review's items are keyed by them.
    const { ids, perReview } = taken;
    for (let i = 0; i < ids.length; i++) if (!perReview.isKeyedAs(i, ids[i])) return `review ${i} is not ${ids[i]}`;
    return taken;
  }

  /** One review and one analysis parsed at a time, only what the insights read kept: the rest dies young. */
  private fromBodies(bodies: SeedBodies) {
    const items = SplicedJson.readStored(bodies.reviews, bodies.reviewsLayout);
    const reviews: CorpusReview[] = [];
    let step = items.next();
    for (; !step.done; step = items.next()) reviews.push(corpusReview(JSON.parse(step.value) as CorpusReview));
    const { business } = JSON.parse(step.value) as { business: Business };
    const ids = reviews.map((r) => r.id);
    const perReview = SplicedJson.fromLayout(bodies.insights, bodies.insightsLayout, ids, ids);
    const maker = this.rowsFor(business.vertical);
    // per_review's keys are these reviews' ids, in their order.
    const rows = reviews.map((r, i) => maker.row(r, maker.read(perReview.memberValueText(i))));
    return { business, ids, rows, perReview };
  }
}

/** A corpus image's head: its revision (4 bytes) and the profile's JSON after its length (4 bytes); the rows' image follows. */
function imageHead(revision: number, business: Business): Buffer {
  const profile = Buffer.from(JSON.stringify(business));
  const head = Buffer.alloc(8 + profile.length);
  head.writeUInt32LE(revision, 0);
  head.writeUInt32LE(profile.length, 4);
  profile.copy(head, 8);
  return head;
}

function readImageHead(image: Buffer): { revision: number; business: Business; rows: Buffer } {
  const length = image.readUInt32LE(4);
  return {
    revision: image.readUInt32LE(0),
    business: JSON.parse(image.toString('utf8', 8, 8 + length)) as Business,
    rows: image.subarray(8 + length),
  };
}

// The insight builders' state over one corpus, kept as it changes: a full pass adds every row in corpus
// order; a revision removes its changed rows and adds its new ones at their places, so its cost follows
// its changes, plus the document (top-k lists, entities, months), not the corpus. Both end in the same
// state (sums are exact integers, order-dependent lists are kept in corpus order), so a kept corpus and
// a fresh pass give the same document byte for byte. A corpus that starts again takes the state back from
// the corpus image it was saved into, with the rows (save, load), instead of a pass.
import type { Insights } from '../../domain/index.js';
import type { TaxonomyLabels } from '../lexicon.js';
import { ENGINE_VERSION } from '../version.js';
import { AspectAccumulator } from './aspects.js';
import { EntityAccumulator, ProblemAccumulator } from './entities.js';
import type { Facts } from './facts.js';
import { buildFaq } from './faq.js';
import { ChangeMismatch, Positions } from './order.js';
import { percentages } from './percent.js';
import { PullQuoteAccumulator } from './quotes.js';
import type { StateIn, StateOut } from './row-image.js';
import { type Accumulator, mean, milliMean, type Row } from './rows.js';
import { buildSummary } from './summary.js';
import { TemporalAccumulator } from './temporal.js';
import { TopicAccumulator } from './topics.js';

/** What the insights read of a business profile. */
export interface InsightsBusiness {
  vertical: string;
  /** Used in the prose (FAQ, summary); "this business" when absent. */
  name?: string;
  technicians: { id: string; name: string }[];
  services: { id: string; name: string }[];
  service_areas: { id: string; name: string }[];
}

/** A revision's rows against the rows the state was last at: the rows it took out and the rows it put in. */
export interface RowChange {
  removed: readonly Row[];
  added: readonly Row[];
}

export class CorpusInsights {
  /**
   * The version of the builders' rules (which lists a row goes into, the counts, the quotes) as a saved state
   * holds them: bump it with any change to them, so a state saved by the rules before is passed over (a pass).
   */
  static readonly RULES = 1;

  private readonly aspects: AspectAccumulator;
  private readonly technicians: EntityAccumulator;
  private readonly services: EntityAccumulator;
  private readonly areas: EntityAccumulator;
  private readonly problems: ProblemAccumulator;
  private readonly topics = new TopicAccumulator();
  private readonly temporal = new TemporalAccumulator();
  private readonly quote = new PullQuoteAccumulator();
  private ratingSum = 0;
  /** Thousandths (rows.ts milli). */
  private sentimentSum = 0;
  private textCount = 0;
  private readonly stars = [0, 0, 0, 0, 0, 0];
  private readonly polarity = { positive: 0, neutral: 0, negative: 0 };

  constructor(
    private readonly business: InsightsBusiness,
    private readonly lex: TaxonomyLabels,
  ) {
    const aspectIds = lex.aspects.map((a) => a.id);
    const noArea: string[] = [];
    this.aspects = new AspectAccumulator(lex.aspects);
    this.technicians = new EntityAccumulator(business.technicians, aspectIds, (r) => r.review.technicians);
    this.services = new EntityAccumulator(business.services, aspectIds, (r) => r.review.services);
    this.areas = new EntityAccumulator(business.service_areas, aspectIds, (r) =>
      r.review.service_area === null ? noArea : [r.review.service_area],
    );
    this.problems = new ProblemAccumulator(lex.problems);
  }

  /** The state of rows already newest first. */
  static of(business: InsightsBusiness, rows: readonly Row[], lex: TaxonomyLabels): CorpusInsights {
    const state = new CorpusInsights(business, lex);
    // One pass feeds every builder: at 100k reviews the cost is memory traffic, so each review's data is
    // fetched once and reused while it is still in cache, instead of once per builder.
    for (const row of rows) state.add(row);
    return state;
  }

  /** The state as save wrote it into the image `rows` were read from (row-image.ts StateIn). */
  static load(business: InsightsBusiness, lex: TaxonomyLabels, input: StateIn<Row>): CorpusInsights {
    const state = new CorpusInsights(business, lex);
    state.ratingSum = input.float();
    state.sentimentSum = input.float();
    state.textCount = input.uint();
    for (let i = 0; i < state.stars.length; i++) state.stars[i] = input.uint();
    state.polarity.positive = input.uint();
    state.polarity.neutral = input.uint();
    state.polarity.negative = input.uint();
    for (const builder of state.builders()) builder.load(input);
    return state;
  }

  /** Writes the state into a corpus image after its rows (the rows it is at), for load. */
  save(out: StateOut): void {
    out.float(this.ratingSum);
    out.float(this.sentimentSum);
    out.uint(this.textCount);
    for (const n of this.stars) out.uint(n);
    out.uint(this.polarity.positive);
    out.uint(this.polarity.neutral);
    out.uint(this.polarity.negative);
    for (const builder of this.builders()) builder.save(out);
  }

  /** The builders in the order their state is written (a loop is fine here: once per image, not per row). */
  private builders(): Accumulator[] {
    const { aspects, technicians, services, areas, problems, topics, temporal, quote } = this;
    return [aspects, technicians, services, areas, problems, topics, temporal, quote];
  }

  /**
   * Moves the state to `rows` (newest first), which are the rows it was at without `change.removed`,
   * with `change.added` at their places, the others in the same order. Throws when the rows do not
   * fit (a removed row not held, an added one not among its date): the state is then not to be used.
   */
  update(change: RowChange, rows: readonly Row[]): void {
    for (const row of change.removed) this.remove(row);
    const at = new Positions(rows);
    // The kept rows keep their order, so the rows are newest first when each added row is among its neighbours.
    for (const row of change.added) {
      const i = at.of(row);
      if ((i > 0 && rows[i - 1].review.date < row.review.date) || (i + 1 < rows.length && rows[i + 1].review.date > row.review.date))
        throw new ChangeMismatch(`CorpusInsights: review ${row.review.id} is out of date order`);
    }
    for (const row of change.added) this.add(row, at);
  }

  // Each builder called by name, not in a loop over a list of them: one call site per builder's class
  // keeps each call direct (and inlinable), where one site for eight classes dispatches every call.
  private add(row: Row, at?: Positions): void {
    this.count(row, 1);
    this.aspects.add(row, at);
    this.technicians.add(row, at);
    this.services.add(row, at);
    this.areas.add(row, at);
    this.problems.add(row, at);
    this.topics.add(row, at);
    this.temporal.add(row);
    this.quote.add(row, at);
  }

  private remove(row: Row): void {
    this.count(row, -1);
    this.aspects.remove(row);
    this.technicians.remove(row);
    this.services.remove(row);
    this.areas.remove(row);
    this.problems.remove(row);
    this.topics.remove(row);
    this.temporal.remove(row);
    this.quote.remove(row);
  }

  private count(row: Row, sign: 1 | -1): void {
    this.ratingSum += sign * row.review.rating;
    this.sentimentSum += sign * row.analysis.sentimentMilli;
    if (row.hasText) this.textCount += sign;
    this.stars[Math.min(5, Math.max(1, Math.round(row.review.rating)))] += sign;
    // A review's overall polarity is never "conflict": its score is one number.
    if (row.polarity === 'positive' || row.polarity === 'negative') this.polarity[row.polarity] += sign;
    else this.polarity.neutral += sign;
  }

  /** The document of the state at `rows` (newest first), with per_review an empty placeholder (keeping its key's place). */
  document(rows: readonly Row[], generatedAt: string): Insights {
    const { business, lex, polarity } = this;
    const [positivePct, neutralPct, negativePct] = percentages([polarity.positive, polarity.neutral, polarity.negative]);
    const latest = rows.length === 0 ? null : rows[0].review.date;
    const dateRange = latest === null ? { earliest: null, latest: null } : { earliest: rows[rows.length - 1].review.date, latest };
    const aspects = this.aspects.result();
    const technicians = this.technicians.result();
    const services = this.services.result();
    const areas = this.areas.result();
    const problems = this.problems.result();
    const { monthly, trend, detail } = this.temporal.result(latest);
    const quote = this.quote.result();

    const facts: Facts = {
      rows,
      subject: business.name?.trim() || 'this business',
      reviewCount: rows.length,
      textCount: this.textCount,
      meanRating: mean(this.ratingSum, rows.length),
      stars: [...this.stars],
      positivePct,
      neutralPct,
      negativePct,
      aspects,
      technicians,
      services,
      areas,
      problems,
      trend,
      trendDetail: detail,
    };

    return {
      version: lex.version,
      generated_at: generatedAt,
      model: ENGINE_VERSION,
      vertical: lex.vertical,
      review_count: rows.length,
      date_range: dateRange,
      overall_sentiment: {
        score: milliMean(this.sentimentSum, rows.length),
        positive_pct: positivePct,
        neutral_pct: neutralPct,
        negative_pct: negativePct,
      },
      aspects,
      entities: { technicians, services, service_areas: areas, problems },
      topics: this.topics.result(),
      temporal: { monthly, trend, trend_detail: detail },
      // Placeholder keeping the key's place in the document.
      per_review: {},
      faq: buildFaq(facts),
      summary: buildSummary(facts, dateRange),
      pull_quote: quote.text,
      pull_quote_review_id: quote.reviewId,
    };
  }
}

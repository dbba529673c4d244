// buildInsights: the whole /insights.json from published reviews and their stored analyses. Pure and
// linear in the corpus (one pass, one sort at most); a corpus that keeps its rows (held.ts) makes the
// same document from them without parsing any analysis again.
import type { Insights, ReviewAnalysis } from '../../domain/index.js';
import { type Lexicon, loadLexicon } from '../lexicon.js';
import { round } from '../score.js';
import { ENGINE_VERSION } from '../version.js';
import { AspectAccumulator } from './aspects.js';
import { EntityAccumulator, ProblemAccumulator } from './entities.js';
import type { Facts } from './facts.js';
import { buildFaq } from './faq.js';
import { percentages } from './percent.js';
import { PullQuoteAccumulator } from './quotes.js';
import { type CorpusReview, mean, prepareRows, type Row } from './rows.js';
import { buildSummary } from './summary.js';
import { TemporalAccumulator } from './temporal.js';
import { TopicAccumulator } from './topics.js';

/** Non-whitespace test without allocating a trimmed copy of every review text. */
const HAS_TEXT = /\S/;

export interface BuildInsightsInput {
  business: {
    vertical: string;
    /** Used in the prose (FAQ, summary); "this business" when absent. */
    name?: string;
    technicians: { id: string; name: string }[];
    services: { id: string; name: string }[];
    service_areas: { id: string; name: string }[];
  };
  reviews: CorpusReview[];
  /** By review id, or a list at the same positions as `reviews`. */
  analyses: ReadonlyMap<string, ReviewAnalysis> | readonly ReviewAnalysis[];
  generatedAt: string;
}

export function buildInsights(input: BuildInsightsInput): Insights {
  const lex = loadLexicon(input.business.vertical);
  const rows = prepareRows(input.reviews, input.analyses, aspectIndexOf(lex));
  const insights = insightsOfRows(input.business, rows, input.generatedAt, lex);
  // 100k keys cost more to build than the rest of the document, and the catalog renders and looks up
  // analyses without them: built on first read, in corpus order (redefining keeps the key's position).
  // These rows were made from whole analyses (prepareRows keeps the caller's objects).
  let perReview: Record<string, ReviewAnalysis> | undefined;
  return Object.defineProperty(insights, 'per_review', {
    enumerable: true,
    configurable: true,
    get: () => (perReview ??= Object.fromEntries(rows.map((r) => [r.review.id, r.analysis as ReviewAnalysis]))),
  });
}

/** Taxonomy aspect id → its bit in a row's aspect mask. */
export const aspectIndexOf = (lex: Lexicon): Map<string, number> => new Map(lex.aspects.map((a, i) => [a.id, i]));

/**
 * The insights of rows already newest first, with per_review an empty placeholder (keeping its place
 * in the key order): buildInsights, and a corpus that keeps its rows between revisions, both end here.
 */
export function insightsOfRows(
  business: BuildInsightsInput['business'],
  rows: readonly Row[],
  generatedAt: string,
  lex: Lexicon,
): Insights {
  const aspectIds = lex.aspects.map((a) => a.id);
  const noArea: string[] = [];

  const aspectAcc = new AspectAccumulator(lex.aspects);
  const technicianAcc = new EntityAccumulator(business.technicians, aspectIds, (r) => r.review.technicians);
  const serviceAcc = new EntityAccumulator(business.services, aspectIds, (r) => r.review.services);
  const areaAcc = new EntityAccumulator(business.service_areas, aspectIds, (r) =>
    r.review.service_area === null ? noArea : [r.review.service_area],
  );
  const problemAcc = new ProblemAccumulator(lex.problems);
  const topicAcc = new TopicAccumulator();
  const temporalAcc = new TemporalAccumulator(rows.length === 0 ? null : rows[0].review.date);
  const quoteAcc = new PullQuoteAccumulator();

  let ratingSum = 0;
  let sentimentSum = 0;
  let textCount = 0;
  const stars = [0, 0, 0, 0, 0, 0];
  const polarity = { positive: 0, neutral: 0, negative: 0 };
  // One pass feeds every builder: at 100k reviews the cost is memory traffic, so each review's data is
  // fetched once and reused while it is still in cache, instead of once per builder.
  for (const row of rows) {
    ratingSum += row.review.rating;
    sentimentSum += row.analysis.sentiment;
    if (row.review.text !== null && HAS_TEXT.test(row.review.text)) textCount++;
    stars[Math.min(5, Math.max(1, Math.round(row.review.rating)))]++;
    // A review's overall polarity is never "conflict": its score is one number.
    if (row.polarity === 'positive' || row.polarity === 'negative') polarity[row.polarity]++;
    else polarity.neutral++;
    aspectAcc.add(row);
    technicianAcc.add(row);
    serviceAcc.add(row);
    areaAcc.add(row);
    problemAcc.add(row);
    topicAcc.add(row);
    temporalAcc.add(row);
    quoteAcc.add(row);
  }

  const [positivePct, neutralPct, negativePct] = percentages([polarity.positive, polarity.neutral, polarity.negative]);
  const dateRange =
    rows.length === 0 ? { earliest: null, latest: null } : { earliest: rows[rows.length - 1].review.date, latest: rows[0].review.date };
  const aspects = aspectAcc.result();
  const technicians = technicianAcc.result();
  const services = serviceAcc.result();
  const areas = areaAcc.result();
  const problems = problemAcc.result();
  const { monthly, trend, detail } = temporalAcc.result();
  const quote = quoteAcc.result();

  const facts: Facts = {
    rows,
    subject: business.name?.trim() || 'this business',
    reviewCount: rows.length,
    textCount,
    meanRating: mean(ratingSum, rows.length),
    stars,
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

  const insights: Insights = {
    version: lex.version,
    generated_at: generatedAt,
    model: ENGINE_VERSION,
    vertical: lex.vertical,
    review_count: rows.length,
    date_range: dateRange,
    overall_sentiment: {
      score: round(mean(sentimentSum, rows.length), 3),
      positive_pct: positivePct,
      neutral_pct: neutralPct,
      negative_pct: negativePct,
    },
    aspects,
    entities: { technicians, services, service_areas: areas, problems },
    topics: topicAcc.result(),
    temporal: { monthly, trend, trend_detail: detail },
    // Placeholder keeping the key's place in the document; defined lazily below.
    per_review: {},
    faq: buildFaq(facts),
    summary: buildSummary(facts, dateRange),
    pull_quote: quote.text,
    pull_quote_review_id: quote.reviewId,
  };
  return insights;
}

// buildInsights: the whole /insights.json from published reviews and their stored analyses. Pure and
// linear in the corpus (one sort at most), so a new review in a 100k corpus costs well under a second.
import type { Insights, ReviewAnalysis } from '../../domain/insights.js';
import { loadLexicon } from '../lexicon.js';
import { ENGINE_VERSION } from '../version.js';
import { buildAspects } from './aspects.js';
import { buildEntities, buildProblems } from './entities.js';
import { buildFaq } from './faq.js';
import type { Facts } from './facts.js';
import { percentages } from './percent.js';
import { pullQuote } from './quotes.js';
import { mean, prepareRows, type CorpusReview } from './rows.js';
import { buildSummary } from './summary.js';
import { buildMonthly, buildTrend } from './temporal.js';
import { buildTopics } from './topics.js';
import { round } from '../score.js';

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
  analyses: Map<string, ReviewAnalysis>;
  generatedAt: string;
}

export function buildInsights(input: BuildInsightsInput): Insights {
  const lex = loadLexicon(input.business.vertical);
  const rows = prepareRows(input.reviews, input.analyses);

  let ratingSum = 0;
  let sentimentSum = 0;
  let textCount = 0;
  const stars = [0, 0, 0, 0, 0, 0];
  const polarity = { positive: 0, neutral: 0, negative: 0 };
  const perReview: Record<string, ReviewAnalysis> = {};
  for (const row of rows) {
    ratingSum += row.review.rating;
    sentimentSum += row.analysis.sentiment;
    if (row.review.text !== null && row.review.text.trim() !== '') textCount++;
    stars[Math.min(5, Math.max(1, Math.round(row.review.rating)))]++;
    // A review's overall polarity is never "conflict": its score is one number.
    if (row.polarity === 'positive' || row.polarity === 'negative') polarity[row.polarity]++;
    else polarity.neutral++;
    perReview[row.review.id] = row.analysis;
  }
  const [positivePct, neutralPct, negativePct] = percentages([polarity.positive, polarity.neutral, polarity.negative]);
  const dateRange = rows.length === 0 ? { earliest: null, latest: null }
    : { earliest: rows[rows.length - 1].review.date, latest: rows[0].review.date };

  const aspects = buildAspects(rows, lex.aspects);
  const technicians = buildEntities(rows, input.business.technicians, (r) => r.review.technicians);
  const services = buildEntities(rows, input.business.services, (r) => r.review.services);
  const areas = buildEntities(rows, input.business.service_areas, (r) => (r.review.service_area === null ? [] : [r.review.service_area]));
  const problems = buildProblems(rows, lex.problems);
  const { trend, detail } = buildTrend(rows);
  const quote = pullQuote(rows);

  const facts: Facts = {
    rows,
    subject: input.business.name?.trim() || 'this business',
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

  return {
    version: lex.version,
    generated_at: input.generatedAt,
    model: ENGINE_VERSION,
    vertical: lex.vertical,
    review_count: rows.length,
    date_range: dateRange,
    overall_sentiment: { score: round(mean(sentimentSum, rows.length), 3), positive_pct: positivePct, neutral_pct: neutralPct, negative_pct: negativePct },
    aspects,
    entities: { technicians, services, service_areas: areas, problems },
    topics: buildTopics(rows),
    temporal: { monthly: buildMonthly(rows), trend, trend_detail: detail },
    per_review: perReview,
    faq: buildFaq(facts),
    summary: buildSummary(facts, dateRange),
    pull_quote: quote.text,
    pull_quote_review_id: quote.reviewId,
  };
}

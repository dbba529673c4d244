// Zod schemas for the per-review analysis and the corpus-level insights document (/insights.json).
// They are the single source of truth for these types: the engine in src/insights produces values of
// these shapes, the store persists ReviewAnalysis as JSON, and the HTTP layer serves Insights.
// Field names follow shared/contract.md; fields marked "added" extend the contract's floor.
import { z } from 'zod';
import { IsoDateSchema } from './common.js';

/** A score on the -1..1 scale (negative … positive). */
const ScoreSchema = z.number().min(-1).max(1);

/** A percentage 0..100, rounded to one decimal. */
const PercentSchema = z.number().min(0).max(100);

const PolaritySchema = z.enum(['positive', 'negative', 'neutral', 'conflict']);
export type Polarity = z.infer<typeof PolaritySchema>;
/** The four polarities, in the schema's order (SemEval-2014's labels). */
export const POLARITIES = PolaritySchema.options;

const YearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

/** One aspect mentioned in one sentence. */
const AspectMentionSchema = z.object({
  id: z.string(),
  polarity: PolaritySchema,
  score: ScoreSchema,
});
export type AspectMention = z.infer<typeof AspectMentionSchema>;

/** One sentence; `start`/`end` are UTF-16 offsets into the review text, so text.slice(start, end) is the sentence. */
const SentenceAnalysisSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  score: ScoreSchema,
  aspects: z.array(AspectMentionSchema),
});
export type SentenceAnalysis = z.infer<typeof SentenceAnalysisSchema>;

/** An aspect summarised over the whole review (mixed positive and negative sentences make it `conflict`). */
const ReviewAspectSchema = z.object({
  id: z.string(),
  polarity: PolaritySchema,
  /** Mean of the aspect's sentence scores. */
  score: ScoreSchema,
  /** Words that carried the strongest mention (aspect term and/or opinion), lowercased; feeds `top_phrases`. */
  phrase: z.string(),
  /** Index in `sentences` of that strongest mention: the sentence to quote for this aspect. */
  sentence: z.number().int().nonnegative(),
});
export type ReviewAspect = z.infer<typeof ReviewAspectSchema>;

/** What the engine stores per review and serves as `per_review[id]`. */
export const ReviewAnalysisSchema = z.object({
  /** Engine name/version that produced this; an older value means "recompute". */
  engine: z.string(),
  /** Detected language: `en`, another BCP 47 primary tag, `und` when undecidable; null without text. */
  language: z.string().nullable(),
  /** Overall review sentiment: mean of text and star-rating polarity (rating alone when the text gives none). */
  sentiment: ScoreSchema,
  /** Sentiment of the text alone; null when there is no English text with opinion words. */
  text_sentiment: ScoreSchema.nullable(),
  sentences: z.array(SentenceAnalysisSchema),
  aspects: z.array(ReviewAspectSchema),
  /** Ids of technicians/services/areas whose name or alias appears in the text. */
  technicians: z.array(z.string()),
  services: z.array(z.string()),
  service_areas: z.array(z.string()),
  /** Problem ids from the vertical's taxonomy (e.g. `leak`, `clogged_drain`). */
  problems: z.array(z.string()),
  /** Key noun phrases (lowercased), the raw material of `topics[]`. */
  phrases: z.array(z.string()),
});
export type ReviewAnalysis = z.infer<typeof ReviewAnalysisSchema>;

/**
 * What a corpus reads of a review's analysis: a whole one, or a stored one read without its sentences
 * parsed (insights/corpus/stored-analysis.ts), where a sentence is only its span and the list ends at
 * the last sentence its aspects quote.
 */
export type CorpusAnalysis = Pick<
  ReviewAnalysis,
  'sentiment' | 'aspects' | 'technicians' | 'services' | 'service_areas' | 'problems' | 'phrases'
> & {
  sentences: readonly (Pick<SentenceAnalysis, 'start' | 'end'> | undefined)[];
};

const QuoteSchema = z.object({
  review_id: z.string(),
  /** An exact substring of that review's text. */
  text: z.string(),
  sentiment: PolaritySchema,
});

export const AspectInsightSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Reviews mentioning the aspect = positive + neutral + negative + conflict counts. */
  mention_count: z.number().int().nonnegative(),
  positive_count: z.number().int().nonnegative(),
  neutral_count: z.number().int().nonnegative(),
  negative_count: z.number().int().nonnegative(),
  /** Added: reviews with both praise and complaint about the aspect. */
  conflict_count: z.number().int().nonnegative(),
  positive_pct: PercentSchema,
  /** Added: the four percentages sum to 100 (largest-remainder rounding). */
  neutral_pct: PercentSchema,
  negative_pct: PercentSchema,
  conflict_pct: PercentSchema,
  score: ScoreSchema,
  top_phrases: z.array(z.string()),
  example_review_ids: z.array(z.string()),
  quotes: z.array(QuoteSchema),
});
export type AspectInsight = z.infer<typeof AspectInsightSchema>;

export const EntityInsightSchema = z.object({
  id: z.string(),
  name: z.string(),
  review_count: z.number().int().nonnegative(),
  /** Null when no review is attributed. */
  avg_rating: z.number().min(1).max(5).nullable(),
  positive_pct: PercentSchema,
  /** Aspect ids most often mentioned in this entity's reviews, most frequent first. */
  top_aspects: z.array(z.string()),
  example_review_ids: z.array(z.string()),
});
export type EntityInsight = z.infer<typeof EntityInsightSchema>;

const ProblemInsightSchema = z.object({
  /** Added: the taxonomy's problem id. */
  id: z.string(),
  label: z.string(),
  review_count: z.number().int().nonnegative(),
  example_review_ids: z.array(z.string()),
});
export type ProblemInsight = z.infer<typeof ProblemInsightSchema>;

const TopicInsightSchema = z.object({
  id: z.string(),
  label: z.string(),
  review_count: z.number().int().nonnegative(),
  score: ScoreSchema,
  /** The most recent reviews of the topic, at most 100 (review_count counts all of them). */
  review_ids: z.array(z.string()),
  /** Added: the key phrases grouped under this topic, most frequent first. */
  phrases: z.array(z.string()),
});
export type TopicInsight = z.infer<typeof TopicInsightSchema>;

const MonthlyPointSchema = z.object({
  month: YearMonth,
  review_count: z.number().int().positive(),
  avg_rating: z.number().min(1).max(5),
  sentiment_score: ScoreSchema,
});
export type MonthlyPoint = z.infer<typeof MonthlyPointSchema>;

const TrendSchema = z.enum(['improving', 'stable', 'declining']);
export type Trend = z.infer<typeof TrendSchema>;

/** Added: the numbers behind `trend`, so the label can be checked. */
const TrendDetailSchema = z.object({
  rule: z.string(),
  metric: z.literal('rating'),
  window_start: YearMonth.nullable(),
  window_end: YearMonth.nullable(),
  n: z.number().int().nonnegative(),
  slope_per_month: z.number().nullable(),
  p_value: z.number().min(0).max(1).nullable(),
});
export type TrendDetail = z.infer<typeof TrendDetailSchema>;

const FaqEntrySchema = z.object({
  question: z.string(),
  answer: z.string(),
  supporting_review_ids: z.array(z.string()).min(1),
});
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

export const InsightsSchema = z.object({
  /** Bumped when a taxonomy changes. */
  version: z.number().int().positive(),
  generated_at: z.string(),
  /** Engine name and version, e.g. `absa-lexicon/1.0.0`. */
  model: z.string(),
  /** Added: the taxonomy used. */
  vertical: z.string(),
  review_count: z.number().int().nonnegative(),
  date_range: z.object({ earliest: IsoDateSchema.nullable(), latest: IsoDateSchema.nullable() }),
  overall_sentiment: z.object({
    score: ScoreSchema,
    positive_pct: PercentSchema,
    neutral_pct: PercentSchema,
    negative_pct: PercentSchema,
  }),
  aspects: z.array(AspectInsightSchema),
  entities: z.object({
    technicians: z.array(EntityInsightSchema),
    services: z.array(EntityInsightSchema),
    service_areas: z.array(EntityInsightSchema),
    problems: z.array(ProblemInsightSchema),
  }),
  topics: z.array(TopicInsightSchema),
  temporal: z.object({
    monthly: z.array(MonthlyPointSchema),
    trend: TrendSchema,
    trend_detail: TrendDetailSchema,
  }),
  per_review: z.record(z.string(), ReviewAnalysisSchema),
  faq: z.array(FaqEntrySchema),
  summary: z.string(),
  pull_quote: z.string(),
  /** Added: the review the pull quote comes from; null when there is none. */
  pull_quote_review_id: z.string().nullable(),
});
export type Insights = z.infer<typeof InsightsSchema>;

// Zod schemas for the per-review analysis and the corpus-level insights document (/insights.json).
// They are the single source of truth for these types: the engine in src/insights produces values of
// these shapes, the store persists ReviewAnalysis as JSON, and the HTTP layer serves Insights.
// Field names follow shared/contract.md; fields marked "added" extend the contract's floor.
import { z } from 'zod';

/** A score on the -1..1 scale (negative … positive). */
export const Score = z.number().min(-1).max(1);

/** A percentage 0..100, rounded to one decimal. */
export const Percent = z.number().min(0).max(100);

export const Polarity = z.enum(['positive', 'negative', 'neutral', 'conflict']);
export type Polarity = z.infer<typeof Polarity>;

const YearMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One aspect mentioned in one sentence. */
export const AspectMention = z.object({
  id: z.string(),
  polarity: Polarity,
  score: Score,
});
export type AspectMention = z.infer<typeof AspectMention>;

/** One sentence; `start`/`end` are UTF-16 offsets into the review text, so text.slice(start, end) is the sentence. */
export const SentenceAnalysis = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  score: Score,
  aspects: z.array(AspectMention),
});
export type SentenceAnalysis = z.infer<typeof SentenceAnalysis>;

/** An aspect summarised over the whole review (mixed positive and negative sentences make it `conflict`). */
export const ReviewAspect = z.object({
  id: z.string(),
  polarity: Polarity,
  /** Mean of the aspect's sentence scores. */
  score: Score,
  /** Words that carried the strongest mention (aspect term and/or opinion), lowercased; feeds `top_phrases`. */
  phrase: z.string(),
  /** Index in `sentences` of that strongest mention: the sentence to quote for this aspect. */
  sentence: z.number().int().nonnegative(),
});
export type ReviewAspect = z.infer<typeof ReviewAspect>;

/** What the engine stores per review and serves as `per_review[id]`. */
export const ReviewAnalysis = z.object({
  /** Engine name/version that produced this; an older value means "recompute". */
  engine: z.string(),
  /** Detected language: `en`, another BCP 47 primary tag, `und` when undecidable; null without text. */
  language: z.string().nullable(),
  /** Overall review sentiment: mean of text and star-rating polarity (rating alone when the text gives none). */
  sentiment: Score,
  /** Sentiment of the text alone; null when there is no English text with opinion words. */
  text_sentiment: Score.nullable(),
  sentences: z.array(SentenceAnalysis),
  aspects: z.array(ReviewAspect),
  /** Ids of technicians/services/areas whose name or alias appears in the text. */
  technicians: z.array(z.string()),
  services: z.array(z.string()),
  service_areas: z.array(z.string()),
  /** Problem ids from the vertical's taxonomy (e.g. `leak`, `clogged_drain`). */
  problems: z.array(z.string()),
  /** Key noun phrases (lowercased), the raw material of `topics[]`. */
  phrases: z.array(z.string()),
});
export type ReviewAnalysis = z.infer<typeof ReviewAnalysis>;

export const Quote = z.object({
  review_id: z.string(),
  /** An exact substring of that review's text. */
  text: z.string(),
  sentiment: Polarity,
});
export type Quote = z.infer<typeof Quote>;

export const AspectInsight = z.object({
  id: z.string(),
  label: z.string(),
  /** Reviews mentioning the aspect = positive + neutral + negative + conflict counts. */
  mention_count: z.number().int().nonnegative(),
  positive_count: z.number().int().nonnegative(),
  neutral_count: z.number().int().nonnegative(),
  negative_count: z.number().int().nonnegative(),
  /** Added: reviews with both praise and complaint about the aspect. */
  conflict_count: z.number().int().nonnegative(),
  positive_pct: Percent,
  /** Added: the four percentages sum to 100 (largest-remainder rounding). */
  neutral_pct: Percent,
  negative_pct: Percent,
  conflict_pct: Percent,
  score: Score,
  top_phrases: z.array(z.string()),
  example_review_ids: z.array(z.string()),
  quotes: z.array(Quote),
});
export type AspectInsight = z.infer<typeof AspectInsight>;

export const EntityInsight = z.object({
  id: z.string(),
  name: z.string(),
  review_count: z.number().int().nonnegative(),
  /** Null when no review is attributed. */
  avg_rating: z.number().min(1).max(5).nullable(),
  positive_pct: Percent,
  /** Aspect ids most often mentioned in this entity's reviews, most frequent first. */
  top_aspects: z.array(z.string()),
  example_review_ids: z.array(z.string()),
});
export type EntityInsight = z.infer<typeof EntityInsight>;

export const ProblemInsight = z.object({
  /** Added: the taxonomy's problem id. */
  id: z.string(),
  label: z.string(),
  review_count: z.number().int().nonnegative(),
  example_review_ids: z.array(z.string()),
});
export type ProblemInsight = z.infer<typeof ProblemInsight>;

export const TopicInsight = z.object({
  id: z.string(),
  label: z.string(),
  review_count: z.number().int().nonnegative(),
  score: Score,
  /** The most recent reviews of the topic, at most 100 (review_count counts all of them). */
  review_ids: z.array(z.string()),
  /** Added: the key phrases grouped under this topic, most frequent first. */
  phrases: z.array(z.string()),
});
export type TopicInsight = z.infer<typeof TopicInsight>;

export const MonthlyPoint = z.object({
  month: YearMonth,
  review_count: z.number().int().positive(),
  avg_rating: z.number().min(1).max(5),
  sentiment_score: Score,
});
export type MonthlyPoint = z.infer<typeof MonthlyPoint>;

export const Trend = z.enum(['improving', 'stable', 'declining']);
export type Trend = z.infer<typeof Trend>;

/** Added: the numbers behind `trend`, so the label can be checked. */
export const TrendDetail = z.object({
  rule: z.string(),
  metric: z.literal('rating'),
  window_start: YearMonth.nullable(),
  window_end: YearMonth.nullable(),
  n: z.number().int().nonnegative(),
  slope_per_month: z.number().nullable(),
  p_value: z.number().min(0).max(1).nullable(),
});
export type TrendDetail = z.infer<typeof TrendDetail>;

export const FaqEntry = z.object({
  question: z.string(),
  answer: z.string(),
  supporting_review_ids: z.array(z.string()).min(1),
});
export type FaqEntry = z.infer<typeof FaqEntry>;

export const Insights = z.object({
  /** Bumped when a taxonomy changes. */
  version: z.number().int().positive(),
  generated_at: z.string(),
  /** Engine name and version, e.g. `absa-lexicon/1.0.0`. */
  model: z.string(),
  /** Added: the taxonomy used. */
  vertical: z.string(),
  review_count: z.number().int().nonnegative(),
  date_range: z.object({ earliest: IsoDate.nullable(), latest: IsoDate.nullable() }),
  overall_sentiment: z.object({
    score: Score,
    positive_pct: Percent,
    neutral_pct: Percent,
    negative_pct: Percent,
  }),
  aspects: z.array(AspectInsight),
  entities: z.object({
    technicians: z.array(EntityInsight),
    services: z.array(EntityInsight),
    service_areas: z.array(EntityInsight),
    problems: z.array(ProblemInsight),
  }),
  topics: z.array(TopicInsight),
  temporal: z.object({
    monthly: z.array(MonthlyPoint),
    trend: Trend,
    trend_detail: TrendDetail,
  }),
  per_review: z.record(z.string(), ReviewAnalysis),
  faq: z.array(FaqEntry),
  summary: z.string(),
  pull_quote: z.string(),
  /** Added: the review the pull quote comes from; null when there is none. */
  pull_quote_review_id: z.string().nullable(),
});
export type Insights = z.infer<typeof Insights>;

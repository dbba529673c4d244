import { z } from 'zod';
import { HttpUrlSchema, IsoDateSchema, SlugSchema, TimestampSchema } from './common.js';

const RatingSchema = z.int().min(1).max(5);
const ReviewSourceSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'lowercase platform name such as google, yelp or direct');

export const OwnerReplySchema = z.object({
  text: z.string().min(1),
  date: IsoDateSchema,
});

const VerificationSchema = z.object({
  method: z.string().min(1).describe('platform, crm_job_match, manual, …'),
});

/** One published review, exactly as every public surface serves it (contract: Review). */
export const ReviewSchema = z
  .object({
    id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'ULID'),
    author: z.string(),
    author_avatar_url: HttpUrlSchema.nullable(),
    rating: RatingSchema,
    date: IsoDateSchema,
    text: z.string().nullable(),
    source: ReviewSourceSchema,
    source_url: HttpUrlSchema.nullable(),
    owner_reply: OwnerReplySchema.nullable(),
    verified: z.boolean(),
    published_at: TimestampSchema,
    updated_at: TimestampSchema,
    first_seen_at: TimestampSchema,
    title: z.string().nullable(),
    language: z.string().nullable(),
    technicians: z.array(SlugSchema),
    services: z.array(SlugSchema),
    service_area: SlugSchema.nullable(),
    verification: VerificationSchema,
    url: HttpUrlSchema,
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof ReviewSchema>;

/**
 * A review as the store holds it: the public Review before the catalog gives it a url and adds the
 * mentions its analysis finds, plus whether it is published and the version of its imported fields
 * (what a stored analysis is keyed by).
 */
export const StoredReviewSchema = ReviewSchema.omit({ url: true }).extend({
  /** The platform's own id of the review, when the import had one. */
  source_review_id: z.string().nullable(),
  published: z.boolean(),
  version: z.string().min(1),
  /** The revision whose import last wrote it (added, changed or unpublished). */
  changed_revision: z.int().nullable(),
});
export type StoredReview = z.infer<typeof StoredReviewSchema>;

/** A review as the insights engine analyses it. */
export type AnalysisInput = Pick<StoredReview, 'id' | 'rating' | 'text' | 'title' | 'language'>;

/** A stored analysis of a review: current when `key` is the analysis key of the review's version under this profile and engine. */
const StoredAnalysisSchema = z.object({
  review_id: z.string(),
  key: z.string(),
  /** The analysis as JSON text (parsed only where it is used). */
  analysis: z.string(),
});
export type StoredAnalysis = z.infer<typeof StoredAnalysisSchema>;

/**
 * Review, reply and publication dates an import accepts: from the first web reviews on, up to a day
 * after the import (a reviewer ahead of UTC may already be on tomorrow's date). Anything outside is a
 * data error (a placeholder 0001-01-01, a 9999-12-31 "never") that would skew trends and feeds.
 */
export const EARLIEST_REVIEW_DATE = '1995-01-01';
export const FUTURE_TOLERANCE_MS = 86_400_000;

/** Longest review text we accept; longer rows are reported, not truncated silently. */
export const MAX_REVIEW_TEXT = 20_000;

const trimmedOrNull = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((s) => (s == null || s.trim() === '' ? null : s.trim()));

/**
 * One row of `reviewcast import` in our own format (JSON, NDJSON, CSV). The Google importer maps its
 * shape onto this. `id`, `first_seen_at` and `url` are assigned by the service, never read.
 */
export const ImportRecordSchema = z.object({
  source: ReviewSourceSchema.default('direct'),
  source_review_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullish()
    .transform((v) => v ?? null),
  author: z.string().trim().min(1).max(200),
  author_avatar_url: HttpUrlSchema.nullish().transform((v) => v ?? null),
  rating: RatingSchema,
  date: IsoDateSchema,
  text: trimmedOrNull(MAX_REVIEW_TEXT),
  source_url: HttpUrlSchema.nullish().transform((v) => v ?? null),
  owner_reply: OwnerReplySchema.nullish().transform((v) => v ?? null),
  verified: z.boolean().default(true),
  verification: VerificationSchema.nullish().transform((v) => v ?? null),
  // Stored as UTC with milliseconds, so timestamps compare correctly as text (ordering, updated_at rules).
  published_at: TimestampSchema.nullish().transform((v) => (v == null ? null : new Date(v).toISOString())),
  updated_at: TimestampSchema.nullish().transform((v) => (v == null ? null : new Date(v).toISOString())),
  title: trimmedOrNull(300),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'BCP 47 language tag')
    .nullish()
    .transform((v) => v ?? null),
  technicians: z.array(z.string().trim().min(1)).default([]),
  services: z.array(z.string().trim().min(1)).default([]),
  service_area: z
    .string()
    .trim()
    .min(1)
    .nullish()
    .transform((v) => v ?? null),
});
export type ImportRecordInput = z.input<typeof ImportRecordSchema>;
export type ImportRecord = z.output<typeof ImportRecordSchema>;

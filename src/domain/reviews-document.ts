import { z } from 'zod';
import { AggregateRatingSchema } from './aggregate-rating.js';
import { BusinessSchema } from './business.js';
import { TimestampSchema } from './common.js';
import { ReviewSchema } from './review.js';

/** GET /reviews.json */
export const ReviewsDocumentSchema = z
  .object({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    reviews: z.array(ReviewSchema).describe('newest first: date desc, then published_at desc, then id'),
    generated_at: TimestampSchema,
    revision: z.int().min(0).describe('data revision these bytes belong to'),
  })
  .meta({ id: 'ReviewsDocument' });
export type ReviewsDocument = z.infer<typeof ReviewsDocumentSchema>;

import { z } from 'zod';
import { IsoDateSchema, TimestampSchema } from './common.js';
import { OwnerReplySchema } from './review.js';

const Author = z.object({ name: z.string(), url: z.string().optional(), avatar: z.string().optional() });

/** The JSON Feed 1.1 document served at /api/feed.json (and pushed to its WebSub subscribers). */
export const JsonFeedSchema = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string(),
    language: z.string(),
    authors: z.array(Author),
    hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.string() })),
    items: z.array(
      z.object({
        id: z.string(),
        url: z.string(),
        external_url: z.string().optional(),
        title: z.string(),
        content_text: z.string(),
        date_published: TimestampSchema,
        date_modified: TimestampSchema,
        authors: z.array(Author),
        language: z.string().optional(),
        tags: z.array(z.string()),
        _review: z.object({
          about: z.string(),
          rating: z.int().min(1).max(5),
          date: IsoDateSchema,
          source: z.string(),
          technicians: z.array(z.string()),
          services: z.array(z.string()),
          owner_reply: OwnerReplySchema.nullable(),
        }),
      }),
    ),
  })
  .meta({ id: 'JsonFeed' });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;

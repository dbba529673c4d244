import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { decodeCursor } from './cursor.js';
import { ReviewSchema } from './review.js';

const CHANGES_LIMIT_DEFAULT = 100;
const CHANGES_LIMIT_MAX = 1000;

/** The one schema behind REST `GET /api/reviews/changes` and MCP `get_changes`. */
export const ChangesQuerySchema = z
  .object({
    after: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe('next_cursor or now_cursor of an earlier answer, unchanged; without it, every change from the first revision'),
    limit: z.int().min(1).max(CHANGES_LIMIT_MAX).default(CHANGES_LIMIT_DEFAULT).describe('changes per page (1–1000, default 100)'),
  })
  .superRefine((q, ctx) => {
    if (q.after === undefined) return;
    const got = decodeCursor(q.after, 'changes', 'after');
    if ('issue' in got) ctx.addIssue({ code: 'custom', path: ['after'], message: got.issue.message });
  })
  .meta({ id: 'ChangesQuery' });
export type ChangesQuery = z.output<typeof ChangesQuerySchema>;

export const TombstoneSchema = z
  .object({
    id: z.string().describe('id of a review that is no longer published'),
    removed_at: TimestampSchema.describe('when the revision that removed it was made'),
  })
  .meta({ id: 'Tombstone' });
export type Tombstone = z.infer<typeof TombstoneSchema>;

export const ChangesResultSchema = z
  .object({
    revision: z.int().min(0).describe('the data revision this answer reflects'),
    changes: z
      .array(z.union([ReviewSchema, TombstoneSchema]))
      .describe('in revision order: a review as it now is (added or changed), or a tombstone (has removed_at) for one removed'),
    next_cursor: z.string().nullable().describe('more changes follow: pass as after; null when this page reaches the revision'),
    now_cursor: z.string().describe('"now": pass as after on the next poll once next_cursor is null'),
  })
  .meta({ id: 'ChangesResult' });
export type ChangesResult = z.infer<typeof ChangesResultSchema>;

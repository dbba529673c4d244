import type { ImportRecordInput } from '../domain/index.js';
import type { RowError } from './errors.js';

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

export const isGoogleReview = (v: unknown) => typeof v === 'object' && v !== null && ('reviewId' in v || 'starRating' in v);

interface GoogleReview {
  reviewId?: unknown;
  name?: unknown;
  reviewer?: { displayName?: unknown; profilePhotoUrl?: unknown; isAnonymous?: unknown };
  starRating?: unknown;
  comment?: unknown;
  createTime?: unknown;
  updateTime?: unknown;
  reviewReply?: { comment?: unknown; updateTime?: unknown } | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
/** Google sends RFC 3339 with nanoseconds; keep milliseconds so the value is a valid timestamp everywhere. */
const timestamp = (v: unknown) => {
  const s = str(v);
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? s : new Date(t).toISOString();
};

/** The Google Business Profile API review shape → our import record. */
export function googleToRecord(value: unknown): { record: ImportRecordInput } | { errors: Omit<RowError, 'line' | 'index'>[] } {
  if (typeof value !== 'object' || value === null) return { errors: [{ field: '', reason: 'expected a review object' }] };
  const g = value as GoogleReview;
  const errors: Omit<RowError, 'line' | 'index'>[] = [];
  const rating = STARS[String(g.starRating)];
  if (!rating) errors.push({ field: 'starRating', reason: `expected ONE, TWO, THREE, FOUR or FIVE (got ${JSON.stringify(g.starRating)})` });
  const created = timestamp(g.createTime);
  if (!created || !/^\d{4}-\d{2}-\d{2}T/.test(created))
    errors.push({ field: 'createTime', reason: `expected an RFC 3339 timestamp (got ${JSON.stringify(g.createTime)})` });
  const id = str(g.reviewId) ?? str(g.name)?.split('/').pop();
  if (!id) errors.push({ field: 'reviewId', reason: 'missing' });
  if (errors.length) return { errors };
  const anonymous = g.reviewer?.isAnonymous === true;
  const reply =
    g.reviewReply && str(g.reviewReply.comment)
      ? { text: str(g.reviewReply.comment)!, date: (timestamp(g.reviewReply.updateTime) ?? created!).slice(0, 10) }
      : null;
  return {
    record: {
      source: 'google',
      source_review_id: id,
      author: (anonymous ? undefined : str(g.reviewer?.displayName)) ?? 'A Google user',
      author_avatar_url: anonymous ? null : (str(g.reviewer?.profilePhotoUrl) ?? null),
      rating,
      date: created!.slice(0, 10),
      published_at: created,
      updated_at: timestamp(g.updateTime) ?? created,
      text: str(g.comment) ?? null,
      owner_reply: reply,
      verified: true,
      verification: { method: 'platform' },
    },
  };
}

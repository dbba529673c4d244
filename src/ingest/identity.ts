import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { foldText } from '../domain/index.js';

export { hashOf } from '../domain/index.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** Dedupe key without a platform id: same source, author, day and text is the same review. */
export const fingerprint = (source: string, author: string, date: string, text: string | null) =>
  sha256(
    [
      source,
      foldText(author).trim(),
      date,
      foldText(text ?? '')
        .replace(/\s+/g, ' ')
        .trim(),
    ].join('\u0000'),
  ).toString('base64url');

/**
 * A ULID derived from the review's identity: its time part is the review's publication time and its
 * random part comes from the dedupe key, so the same source review gets the same id on every import,
 * database and replica.
 */
export function reviewId(dedupeKey: string, publishedAt: string): string {
  const bytes = sha256(dedupeKey);
  let i = 0;
  return ulid(Math.max(0, Date.parse(publishedAt)), () => bytes[i++ % bytes.length] / 256);
}

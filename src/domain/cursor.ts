import { z } from 'zod';
import type { ErrorIssue } from './errors.js';

/**
 * Opaque paging cursors. Inside: a version tag, what they page (`k`) and a keyset position (the last
 * item's sort key and id), never an offset, so a cursor stays meaningful in any later revision.
 * Written as base64url JSON: opaque to clients, checked by a schema when it comes back.
 */
const CURSOR_VERSION = 1;

const SearchCursorBody = z.object({
  v: z.literal(CURSOR_VERSION),
  k: z.literal('search'),
  /** Fingerprint of the filters and order it was made for: a cursor only continues its own query. */
  q: z.string().max(16),
  rating: z.int().min(1).max(5),
  date: z.string().max(10),
  published_at: z.string().max(40),
  id: z.string().max(64),
});
export type SearchCursor = z.infer<typeof SearchCursorBody>;

const ChangesCursorBody = z.object({
  v: z.literal(CURSOR_VERSION),
  k: z.literal('changes'),
  /** The last listed change: its revision and review id; without an id, every change up to that revision. */
  revision: z.int().min(0),
  id: z.string().max(64).nullable(),
});
type ChangesCursor = z.infer<typeof ChangesCursorBody>;

const CursorBody = z.discriminatedUnion('k', [SearchCursorBody, ChangesCursorBody]);

export const encodeCursor = (c: SearchCursor | ChangesCursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

/** The cursor of kind `kind` in `text`, or the issue to report at `path`. */
export function decodeCursor<K extends 'search' | 'changes'>(
  text: string,
  kind: K,
  path: string,
): { cursor: Extract<SearchCursor | ChangesCursor, { k: K }> } | { issue: ErrorIssue } {
  const bad = (message: string) => ({ issue: { path: [path], code: 'invalid_cursor', message } });
  let body: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('not base64url');
    body = JSON.parse(Buffer.from(text, 'base64url').toString());
  } catch {
    return bad(`"${path}" is not a cursor this service gave out; pass next_cursor back unchanged`);
  }
  const parsed = CursorBody.safeParse(body);
  if (!parsed.success) return bad(`"${path}" is not a cursor this service gave out; pass next_cursor back unchanged`);
  if (parsed.data.k !== kind) return bad(`"${path}" is a ${parsed.data.k} cursor; this request takes a ${kind} cursor`);
  return { cursor: parsed.data as Extract<SearchCursor | ChangesCursor, { k: K }> };
}

/** FNV-1a of a string, hex: a short fingerprint (collisions only make a wrong cursor page by the wrong query). */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

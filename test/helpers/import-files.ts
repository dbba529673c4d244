import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';

/** One valid import record: the base that import tests vary one field of. */
export const GOOD_RECORD = {
  source: 'google',
  source_review_id: 'g-1',
  author: 'Ana P.',
  rating: 5,
  date: '2025-03-04',
  text: 'Mike fixed the leak fast.',
} as const;

/** Writes `content` to `dir/name` and returns the path: an import file for one test. */
export function importFileIn(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Every table an import may touch, as one string: equal before and after proves a refused import wrote nothing. */
export async function importedState(raw: Kysely<any>): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const t of ['business', 'reviews', 'revisions', 'review_analysis'] as const) out[t] = await raw.selectFrom(t).selectAll().execute();
  return JSON.stringify(out);
}

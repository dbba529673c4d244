import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { type SearchQuery, SearchQuerySchema } from '../../src/domain/index.js';
import { searchKey } from '../../src/http/index.js';

// Characters a key encoding might use as separators or quoting, plus the ones of the reported collision.
const TRICKY = ['\u0000', '\u0001', '[', ']', '"', '\\', ',', ':', 'null', '{', '}', 'a', ' ', 'é', '\u{1F600}'];
const text = (min: number, max: number) => fc.array(fc.constantFrom(...TRICKY), { minLength: min, maxLength: max }).map((a) => a.join(''));

const query = fc
  .record(
    {
      rating: fc.integer({ min: 1, max: 5 }),
      min_rating: fc.constantFrom(1, 2.5, 4, 4.5),
      since: fc.constantFrom('2025-01-01', '2026-01-01'),
      until: fc.constantFrom('2026-06-30', '2026-12-31'),
      query: text(1, 6),
      mentions_technician: text(1, 4),
      mentions_service: text(1, 4),
      limit: fc.constantFrom(1, 20, 100),
    },
    { requiredKeys: ['limit'] },
  )
  .map((q) => SearchQuerySchema.parse(q));

/** Two queries whose text fields, joined with a separator, read the same: the value boundary moves. */
const collidingLooking = fc
  .tuple(text(0, 3), text(0, 3), text(1, 3), fc.constantFrom('\u0000', '","', '",', ',', 'null', '\u0000\u0000'), query)
  .map(([x, y, z, sep, base]): [SearchQuery, SearchQuery] => {
    const a = { ...base, query: `${x}${sep}${y}` || undefined, mentions_technician: z };
    const b = { ...base, query: x || undefined, mentions_technician: `${y}${sep}${z}` };
    return [a, b];
  });

test('search memo keys: equal exactly when the parsed queries are equal', () => {
  fc.assert(
    fc.property(query, query, (a, b) => (searchKey(a) === searchKey(b)) === isDeepStrictEqual(a, b)),
    { seed: 13, numRuns: 5_000 },
  );
});

test('search memo keys: queries whose values only move a separator between fields never share a key', () => {
  fc.assert(
    fc.property(collidingLooking, ([a, b]) => searchKey(a) !== searchKey(b)),
    { seed: 13, numRuns: 5_000 },
  );
  // The pair reported in issue 13.
  const reported = (q: Record<string, unknown>) => SearchQuerySchema.parse(q);
  assert.notEqual(
    searchKey(reported({ query: '[', mentions_technician: '\u0001\u0000' })),
    searchKey(reported({ query: '[\u0000\u0001' })),
  );
});

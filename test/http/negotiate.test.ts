import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagMatches, negotiateEncoding } from '../../src/http/index.js';

test('Accept-Encoding: explicit q-values win, * covers only unnamed codings, q=0 refuses', () => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, br', 'br'],
    ['gzip, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0.1, br;q=0, *;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['x-gzip', 'gzip'],
    ['*;q=0', null],
  ];
  for (const [header, expected] of cases) assert.equal(negotiateEncoding(header), expected, String(header));
});

test('If-None-Match: lists, *, weak tags and any coding of the same bytes match', () => {
  assert.equal(etagMatches('*', '"abc"'), true);
  assert.equal(etagMatches('"x", W/"abc"', '"abc"'), true);
  assert.equal(etagMatches('"abc-br"', '"abc"'), true);
  assert.equal(etagMatches('"abcd"', '"abc"'), false);
  assert.equal(etagMatches('abc', '"abc"'), false);
});

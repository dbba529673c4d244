import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagMatches, negotiateEncoding, parseHttpDate } from '../../src/http/index.js';

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

test('HTTP-date: the three RFC 9110 forms parse; anything else (a bare year, ISO dates, impossible days) is null', () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37);
  assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t);
  assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(2026, 0, 1)), t);
  assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t);
  assert.equal(parseHttpDate('Thursday, 01-Jan-30 00:00:00 GMT', Date.UTC(2026, 0, 1)), Date.UTC(2030, 0, 1));
  for (const bad of [
    '9999',
    '2025-01-01',
    '2025-01-01T00:00:00Z',
    'Sun, 31 Feb 2025 00:00:00 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'sun, 06 nov 1994 08:49:37 gmt',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    ' Sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    '',
  ]) {
    assert.equal(parseHttpDate(bad), null, bad);
  }
});

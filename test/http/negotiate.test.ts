import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Representation } from '../../src/catalog/index.js';
import { answer, CACHE_CONTROL, etagMatches, negotiateEncoding, parseHttpDate, WAIT_FOR_CODING_UP_TO } from '../../src/http/index.js';

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

test('a large body whose coding is not made: another coding already made, else identity marked no-cache, and a 304 names what a 200 would be', async () => {
  const body = Buffer.alloc(WAIT_FOR_CODING_UP_TO + 1, 'a');
  // The gzip coding in parts, as a loaded snapshot gives it: sent as given, with the parts' total length.
  const gz = gzipSync(body);
  const gzipped = [gz.subarray(0, 100), gz.subarray(100, gz.length - 2), gz.subarray(gz.length - 2)];
  const fresh = () => new Representation('application/json', body, 'Thu, 26 Nov 2026 00:00:00 GMT', { gzipped });
  const br = { 'accept-encoding': 'br' };
  // Every call below runs before the brotli coding (started by the first) can be made on zlib's threads.
  let rep = fresh();
  const standIn = await answer(br, rep);
  assert.equal(standIn.status, 200);
  assert.equal(standIn.headers['content-encoding'], undefined);
  assert.equal(standIn.headers['cache-control'], 'no-cache');
  assert.equal(standIn.headers.etag, rep.etag);
  assert.equal(standIn.headers.vary, 'Accept-Encoding');
  const revalidated = await answer({ ...br, 'if-none-match': rep.etag }, rep);
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.headers.etag, rep.etag, 'the ETag a 200 would carry now');
  assert.equal(revalidated.headers['cache-control'], 'no-cache');
  // A browser accepts both: the gzip coding it already has is sent, not identity.
  const browser = await answer({ 'accept-encoding': 'gzip, deflate, br' }, rep);
  assert.equal(browser.headers['content-encoding'], 'gzip');
  assert.equal(browser.headers['cache-control'], CACHE_CONTROL);
  assert.deepEqual(browser.body, gzipped, 'the parts as they were given');
  assert.equal(browser.headers['content-length'], String(gz.length));
  // Identity refused: waits for the coding.
  const refused = await answer({ 'accept-encoding': 'br, identity;q=0' }, rep);
  assert.equal(refused.headers['content-encoding'], 'br');
  assert.ok(brotliDecompressSync(refused.body[0]).equals(body));
  // Made now: the coding itself, cacheable, and its 304.
  assert.equal((await answer(br, rep)).headers['content-encoding'], 'br');
  assert.equal((await answer({ ...br, 'if-none-match': rep.etag }, rep)).headers.etag, `"${rep.etag.slice(1, -1)}-br"`);
  // At the limit, a request waits for its coding instead.
  rep = new Representation('application/json', body.subarray(1), 'Thu, 26 Nov 2026 00:00:00 GMT');
  assert.equal((await answer(br, rep)).headers['content-encoding'], 'br');
});

test('a body in parts (a character cut between two) is coded and decoded as its bytes, never as the parts apart', async () => {
  const whole = Buffer.from(JSON.stringify({ text: 'é😀'.repeat(3000), more: 'x'.repeat(5000) }));
  // Cut inside multi-byte characters, small parts and a large one, as a search page's views are.
  const cuts = [1, 2, 7, 11, 4000, 4001, 9000];
  const parts = [0, ...cuts].map((at, i) => whole.subarray(at, cuts[i] ?? whole.length));
  for (const part of [parts, [whole]]) {
    const rep = new Representation('application/json', part, 'Thu, 26 Nov 2026 00:00:00 GMT');
    assert.equal(rep.length, whole.length);
    assert.equal(rep.text(), whole.toString('utf8'));
    assert.ok(gunzipSync(Buffer.concat(await rep.encoded('gzip'))).equals(whole));
    assert.ok(brotliDecompressSync(Buffer.concat(await rep.encoded('br'))).equals(whole));
  }
});

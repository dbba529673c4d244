import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { headerOf, type Raw, raw, startTestServer, tempDir } from '../helpers/index.js';

/**
 * The fast path in front of Fastify must be invisible: every request to a dataset gets the same status,
 * the same headers in the same order and the same bytes as with every request going through Fastify.
 * One database, served first with the fast path and then without it, answers the same requests.
 */
const BASE = 'https://reviews.fast-path.example';
const DATASETS = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];

const servers: RunningServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

type Case = { method: string; path: string; headers: Record<string, string> };

/** The requests to compare, with validators taken from the dataset's own identity answer. */
function cases(path: string, etag: string, lastModified: string): Case[] {
  const opaque = etag.slice(1, -1);
  const earlier = new Date(Date.parse(lastModified) - 3_600_000).toUTCString();
  const get = (headers: Record<string, string> = {}): Case => ({ method: 'GET', path, headers });
  return [
    get(),
    get({ 'accept-encoding': 'identity' }),
    get({ 'accept-encoding': 'gzip' }),
    get({ 'accept-encoding': 'br' }),
    get({ 'accept-encoding': 'gzip, deflate, br, zstd' }),
    get({ 'accept-encoding': 'br;q=0, gzip;q=0' }),
    get({ 'accept-encoding': '*;q=0.5, br;q=0' }),
    get({ 'if-none-match': etag }),
    get({ 'if-none-match': `"${opaque}-br"`, 'accept-encoding': 'br' }),
    get({ 'if-none-match': `"${opaque}-gz"`, 'accept-encoding': 'gzip' }),
    get({ 'if-none-match': `"other", W/${etag}` }),
    get({ 'if-none-match': '*' }),
    get({ 'if-none-match': '"other"' }),
    get({ 'if-none-match': '"other"', 'if-modified-since': lastModified }),
    get({ 'if-modified-since': lastModified }),
    get({ 'if-modified-since': earlier }),
    get({ 'if-modified-since': '9999' }),
    get({ origin: 'https://somewhere.example' }),
    { method: 'HEAD', path, headers: {} },
    { method: 'HEAD', path, headers: { 'accept-encoding': 'br' } },
    { method: 'HEAD', path, headers: { 'if-none-match': etag } },
    {
      method: 'OPTIONS',
      path,
      headers: {
        origin: 'https://somewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    },
    { method: 'OPTIONS', path, headers: {} },
    { method: 'POST', path, headers: {} },
    { method: 'DELETE', path, headers: {} },
    { method: 'GET', path: `${path}?since=2024-01-01`, headers: {} },
    { method: 'GET', path: `${path}/`, headers: { 'accept-encoding': 'gzip' } },
  ];
}

async function answers(server: RunningServer): Promise<Map<string, Raw>> {
  const out = new Map<string, Raw>();
  for (const path of DATASETS) {
    const first = await raw(server.url + path, 'GET', {});
    // Both codings made first (identity refused waits for them), so no answer depends on how far a
    // compression has got: a large body's first request in a coding not made yet comes in identity.
    for (const coding of ['br', 'gzip']) await raw(server.url + path, 'GET', { 'accept-encoding': `${coding}, identity;q=0` });
    // GETs twice: the second finds every answer made.
    for (const c of cases(path, headerOf(first, 'etag') ?? '', headerOf(first, 'last-modified') ?? ''))
      for (const round of c.method === 'GET' ? [1, 2] : [1])
        out.set(`${c.method} ${c.path} ${JSON.stringify(c.headers)} #${round}`, await raw(server.url + c.path, c.method, c.headers));
  }
  return out;
}

/** Searches: new and repeated, in each coding, conditional, paged (a Link header), and invalid ones. */
const SEARCHES = [
  '/api/reviews/search',
  '/api/reviews/search?query=leak&limit=3',
  '/api/reviews/search?min_rating=4&since=2024-01-01&query=on%20time&limit=2',
  '/api/reviews/search?query=%C3%A9t%C3%A9&sort=oldest&limit=100',
  '/api/reviews/search?mentions_technician=nobody',
  '/api/reviews/search?limit=0',
  '/api/reviews/search?limit=2&limit=3',
  '/api/reviews/search?since=2025-02-30',
];

async function searchAnswers(server: RunningServer): Promise<Map<string, Raw>> {
  const out = new Map<string, Raw>();
  for (const path of SEARCHES) {
    const first = await raw(server.url + path, 'GET', {});
    out.set(`GET ${path} first`, first);
    const etag = headerOf(first, 'etag') ?? '"none"';
    const variants: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'gzip, identity;q=0' },
      { 'accept-encoding': 'gzip' },
      { 'if-none-match': etag },
    ];
    for (const headers of variants)
      for (const round of [1, 2]) out.set(`GET ${path} ${JSON.stringify(headers)} #${round}`, await raw(server.url + path, 'GET', headers));
    out.set(`HEAD ${path}`, await raw(server.url + path, 'HEAD', {}));
  }
  return out;
}

function assertSame(ahead: Map<string, Raw>, through: Map<string, Raw>): void {
  assert.deepEqual([...ahead.keys()], [...through.keys()]);
  for (const [key, a] of ahead) {
    const b = through.get(key)!;
    assert.equal(a.status, b.status, key);
    assert.deepEqual(a.headers, b.headers, key);
    assert.ok(a.body.equals(b.body), `${key}: body`);
  }
}

async function servedAhead(server: RunningServer): Promise<number> {
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^reviewcast_http_fast_path_responses_total (\d+)$/m.exec(metrics)?.[1]);
}

test('datasets and searches answer the same status, headers and bytes with the fast path as through Fastify', async () => {
  const file = join(tempDir(), 'fast-path.db');
  const fast = await startTestServer({ DATABASE_URL: file, PUBLIC_BASE_URL: BASE });
  servers.push(fast);
  const ahead = await answers(fast);
  const served = await servedAhead(fast);
  // A new search asked for once in a coding not made yet is made once: the fast path waits for its coding
  // rather than handing the request on (which would search again, and count as the query's second request).
  const entries = async () => Number(/^reviewcast_memo_entries (\d+)$/m.exec(await (await fetch(`${fast.url}/metrics`)).text())?.[1]);
  const entriesBefore = await entries();
  const once = await raw(`${fast.url}/api/reviews/search?query=drain&limit=50`, 'GET', { 'accept-encoding': 'gzip' });
  assert.equal(once.status, 200);
  assert.ok(once.headers.some(([n, v]) => n === 'content-encoding' && v === 'gzip'));
  assert.equal(await entries(), entriesBefore, 'a search asked for once is not kept');
  assert.equal(await servedAhead(fast), served + 1);
  const searchesAhead = await searchAnswers(fast);
  const searchesServed = (await servedAhead(fast)) - served - 1;
  await fast.close();

  // The same database and base URL, every request through Fastify.
  const slow = await startTestServer({ DATABASE_URL: file, PUBLIC_BASE_URL: BASE, REVIEWCAST_DEMO_IF_EMPTY: false }, { fastPath: false });
  servers.push(slow);
  const through = await answers(slow);
  const searchesThrough = await searchAnswers(slow);
  assert.equal(await servedAhead(slow), 0);

  assertSame(ahead, through);
  assertSame(searchesAhead, searchesThrough);
  // Searches: the valid ones' identity answers and 304s went ahead; errors and HEAD went to Fastify.
  const statuses = [...searchesAhead.values()].map((r) => r.status);
  assert.ok(statuses.includes(304) && statuses.includes(400) && statuses.includes(200));
  assert.ok(
    searchesAhead
      .get('GET /api/reviews/search?query=leak&limit=3 first')!
      .headers.some(([n, v]) => n === 'link' && v.endsWith('; rel="next"')),
  );
  // A search kept from its second request: its later answers are the first's bytes and ETag.
  for (const path of SEARCHES) {
    const first = searchesAhead.get(`GET ${path} first`)!;
    const later = searchesAhead.get(`GET ${path} {} #2`)!;
    assert.equal(later.status, first.status, path);
    assert.deepEqual(later.headers, first.headers, path);
    assert.ok(later.body.equals(first.body), path);
  }
  // Every GET of a valid search went ahead, in any coding; the invalid ones (400) and HEAD went to Fastify.
  const validGets = [...searchesAhead].filter(([k, r]) => k.startsWith('GET') && r.status !== 400).length;
  assert.equal(searchesServed, validGets);

  // The comparison covers what it means to: 200 in each coding, 304 by either validator, errors.
  const statusesOf = (re: RegExp) => [...ahead].filter(([k]) => re.test(k)).map(([, r]) => r.status);
  assert.ok(statusesOf(/^GET .*if-none-match/).includes(304) && statusesOf(/^GET .*if-modified-since/).includes(304));
  const codings = new Set([...ahead.values()].map((r) => headerOf(r, 'content-encoding') ?? 'identity'));
  assert.deepEqual([...codings].sort(), ['br', 'gzip', 'identity']);
  for (const [key, r] of ahead) if (key.startsWith('POST') || key.startsWith('DELETE')) assert.equal(r.status, 405, key);
  for (const [key, r] of ahead)
    if (r.status >= 400) assert.deepEqual(Object.keys(JSON.parse(r.body.toString())).sort(), ['error', 'message'], key);

  // The fast path answered every plain GET: those compared, and each dataset's first GET and the two that
  // made its codings (it waits for a coding). Those with a query or trailing slash, HEAD, OPTIONS and the
  // rest went to Fastify.
  const plainGets = [...ahead.keys()].filter((k) => k.startsWith('GET') && !/\?|json\/ |xml\/ /.test(k)).length;
  assert.equal(served, plainGets + DATASETS.length * 3);
});

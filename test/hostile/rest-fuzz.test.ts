// A seeded fuzzer over the REST surface against the real server (issue 13): every route's parameters
// and paths, hostile headers; no 5xx, the contract's error body on every 4xx, and search and since
// answers equal to a plain scan of /reviews.json.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type RunningServer, seedDemo } from '../../src/app/index.js';
import { type Business, foldText, type Review } from '../../src/domain/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

const SEED = 13;
const CORPUS = 300;

let server: RunningServer;
let all: Review[];
let business: Business;
let lastModified: string;

before(async () => {
  const db = join(tempDir(), 'fuzz.db');
  const store = await Store.open(db);
  await seedDemo(store, CORPUS);
  await store.close();
  server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_DEMO_IF_EMPTY: false });
  const res = await fetch(`${server.url}/reviews.json`);
  lastModified = res.headers.get('last-modified')!;
  ({ reviews: all, business } = await res.json());
  assert.equal(all.length, CORPUS);
});
after(() => server?.close());

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** What every REST response must satisfy: no 5xx; a 4xx is the contract's JSON error body, with issues on a 400. */
function assertContract(res: Answer, where: string, method = 'GET'): void {
  assert.ok(res.status < 500, `${where}: ${res.status} ${res.text.slice(0, 200)}`);
  if (res.status < 400 || method === 'HEAD') return;
  assert.match(res.type, /^application\/json/, `${where}: ${res.status} as ${res.type}`);
  const body = JSON.parse(res.text);
  assert.equal(typeof body.error, 'string', where);
  assert.equal(typeof body.message, 'string', where);
  assert.deepEqual(
    Object.keys(body).filter((k) => !['error', 'message', 'issues'].includes(k)),
    [],
    where,
  );
  if (res.status === 400) {
    assert.ok(Array.isArray(body.issues) && body.issues.length > 0, `${where}: issues on a 400`);
    for (const i of body.issues) assert.ok(Array.isArray(i.path) && typeof i.message === 'string' && typeof i.code === 'string', where);
  }
}

// ---- search: structured values, each either valid (with its meaning) or invalid ----

type Param = { raw: string; value?: string | number; invalid?: true };
const valid = (raw: string, value: string | number): Param => ({ raw, value });
const invalid = (raw: string): Param => ({ raw, invalid: true });

const dates = () =>
  fc.oneof(
    fc.constantFrom(...all.map((r) => r.date)),
    fc.date({ min: new Date('1990-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  );
const names = () => {
  const techs = business.technicians.flatMap((t) => [t.id, t.name, ...(t.aliases ?? [])]);
  const services = business.services.flatMap((s) => [s.id, s.name, ...(s.aliases ?? [])]);
  const cased = (xs: string[]) =>
    fc
      .tuple(fc.constantFrom(...xs), fc.constantFrom('as is', 'upper', 'lower'))
      .map(([x, c]) => (c === 'upper' ? x.toUpperCase() : c === 'lower' ? x.toLowerCase() : x));
  return {
    techs: fc.oneof(cased(techs), fc.constantFrom('nobody', 'Zoë', '%', '\u0000')),
    services: fc.oneof(cased(services), fc.constantFrom('nothing', 'drain%', '\u0001')),
  };
};
const words = [
  'leak',
  'on time',
  'price',
  'drain',
  'the',
  'a',
  'Mike',
  'ÉTÉ',
  '%',
  '*',
  '.*',
  '(',
  '\\',
  '"',
  "'",
  '<script>',
  'water heater',
  '日本',
  '\u0000',
  'x'.repeat(200),
];

const param = {
  rating: fc.oneof(
    fc.constantFrom('1', '2', '3', '4', '5', ' 3 ', '+4', '5.0', '4e0').map((r) => valid(r, Number(r))),
    fc.constantFrom('0', '6', '2.5', 'abc', '', '1e400', 'NaN', '5,0', '-1', '0x5').map(invalid),
  ),
  min_rating: fc.oneof(
    fc.constantFrom('1', '2.5', '4.5', '5', '3.', '.5e1').map((r) => valid(r, Number(r))),
    fc.constantFrom('0', '5.5', 'x', '', 'Infinity').map(invalid),
  ),
  since: fc.oneof(
    fc
      .constant(0)
      .chain(() => dates())
      .map((d) => valid(d, d)),
    fc.constantFrom('2025-02-30', '2025-1-1', 'yesterday', '', '20250101', '2025-13-01', '0000-00-00').map(invalid),
  ),
  until: fc.oneof(
    fc
      .constant(0)
      .chain(() => dates())
      .map((d) => valid(d, d)),
    fc.constantFrom('2024-02-30', '1-1-2025', 'today', '').map(invalid),
  ),
  query: fc.oneof(
    fc.constantFrom(...words).map((w) => valid(w, w)),
    fc.constantFrom('', '   ').map((w) => valid(w, '')),
    fc.constant(invalid('q'.repeat(201))),
  ),
  mentions_technician: fc.oneof(
    fc
      .constant(0)
      .chain(() => names().techs)
      .map((n) => valid(n, n)),
    fc.constantFrom('', 't'.repeat(121)).map(invalid),
  ),
  mentions_service: fc.oneof(
    fc
      .constant(0)
      .chain(() => names().services)
      .map((n) => valid(n, n)),
    fc.constantFrom('', 's'.repeat(121)).map(invalid),
  ),
  limit: fc.oneof(
    fc.integer({ min: 1, max: 100 }).map((n) => valid(String(n), n)),
    fc.constantFrom('0', '101', '1.5', '', 'ten').map(invalid),
  ),
};
type Key = keyof typeof param;
const KEYS = Object.keys(param) as Key[];

const searchCase = fc.record({
  params: fc.record(param, { requiredKeys: [] }),
  repeated: fc.option(fc.constantFrom(...KEYS), { nil: undefined }),
  unknown: fc.option(fc.tuple(fc.constantFrom('q', 'page', 'order', 'rating[]', '__proto__', 'constructor'), fc.string({ maxLength: 8 })), {
    nil: undefined,
  }),
  plusForSpace: fc.boolean(),
});

const fold = (s: string) => foldText(s);
function resolver(items: readonly { id: string; name: string; aliases?: string[] }[]) {
  return (value: string) => items.find((t) => [t.id, t.name, ...(t.aliases ?? [])].some((n) => fold(n) === fold(value)))?.id ?? null;
}

/** The specification of search, on /reviews.json, the slow obvious way. */
function scan(q: Partial<Record<Key, string | number>>): Review[] {
  const tech = q.mentions_technician === undefined ? undefined : resolver(business.technicians)(String(q.mentions_technician));
  const svc = q.mentions_service === undefined ? undefined : resolver(business.services)(String(q.mentions_service));
  const text = q.query ? fold(String(q.query)) : '';
  return all.filter(
    (r) =>
      (q.rating === undefined || r.rating === q.rating) &&
      (q.min_rating === undefined || r.rating >= Number(q.min_rating)) &&
      (q.since === undefined || r.date >= String(q.since)) &&
      (q.until === undefined || r.date <= String(q.until)) &&
      (!text || fold(r.text ?? '').includes(text)) &&
      (tech === undefined || (tech !== null && r.technicians.includes(tech))) &&
      (svc === undefined || (svc !== null && r.services.includes(svc))),
  );
}

const encode = (s: string, plus: boolean) => (plus ? encodeURIComponent(s).replace(/%20/g, '+') : encodeURIComponent(s));

describe('REST fuzz', () => {
  test('search: every combination of valid and invalid parameters; 200s equal a plain scan of /reviews.json, 400s name every bad parameter', async () => {
    await fc.assert(
      fc.asyncProperty(searchCase, async ({ params, repeated, unknown, plusForSpace }) => {
        const pairs: [string, string][] = Object.entries(params).map(([k, p]) => [k, p!.raw]);
        if (repeated && params[repeated]) pairs.push([repeated, params[repeated]!.raw]);
        if (unknown) pairs.push(unknown);
        const qs = pairs.map(([k, v]) => `${encode(k, plusForSpace)}=${encode(v, plusForSpace)}`).join('&');
        const res = await call(`/api/reviews/search?${qs}`);
        assertContract(res, qs);
        const bad = new Set<string>(
          Object.entries(params)
            .filter(([, p]) => p!.invalid)
            .map(([k]) => k),
        );
        if (repeated && params[repeated]) bad.add(repeated);
        const q: Partial<Record<Key, string | number>> = {};
        for (const [k, p] of Object.entries(params) as [Key, Param][]) if (!p.invalid && p.value !== '') q[k] = p.value;
        if (typeof q.since === 'string' && typeof q.until === 'string' && q.since > q.until && !bad.has('since') && !bad.has('until'))
          bad.add('since');
        if (bad.size > 0) {
          assert.equal(res.status, 400, `${qs}: expected 400 for ${[...bad]}`);
          const named = new Set(JSON.parse(res.text).issues.map((i: { path: string[] }) => String(i.path[0])));
          assert.deepEqual([...named].sort(), [...bad].sort(), qs);
          return;
        }
        assert.equal(res.status, 200, `${qs}: ${res.text.slice(0, 200)}`);
        const got = JSON.parse(res.text);
        const expected = scan(q);
        const limit = (q.limit as number | undefined) ?? 20;
        assert.equal(got.matched, expected.length, qs);
        assert.equal(got.returned, Math.min(limit, expected.length), qs);
        assert.deepEqual(got.reviews, expected.slice(0, limit), qs);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  test('search: raw query strings (broken percent-encoding, odd separators, arrays, huge values) never 5xx', async () => {
    const junk = fc.array(
      fc.oneof(
        fc.constantFrom(
          '%',
          '%Z',
          '%ZZ',
          '%E0%A4%A',
          '%C0%AF',
          '%00',
          '&',
          '=',
          '==',
          '[]',
          '[0]',
          '.',
          '+',
          ';',
          '#',
          'rating',
          'query',
          'limit',
          'since',
          '__proto__',
        ),
        fc.string({ maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 4 }).map(encodeURIComponent),
      ),
      { maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(junk, async (parts) => {
        const qs = parts.join('');
        assertContract(await call(`/api/reviews/search?${qs}`), qs);
      }),
      { seed: SEED, numRuns: 300 },
    );
    assertContract(await call(`/api/reviews/search?query=${'x'.repeat(6000)}`), 'a 6 KB value');
  });

  test('since: any date segment; 200s equal a plain scan, everything else is a 400/404/414 with the error body', async () => {
    const segment = fc.oneof(
      dates(),
      fc.constantFrom(
        '2025-02-29',
        '2024-02-29',
        '0000-01-01',
        '9999-12-31',
        '2025-1-1',
        '2025-01-01T00:00:00Z',
        '%ZZ',
        '%2F',
        '..',
        '.',
        '%00',
        ' ',
        'null',
        '-1',
      ),
      fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom('GET', 'HEAD'), async (date, method) => {
        const path = `/api/reviews/since/${date}`;
        const res = await call(path, { method });
        assertContract(res, path, method);
        if (res.status !== 200 || method === 'HEAD') return;
        const body = JSON.parse(res.text);
        const expected = all.filter((r) => r.date >= body.since);
        assert.equal(body.count, expected.length, path);
        assert.deepEqual(body.reviews, expected, path);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test('paths and methods: nothing published answers 404/405 with the error body, never 5xx', async () => {
    const prefixes = [
      '/',
      '/reviews.json',
      '/insights.json',
      '/api/feed.json',
      '/feed.xml',
      '/api/reviews/search',
      '/api/reviews/since/',
      '/api/',
      '/openapi.json',
      '/llms.txt',
      '/robots.txt',
      '/healthz',
      '/readyz',
      '/metrics',
      '/developers',
      '/sitemap.xml',
      '/sitemaps/',
      '/reviews/',
      '/assets/',
      '/api/websub/',
    ];
    const tail = fc.array(
      fc.oneof(
        fc.constantFrom('/', '//', '..', '%2e%2e', '%2F', '%00', '%ZZ', '%', '?', '#', ';', 'x', '1.xml', all[0].id, 'site.css'),
        fc.string({ unit: 'grapheme', maxLength: 5 }).map(encodeURIComponent),
      ),
      { maxLength: 5 },
    );
    const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...prefixes), tail, method, async (prefix, parts, m) => {
        const path = `${prefix}${parts.join('')}`;
        const res = await call(path.startsWith('/') ? path : `/${path}`, {
          method: m,
          ...(m === 'POST' || m === 'PUT' || m === 'PATCH'
            ? { body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
            : {}),
        });
        const pathname = new URL(path, 'http://x').pathname;
        // Two surfaces answer in their own documented shape: the hub (plain text) and the pages (HTML for people).
        if (pathname === '/api/websub/hub' && m === 'POST') return void assert.ok(res.status < 500, path);
        if (res.type.startsWith('text/html')) {
          assert.ok(res.status < 500, path);
          assert.ok(
            res.status < 400 || pathname === '/' || pathname.startsWith('/reviews/'),
            `${m} ${path}: an HTML ${res.status} off the pages`,
          );
          return;
        }
        assertContract(res, `${m} ${path}`, m);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  test('conditional and negotiation headers: any value; 304 only for a current validator', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '9999',
        '*',
        'W/"x"',
        '"',
        ',,,',
        lastModified,
        'Thu, 01 Jan 1970 00:00:00 GMT',
        'Fri, 31 Dec 9999 23:59:59 GMT',
        'br;q=2',
        'gzip;q=-1',
        'identity;q=0',
        '*;q=0',
      ),
    );
    const paths = [
      '/reviews.json',
      '/api/feed.json',
      '/feed.xml',
      '/insights.json',
      `/api/reviews/since/${all[10].date}`,
      '/api/reviews/search?query=leak',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('if-modified-since', 'if-none-match', 'accept-encoding', 'accept'),
        header,
        async (path, name, value) => {
          let res: Answer;
          try {
            res = await call(path, { headers: { [name]: value } });
          } catch {
            return; // fetch itself refuses some header values; nothing was sent
          }
          assertContract(res, `${path} ${name}: ${value}`);
          if (res.status === 304) {
            if (name === 'if-modified-since')
              assert.ok(value === lastModified || value.startsWith('Fri, 31 Dec 9999'), `304 for If-Modified-Since: ${value}`);
            else assert.equal(name, 'if-none-match', `304 without a validator (${name}: ${value})`);
          }
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});

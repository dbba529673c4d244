import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { RunningServer } from '../../src/app/index.js';
import type { AggregateRating, Review } from '../../src/domain/index.js';
import { mcpToolDefinitions } from '../../src/mcp/index.js';
import { renderSitemap, renderSitemapPart } from '../../src/pages/index.js';
import { startTestServer } from '../helpers/index.js';

// Pages are not part of the REST surface's OpenAPI document, so these tests use plain fetch rather
// than the validating client in test/helpers/http.ts.

let server: RunningServer;
let reviews: Review[];
let aggregate: AggregateRating;
const byId = new Map<string, Review>();

after(() => server?.close());
before(async () => {
  server = await startTestServer();
  const doc = await (await fetch(`${server.url}/reviews.json`)).json();
  reviews = doc.reviews;
  aggregate = doc.aggregate_rating;
  for (const r of reviews) byId.set(r.id, r);
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
const page = async (path: string, headers: Record<string, string> = {}) => {
  const res = await get(path, { accept: 'text/html', ...headers });
  return { res, text: await res.text() };
};

/** Ids of the review cards in the list (not the card template enhance.js clones). */
function listedIds(text: string): string[] {
  const list = /<ol class="review-list" id="review-list">([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '';
  return [...list.matchAll(/data-review-id="([0-9A-Z]{26})"/g)].map((m) => m[1]);
}

function jsonLd(text: string): any {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(text);
  assert.ok(m, 'the page has JSON-LD');
  return JSON.parse(m[1]);
}

/** The "Older" link's path, or null on the last page. */
function olderHref(text: string): string | null {
  const a = /<a [^>]*rel="next"[^>]*>/.exec(text)?.[0];
  if (!a || / hidden/.test(a)) return null;
  return /href="([^"]*)"/
    .exec(a)![1]
    .replace(/&amp;/g, '&')
    .replace(/#reviews$/, '');
}

const searchIds = async (qs: string) => (await (await get(`/api/reviews/search?${qs}`)).json()).reviews.map((r: Review) => r.id);

describe('the review page', () => {
  test('renders the business, its rating, insights and the 20 newest reviews, cached per revision', async () => {
    const { res, text } = await page('/');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html; charset=utf-8/);
    assert.match(text, /<h1 id="business-name">Brightwater Plumbing &amp; Heating<\/h1>/);
    for (const part of [
      '+1-503-555-0142',
      'Lake Oswego',
      'Sentiment by topic',
      'Mike Delgado',
      'Frequently asked questions',
      'Response from the owner',
    ]) {
      assert.ok(text.includes(part), `shows ${part}`);
    }
    assert.deepEqual(
      listedIds(text),
      reviews.slice(0, 20).map((r) => r.id),
    );
    assert.match(res.headers.get('content-security-policy')!, /script-src 'self'/);

    const etag = res.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await get('/', { accept: 'text/html', 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal((await get('/', { 'if-modified-since': res.headers.get('last-modified')! })).status, 304);
  });

  test('links both feeds, Open Graph and a canonical URL', async () => {
    const { text } = await page('/');
    const base = server.config.publicBaseUrl!;
    assert.ok(
      text.includes(
        `<link rel="alternate" type="application/atom+xml" title="Brightwater Plumbing &amp; Heating reviews (Atom)" href="${base}/feed.xml">`,
      ),
    );
    assert.ok(
      text.includes(
        `<link rel="alternate" type="application/feed+json" title="Brightwater Plumbing &amp; Heating reviews (JSON Feed)" href="${base}/api/feed.json">`,
      ),
    );
    assert.ok(text.includes(`<meta property="og:url" content="${base}/">`));
    assert.ok(text.includes(`<link rel="canonical" href="${base}/">`));
    assert.match(text, /<meta property="og:title" content="Brightwater Plumbing &amp; Heating reviews — Portland, OR">/);
  });

  test('JSON-LD parses: a Plumber whose AggregateRating equals /reviews.json, with the visible reviews', async () => {
    const { text } = await page('/');
    const ld = jsonLd(text);
    assert.equal(ld['@context'], 'https://schema.org');
    assert.equal(ld['@type'], 'Plumber');
    assert.equal(ld.name, 'Brightwater Plumbing & Heating');
    assert.deepEqual(ld.aggregateRating, {
      '@type': 'AggregateRating',
      ratingValue: aggregate.rating_value,
      reviewCount: aggregate.review_count,
      ratingCount: aggregate.rating_count,
      bestRating: 5,
      worstRating: 1,
    });
    assert.equal(ld.review.length, 20);
    assert.deepEqual(ld.review[0].reviewRating, { '@type': 'Rating', ratingValue: reviews[0].rating, bestRating: 5, worstRating: 1 });
    assert.equal(ld.review[0].url, reviews[0].url);
    assert.equal(ld.address.addressLocality, 'Portland');
    assert.equal(ld.areaServed.length, 10);
  });

  test('the plain GET form works without JavaScript: /?rating=5 lists only 5-star reviews', async () => {
    const { res, text } = await page('/?rating=5');
    assert.equal(res.status, 200);
    const ids = listedIds(text);
    assert.equal(ids.length, 20);
    assert.ok(ids.every((id) => byId.get(id)!.rating === 5));
    assert.deepEqual(ids, await searchIds('rating=5'));
    assert.ok(text.includes(`of ${aggregate.distribution['5'].toLocaleString('en-US')} reviews`));
    assert.match(text, /<option value="5" selected>5 stars<\/option>/);
    assert.match(text, /<meta name="robots" content="noindex, follow">/);
    // What a browser submits: every field, the empty ones as `name=`.
    const submitted = await page('/?query=&rating=5&min_rating=&mentions_technician=&mentions_service=&since=&until=');
    assert.deepEqual(listedIds(submitted.text), ids);
  });

  test('every filter gives the same reviews as /api/reviews/search, and pages continue the list', async () => {
    const qs = 'min_rating=4&mentions_technician=Mike&since=2023-01-01&until=2026-06-30&query=the';
    const first = await page(`/?${qs}`);
    assert.deepEqual(listedIds(first.text), await searchIds(qs));
    // An alias in the URL selects that technician in the form.
    assert.match(first.text, /<option value="mike-delgado" selected>Mike Delgado<\/option>/);
    const next = olderHref(first.text);
    assert.ok(next, 'more than one page matches');
    const second = await page(next);
    assert.deepEqual(listedIds(second.text), (await searchIds(`${qs}&limit=40`)).slice(20));
    assert.match(second.text, /rel="first"[^>]*href="\/\?[^"]*mentions_technician=Mike[^"]*#reviews"/);
  });

  test('following "Older" from the first page lists every matching review exactly once, one search page per request', async () => {
    for (const qs of ['', 'min_rating=4&limit=7', 'rating=1&sort=oldest']) {
      const all = reviews.length;
      const filters = new URLSearchParams(qs);
      const size = Number(filters.get('limit') ?? 20);
      filters.delete('limit');
      const expected = (await (await get(`/api/reviews/search?${filters}`)).json()).matched as number;
      const seen: string[] = [];
      let path: string | null = `/?${qs}`;
      let pages = 0;
      while (path) {
        const { res, text } = await page(path);
        assert.equal(res.status, 200, path);
        const ids = listedIds(text);
        // One page per request: never more than the page size, never a slice of an oversized search.
        assert.ok(ids.length > 0 && ids.length <= size, path);
        seen.push(...ids);
        pages += 1;
        if (pages > 1) assert.match(text, new RegExp(`Page ${pages} of`));
        path = olderHref(text);
      }
      assert.equal(seen.length, expected, qs);
      assert.equal(new Set(seen).size, seen.length, `no repeats for "${qs}"`);
      assert.ok(expected > 0 && expected <= all);
    }
  });

  test('an old numbered link (?page=N, no cursor) redirects to the first page of its filters', async () => {
    const old = await page('/?rating=5&page=3');
    assert.equal(old.res.status, 302);
    assert.equal(old.res.headers.get('location'), '/?rating=5');
    assert.equal((await page('/?page=2')).res.headers.get('location'), '/');
  });

  test("a malformed or foreign cursor gives the page's own 400 with the API's issue", async () => {
    const first = await page('/?rating=5');
    const cursor = new URL(olderHref(first.text)!, server.url).searchParams.get('cursor')!;
    for (const bad of ['not-a-cursor!', `${cursor}&rating=4`]) {
      const { res, text } = await page(`/?cursor=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.match(text, /cursor: /);
      assert.deepEqual(listedIds(text), []);
    }
  });

  test('invalid filters answer 400 with the same issues as the API, beside the form', async () => {
    const { res, text } = await page('/?rating=7&since=2025-02-30');
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const api = await (await get('/api/reviews/search?rating=7&since=2025-02-30')).json();
    for (const issue of api.issues)
      assert.ok(
        text.includes(issue.message.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')),
        issue.message,
      );
    assert.deepEqual(listedIds(text), []);
    assert.equal((await page('/?page=0')).res.status, 400);
  });
});

describe('review permalinks', () => {
  test('/reviews/{id} shows the review, its owner reply and JSON-LD about the business', async () => {
    const r = reviews.find((x) => x.owner_reply && x.text && x.technicians.length)!;
    const { res, text } = await page(`/reviews/${r.id}`);
    assert.equal(res.status, 200);
    assert.ok(text.includes(`<link rel="canonical" href="${r.url}">`));
    assert.ok(text.includes('<meta property="og:type" content="article">'));
    assert.deepEqual(listedIds(text), []);
    const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    assert.ok(text.includes(escapeHtml(r.text!)));
    assert.ok(text.includes(escapeHtml(r.owner_reply!.text)));
    const ld = jsonLd(text);
    assert.equal(ld['@type'], 'Review');
    assert.equal(ld.reviewRating.ratingValue, r.rating);
    assert.equal(ld.author.name, r.author);
    assert.equal(ld.itemReviewed['@type'], 'Plumber');
    assert.equal(ld.itemReviewed.aggregateRating.ratingValue, aggregate.rating_value);
    assert.equal(ld.itemReviewed.aggregateRating.ratingCount, aggregate.rating_count);
    assert.equal((await get(`/reviews/${r.id}`, { 'if-none-match': res.headers.get('etag')! })).status, 304);
  });

  test('an unknown id is an HTML page for browsers and the JSON error body for API clients', async () => {
    const html = await page('/reviews/01ZZZZZZZZZZZZZZZZZZZZZZZZ', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    assert.equal(html.res.status, 404);
    assert.match(html.res.headers.get('content-type')!, /^text\/html/);
    assert.match(html.res.headers.get('vary')!, /Accept/);
    assert.match(html.text, /<h1>We can’t find that review<\/h1>/);
    for (const accept of ['application/json', '*/*', '']) {
      const res = await get('/reviews/01ZZZZZZZZZZZZZZZZZZZZZZZZ', accept ? { accept } : {});
      assert.equal(res.status, 404);
      const body = await res.json();
      assert.equal(body.error, 'not_found');
      assert.equal(typeof body.message, 'string');
    }
  });
});

describe('/developers', () => {
  test('documents every REST path from /openapi.json, MCP, WebSub, caching, limits and the data model', async () => {
    const { res, text } = await page('/developers');
    assert.equal(res.status, 200);
    const openapi = await (await get('/openapi.json')).json();
    for (const path of Object.keys(openapi.paths)) assert.ok(text.includes(`<code>${path}</code>`), `documents ${path}`);
    const base = server.config.publicBaseUrl!;
    assert.ok(text.includes(`&quot;url&quot;: &quot;${base}/mcp&quot;`), 'MCP client configuration');
    assert.ok(text.includes(`curl -i ${base}/api/websub/hub`), 'subscribe example');
    assert.ok(text.includes('X-Hub-Signature: sha256=') && text.includes('timingSafeEqual'), 'signature verification');
    assert.ok(
      text.includes(
        `If-None-Match: ${(await get('/reviews.json')).headers
          .get('etag')!
          .replace(/-(br|gz)"$/, '"')
          .replace(/"/g, '&quot;')}`,
      ),
      'a live conditional GET example',
    );
    for (const model of ['Review', 'Business', 'AggregateRating', 'Insights']) assert.ok(text.includes(`id="model-${model}"`), model);
    assert.ok(text.includes('<code>owner_reply.date</code>'), 'nested fields are listed');
    assert.ok(text.includes('Search returns at most 100 reviews per request (default 20)'));
  });

  test('lists the live MCP tools with their arguments (a $ref-wrapped input schema included)', async () => {
    const { text } = await page('/developers');
    const tools = mcpToolDefinitions();
    assert.ok(tools.length > 0);
    for (const t of tools) assert.ok(text.includes(`id="tool-${t.name}"`), t.name);
    const search = text.slice(text.indexOf('id="tool-search_reviews"'));
    for (const arg of ['rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit']) {
      assert.ok(search.slice(0, search.indexOf('</article>')).includes(`<code>${arg}</code>`), `search_reviews argument ${arg}`);
    }
  });
});

describe('sitemap and assets', () => {
  test('/sitemap.xml lists the page, the docs and every permalink', async () => {
    const res = await get('/sitemap.xml');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/xml/);
    const xml = await res.text();
    assert.equal(XMLValidator.validate(xml), true);
    const urls = new XMLParser().parse(xml).urlset.url as { loc: string; lastmod: string }[];
    assert.equal(urls.length, reviews.length + 2);
    assert.equal(urls[0].loc, `${server.config.publicBaseUrl}/`);
    assert.deepEqual(new Set(urls.slice(2).map((u) => u.loc)), new Set(reviews.map((r) => r.url)));
    assert.ok(urls.every((u) => /^\d{4}-\d{2}-\d{2}$/.test(u.lastmod)));
    assert.equal((await get('/sitemaps/1.xml')).status, 404);
  });

  test('a site beyond the per-file cap gets a sitemap index whose parts hold every URL once', () => {
    const c = server.catalog.get();
    const index = new XMLParser().parse(renderSitemap(c, 500)).sitemapindex.sitemap as { loc: string }[];
    assert.equal(index.length, Math.ceil((reviews.length + 2) / 500));
    assert.equal(index[0].loc, `${server.config.publicBaseUrl}/sitemaps/1.xml`);
    const locs = index.flatMap((_, i) =>
      new XMLParser().parse(renderSitemapPart(c, i + 1, 500)!).urlset.url.map((u: { loc: string }) => u.loc),
    );
    assert.equal(new Set(locs).size, reviews.length + 2);
    assert.equal(renderSitemapPart(c, index.length + 1, 500), null);
  });

  test('the stylesheet and script are served under content-hashed names, cached for a year', async () => {
    const { text } = await page('/');
    const css = /<link rel="stylesheet" href="(\/assets\/site\.[0-9a-f]{10}\.css)">/.exec(text)?.[1];
    const js = /<script type="module" src="(\/assets\/enhance\.[0-9a-f]{10}\.js)"><\/script>/.exec(text)?.[1];
    assert.ok(css && js);
    for (const [path, type] of [
      [css, 'text/css'],
      [js, 'text/javascript'],
    ]) {
      const res = await get(path, { 'accept-encoding': 'br' });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, new RegExp(`^${type}`));
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(res.headers.get('content-encoding'), 'br');
    }
    assert.equal((await get('/assets/site.0000000000.css')).status, 404);
  });
});

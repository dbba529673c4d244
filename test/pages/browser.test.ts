import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import type { RunningServer } from '../../src/app/index.js';
import type { AggregateRating, Review } from '../../src/domain/index.js';
import { startTestServer } from '../helpers/index.js';

// The pages in a real browser: Debian's chromium driven by playwright-core, with flags that need no
// network. Screenshots land in test-results/ (git-ignored; CI keeps them as artifacts).

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const RESULTS = resolve('test-results');

let server: RunningServer;
let browser: Browser;
let reviews: Review[];
let aggregate: AggregateRating;

after(async () => {
  await browser?.close();
  await server?.close();
});
before(async () => {
  server = await startTestServer();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const doc = await (await fetch(`${server.url}/reviews.json`)).json();
  reviews = doc.reviews;
  aggregate = doc.aggregate_rating;
  mkdirSync(RESULTS, { recursive: true });
});

/** A page that records console errors, uncaught exceptions and every request that leaves 127.0.0.1. */
async function open(options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.hostname !== '127.0.0.1') problems.push(`off-host request: ${r.url()}`);
  });
  return {
    page,
    problems,
    close: () => context.close(),
  };
}

const listedIds = (page: Page) =>
  page.$$eval('#review-list [data-review-id]', (els) => els.map((e) => (e as HTMLElement).dataset.reviewId!));
const listedRatings = (page: Page) =>
  page.$$eval('#review-list .review-meta .stars', (els) => els.map((e) => e.getAttribute('aria-label')));
const apiIds = async (qs: string) =>
  (await (await fetch(`${server.url}/api/reviews/search?${qs}`)).json()).reviews.map((r: Review) => r.id);

/** Runs `action` and waits until the enhanced list has rendered the search it triggered. */
async function afterSearch(page: Page, action: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => r.url().includes('/api/reviews/search'));
  await action();
  await response;
  await page.waitForFunction(() => !document.getElementById('review-list')!.hasAttribute('aria-busy'));
}

async function axeViolations(page: Page) {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: any[] }> } }).axe.run(
      document,
      { resultTypes: ['violations'] },
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} — ${v.nodes
            .slice(0, 3)
            .map((n: { target: string[] }) => n.target.join(' '))
            .join(' | ')}`,
      );
  });
}

describe('the review page in a browser', () => {
  test('renders the demo business with no console errors and no request leaving 127.0.0.1', async () => {
    const { page, problems, close } = await open();
    const res = await page.goto(`${server.url}/`);
    assert.equal(res!.status(), 200);
    assert.equal(await page.textContent('h1'), 'Brightwater Plumbing & Heating');
    assert.equal(await page.textContent('.score-value'), aggregate.rating_value.toFixed(1));
    assert.deepEqual(
      await listedIds(page),
      reviews.slice(0, 20).map((r) => r.id),
    );
    assert.ok((await page.locator('.aspect').count()) > 0);
    assert.ok((await page.locator('.team tbody tr').count()) > 0);
    assert.ok((await page.locator('.owner-reply').count()) > 0);
    assert.deepEqual(problems, []);
    await close();
  });

  test('filters change the list and the URL through /api/reviews/search; the URL restores them', async () => {
    const { page, problems, close } = await open();
    await page.goto(`${server.url}/`);

    await afterSearch(page, () => page.selectOption('#f-rating', '5'));
    assert.equal(new URL(page.url()).search, '?rating=5');
    assert.ok((await listedRatings(page)).every((l) => l === 'Rated 5 out of 5'));
    assert.match(
      (await page.textContent('#result-count'))!,
      new RegExp(`of ${aggregate.distribution['5'].toLocaleString('en-US')} reviews`),
    );
    assert.equal(await page.getAttribute('.dist-row[data-rating="5"]', 'aria-current'), 'true');

    await afterSearch(page, () => page.fill('#f-query', 'water heater'));
    assert.equal(new URL(page.url()).search, '?query=water+heater&rating=5');
    assert.deepEqual(await listedIds(page), await apiIds('rating=5&query=water+heater'));

    await afterSearch(page, () => page.selectOption('#f-tech', 'priya-natarajan'));
    const qs = 'query=water+heater&rating=5&mentions_technician=priya-natarajan';
    assert.equal(new URL(page.url()).search, `?${qs}`);
    const ids = await listedIds(page);
    assert.deepEqual(ids, await apiIds(qs));
    assert.ok(ids.length > 0);

    // The state lives in the URL: a reload renders the same list on the server.
    await page.reload();
    assert.deepEqual(await listedIds(page), ids);
    assert.equal(await page.inputValue('#f-query'), 'water heater');

    // A rating row of the distribution is a filter link; enhanced, it applies in place.
    await afterSearch(page, () => page.click('.dist-row[data-rating="1"]'));
    assert.equal(new URL(page.url()).search, '?rating=1');
    assert.ok((await listedRatings(page)).every((l) => l === 'Rated 1 out of 5'));
    assert.equal(await page.inputValue('#f-query'), '');
    assert.match((await page.getAttribute('.pager [rel="next"]', 'href'))!, /^\/\?rating=1&cursor=[\w-]+&page=2#reviews$/);

    // "Older" loads the next page in place from next_cursor: no repeats, the API's order, a URL that reloads it.
    const firstPage = await listedIds(page);
    const all = await apiIds('rating=1&limit=100');
    await afterSearch(page, () => page.click('.pager [rel="next"]'));
    const secondPage = await listedIds(page);
    assert.ok(secondPage.length > 0);
    assert.equal(secondPage.filter((id) => firstPage.includes(id)).length, 0);
    assert.deepEqual([...firstPage, ...secondPage], all.slice(0, firstPage.length + secondPage.length));
    assert.match(new URL(page.url()).search, /^\?rating=1&cursor=[\w-]+&page=2$/);
    assert.match((await page.textContent('.pager-info'))!, /^Page 2 of /);
    assert.equal(await page.isVisible('.pager [rel="first"]'), true);
    await page.reload();
    assert.deepEqual(await listedIds(page), secondPage);
    await afterSearch(page, () => page.click('.pager [rel="first"]'));
    assert.equal(new URL(page.url()).search, '?rating=1');
    assert.deepEqual(await listedIds(page), firstPage);

    // A parameter the form has no field for (sort) stays with the pages: their cursors are bound to it.
    await page.goto(`${server.url}/?rating=1&sort=oldest#reviews`);
    const oldest = await apiIds('rating=1&sort=oldest&limit=40');
    await afterSearch(page, () => page.click('.pager [rel="next"]'));
    assert.deepEqual(await listedIds(page), oldest.slice(20, 40));
    await afterSearch(page, () => page.click('.pager [rel="first"]'));
    assert.equal(new URL(page.url()).search, '?rating=1&sort=oldest');
    assert.deepEqual(await listedIds(page), oldest.slice(0, 20));

    await afterSearch(page, () => page.click('[data-clear]'));
    assert.equal(new URL(page.url()).search, '');
    assert.deepEqual(
      await listedIds(page),
      reviews.slice(0, 20).map((r) => r.id),
    );
    assert.deepEqual(problems, []);
    await close();
  });

  test('a permalink opens from the list', async () => {
    const { page, problems, close } = await open();
    await page.goto(`${server.url}/`);
    const first = reviews[0];
    await Promise.all([page.waitForURL(`**/reviews/${first.id}`), page.click(`[data-review-id="${first.id}"] [data-slot="permalink"]`)]);
    assert.equal(await page.textContent('h1'), 'Review of Brightwater Plumbing & Heating');
    assert.equal(await page.textContent('.review-author'), first.author);
    assert.deepEqual(problems, []);
    await close();
  });

  test('works by keyboard: skip link, then a rating row applies its filter', async () => {
    const { page, problems, close } = await open();
    await page.goto(`${server.url}/`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.focus('.dist-row[data-rating="4"]');
    await afterSearch(page, () => page.keyboard.press('Enter'));
    assert.equal(new URL(page.url()).search, '?rating=4');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'reviews-heading');
    assert.deepEqual(problems, []);
    await close();
  });

  test('works without JavaScript: the filter form is a plain GET', async () => {
    const { page, problems, close } = await open({ javaScriptEnabled: false });
    await page.goto(`${server.url}/`);
    await page.selectOption('#f-rating', '4');
    await Promise.all([page.waitForURL(/rating=4/), page.click('button[type="submit"]')]);
    const ratings = await listedRatings(page);
    assert.equal(ratings.length, 20);
    assert.ok(ratings.every((l) => l === 'Rated 4 out of 5'));
    assert.deepEqual(await listedIds(page), await apiIds('rating=4'));
    assert.deepEqual(problems, []);
    await close();
  });

  test('axe-core finds no serious or critical violations', async () => {
    // axe is injected as an inline script, which the pages' CSP would rightly refuse.
    const withReply = reviews.find((r) => r.owner_reply && r.technicians.length)!;
    const pages = [
      ['/', 1280],
      ['/', 390],
      ['/?rating=9', 1280],
      [`/reviews/${withReply.id}`, 1280],
      ['/developers', 1280],
      ['/developers', 390],
      ['/reviews/01ZZZZZZZZZZZZZZZZZZZZZZZZ', 1280],
    ] as const;
    for (const [path, width] of pages) {
      const { page, close } = await open({ bypassCSP: true, viewport: { width, height: 900 } });
      await page.goto(`${server.url}${path}`);
      assert.deepEqual(await axeViolations(page), [], `${path} at ${width}px`);
      await close();
    }
  });

  test('screenshots of / at desktop and phone widths', async () => {
    for (const [name, width, height] of [
      ['home-desktop', 1280, 900],
      ['home-phone', 390, 844],
    ] as const) {
      const { page, problems, close } = await open({ viewport: { width, height }, deviceScaleFactor: 1 });
      await page.goto(`${server.url}/`);
      const file = resolve(RESULTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      assert.ok(statSync(file).size > 10_000);
      // Nothing may be wider than the viewport (no sideways scrolling on a phone).
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width);
      assert.deepEqual(problems, []);
      await close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { makePki } from '../helpers/index.js';
import { FakeGoogle } from './fakes.js';
import { addSource, reviewsOf, revisionCount, sqliteUrl, syncOnce, testDeps } from './setup.js';

describe('Google Business Profile connector against a local fake of the API', () => {
  const pki = makePki();
  const google = new FakeGoogle(pki);
  let store: Store;
  let t: ReturnType<typeof testDeps>;
  const env = () => ({ GOOGLE_CLIENT_SECRET: google.clientSecret, GOOGLE_REFRESH_TOKEN: google.refreshToken });
  const reviewRequests = () => google.requests.filter((r) => r.path.endsWith('/reviews'));

  before(async () => {
    await google.start();
    store = await Store.open(sqliteUrl());
    t = testDeps(store, pki, env());
    await addSource(store, google.settings({ client_secret: 'GOOGLE_CLIENT_SECRET', refresh_token: 'GOOGLE_REFRESH_TOKEN' }));
    google.seed(120);
  });
  after(async () => {
    await store.close();
    await google.stop();
  });

  test('first sync reads every page (pageSize 50, pageToken) and imports all reviews in one revision', async () => {
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.full, true);
    assert.equal(r.pages, 3);
    assert.equal(r.added, 120);
    assert.equal(await revisionCount(store), 1);
    const rows = await reviewsOf(store, 'google');
    assert.equal(rows.filter((x) => x.published === 1).length, 120);
    const g7 = rows.find((x) => x.source_review_id === 'g-7')!;
    assert.equal(g7.rating, 3, 'starRating THREE');
    const pages = reviewRequests();
    assert.deepEqual(
      pages.map((p) => p.query.get('pageSize')),
      ['50', '50', '50'],
    );
    assert.equal(pages[0].query.get('orderBy'), 'updateTime desc');
    assert.equal(pages[0].query.get('pageToken'), null);
    assert.ok(pages[1].query.get('pageToken'));
    // One refresh-token exchange, then the access token on every page.
    const tokenCalls = google.requests.filter((x) => x.path === '/token');
    assert.equal(tokenCalls.length, 1);
    assert.equal(new URLSearchParams(tokenCalls[0].body).get('grant_type'), 'refresh_token');
    for (const p of pages) assert.equal(p.headers.authorization, `Bearer ${google.tokensIssued[0]}`);
    assert.ok((await store.sources.get('google'))!.checkpoint);
  });

  test('a sync with nothing changed reads one page and makes no revision', async () => {
    const before = reviewRequests().length;
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.full, false);
    assert.equal(r.pages, 1, 'incremental: stops at the checkpoint in updateTime order');
    assert.equal(reviewRequests().length - before, 1);
    assert.equal(r.revision, null);
    assert.equal(await revisionCount(store), 1);
  });

  test('an edit and an owner reply on the platform show up after the next sync', async () => {
    google.edit(
      'g-5',
      { comment: 'Edited: came back the next day to finish the job.', starRating: 'FIVE' },
      '2025-09-01T10:00:00.123456789Z',
    );
    google.edit(
      'g-9',
      { reviewReply: { comment: 'Thank you for the kind words!', updateTime: '2025-09-02T08:00:00Z' } },
      '2025-09-02T08:00:00Z',
    );
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.updated, 2);
    assert.equal(r.added, 0);
    const rows = await reviewsOf(store, 'google');
    const g5 = rows.find((x) => x.source_review_id === 'g-5')!;
    assert.equal(g5.text, 'Edited: came back the next day to finish the job.');
    assert.equal(g5.rating, 5);
    const g9 = rows.find((x) => x.source_review_id === 'g-9')!;
    assert.equal(g9.owner_reply_text, 'Thank you for the kind words!');
    assert.equal(g9.owner_reply_date, '2025-09-02');
    assert.equal(await revisionCount(store), 2);
  });

  test('a review removed on the platform is unpublished at the next full reconciliation, not before', async () => {
    google.reviews.delete('g-10');
    const inc = await syncOnce(t.deps, 'google');
    assert.equal(inc.ok, true, inc.error);
    assert.equal(inc.unpublished, 0);
    const full = await syncOnce(t.deps, 'google', true);
    assert.equal(full.ok, true, full.error);
    assert.equal(full.full, true);
    assert.equal(full.unpublished, 1);
    const rows = await reviewsOf(store, 'google');
    assert.equal(rows.find((x) => x.source_review_id === 'g-10')!.published, 0);
    assert.equal(rows.filter((x) => x.published === 1).length, 119);
  });

  test('an expired access token gets one refresh, then the sync goes on', async () => {
    const issued = google.tokensIssued.length;
    google.expireTokens();
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.equal(google.tokensIssued.length, issued + 1);
  });

  test('a rejected refresh token fails with the fix named, and writes nothing', async () => {
    const good = google.refreshToken;
    google.refreshToken = 'revoked-elsewhere';
    google.expireTokens();
    google.edit('g-11', { comment: 'Changed while the token is revoked.' }, '2025-10-01T00:00:00Z');
    const revs = await revisionCount(store);
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, false);
    assert.match(r.error!, /^google: refresh token rejected .*run `reviewcast sources auth google`/);
    assert.equal(await revisionCount(store), revs);
    const row = (await store.sources.get('google'))!;
    assert.equal(row.last_error, r.error);
    google.refreshToken = good;
    const ok = await syncOnce(t.deps, 'google');
    assert.equal(ok.ok, true, ok.error);
    assert.equal(ok.updated, 1);
  });

  test('429 with Retry-After is honoured, then the page is fetched', async () => {
    google.faults.push({ status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}' });
    t.sleeps.length = 0;
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(t.sleeps, [1000]);
  });

  test('a 500 is retried with backoff, then succeeds; a 500 that persists fails the run with the source named', async () => {
    google.faults.push({ status: 500, body: '{"error":{"code":500,"status":"INTERNAL"}}' });
    t.sleeps.length = 0;
    const r = await syncOnce(t.deps, 'google');
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(t.sleeps, [10]);
    for (let i = 0; i < 4; i++) google.faults.push({ status: 503, body: '{}' });
    t.sleeps.length = 0;
    const bad = await syncOnce(t.deps, 'google');
    assert.equal(bad.ok, false);
    assert.match(bad.error!, /^google: GET \/v4\/accounts\/.*failed after 4 attempts \(last: status 503\)/);
    assert.deepEqual(t.sleeps, [10, 20, 40], 'bounded exponential backoff');
  });

  test('a malformed page rejects the whole run: nothing from its good pages is written', async () => {
    const revs = await revisionCount(store);
    const before = await reviewsOf(store, 'google');
    // Page 1 (newest) carries a real edit; page 2 a review with an unknown star enum.
    google.edit('g-120', { comment: 'An edit that must not be written.' }, '2025-12-01T00:00:00Z');
    const bad = google.reviews.get('g-50')!;
    google.reviews.set('g-50', { ...bad, starRating: 'SIX' as 'FIVE' });
    const r = await syncOnce(t.deps, 'google', true);
    assert.equal(r.ok, false);
    assert.match(r.error!, /^google: review \d+ of page 2: starRating: expected ONE, TWO, THREE, FOUR or FIVE/);
    assert.equal(await revisionCount(store), revs);
    assert.deepEqual(await reviewsOf(store, 'google'), before);
    // A page whose envelope is wrong is rejected the same way.
    google.reviews.set('g-50', bad);
    google.faults.push({ status: 200, body: '{"reviews":"not a list"}' });
    const r2 = await syncOnce(t.deps, 'google');
    assert.equal(r2.ok, false);
    assert.match(r2.error!, /not a ListReviewsResponse/);
    assert.equal(await revisionCount(store), revs);
    const ok = await syncOnce(t.deps, 'google');
    assert.equal(ok.ok, true, ok.error);
    assert.equal(ok.updated, 1);
  });

  test('only the configured API base is requested: a base outside it is refused before any connection', async () => {
    const other = await Store.open(sqliteUrl());
    after(() => other.close());
    const o = testDeps(other, pki, env());
    o.deps.api.allowPrivate = false;
    await addSource(other, google.settings());
    const before = google.requests.length;
    const r = await syncOnce(o.deps, 'google');
    assert.equal(r.ok, false);
    assert.match(r.error!, /refused to call a loopback address/);
    assert.equal(google.requests.length, before);
  });

  test('no secret appears in any captured log line or stored error', async () => {
    const secrets = [google.clientSecret, google.refreshToken, ...google.tokensIssued];
    const text = t.log.lines.join('\n') + JSON.stringify(await store.sources.list());
    assert.ok(t.log.lines.length >= 10);
    for (const s of secrets) assert.equal(text.includes(s), false, 'a secret leaked');
  });
});

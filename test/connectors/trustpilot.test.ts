import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { trustpilotToRecord } from '../../src/connectors/index.js';
import { Store } from '../../src/store/index.js';
import { makePki } from '../helpers/index.js';
import { FakeTrustpilot } from './fakes.js';
import { addSource, reviewsOf, revisionCount, sqliteUrl, syncOnce, testDeps } from './setup.js';

describe('Trustpilot mapping', () => {
  test('a business-unit review maps to an import record; companyReply becomes the owner reply', () => {
    const r = trustpilotToRecord({
      id: 'abc',
      stars: 4,
      title: 'Good',
      text: 'Fine work',
      language: 'en',
      createdAt: '2025-03-01T10:00:00Z',
      updatedAt: null,
      consumer: { displayName: 'Ann' },
      companyReply: { text: 'Thanks', createdAt: '2025-03-02T09:00:00Z' },
    });
    assert.ok('record' in r);
    assert.deepEqual(
      { ...r.record },
      {
        source: 'trustpilot',
        source_review_id: 'abc',
        author: 'Ann',
        rating: 4,
        date: '2025-03-01',
        published_at: '2025-03-01T10:00:00.000Z',
        updated_at: '2025-03-01T10:00:00.000Z',
        title: 'Good',
        text: 'Fine work',
        language: 'en',
        source_url: 'https://www.trustpilot.com/reviews/abc',
        owner_reply: { text: 'Thanks', date: '2025-03-02' },
        verified: true,
        verification: { method: 'platform' },
      },
    );
    assert.deepEqual(trustpilotToRecord({ id: 'x', stars: 7, createdAt: '2025-01-01T00:00:00Z' }), {
      error: 'stars: Too big: expected number to be <=5',
    });
  });
});

describe('Trustpilot connector against a local fake of the API', () => {
  const pki = makePki();
  const tp = new FakeTrustpilot(pki);
  let store: Store;
  let t: ReturnType<typeof testDeps>;
  const pageRequests = () => tp.requests.filter((r) => r.path.endsWith('/reviews'));

  before(async () => {
    await tp.start();
    store = await Store.open(sqliteUrl());
    t = testDeps(store, pki, { TRUSTPILOT_API_KEY: tp.apiKey });
    await addSource(store, tp.settings({ api_key: 'TRUSTPILOT_API_KEY' }));
    tp.seed(230);
  });
  after(async () => {
    await store.close();
    await tp.stop();
  });

  test('first sync reads every page (perPage 100, page 1..3) with the key in the apikey header', async () => {
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.pages, 3);
    assert.equal(r.added, 230);
    const reqs = pageRequests();
    assert.deepEqual(
      reqs.map((q) => [q.query.get('page'), q.query.get('perPage'), q.query.get('orderBy')]),
      [
        ['1', '100', 'createdat.desc'],
        ['2', '100', 'createdat.desc'],
        ['3', '100', 'createdat.desc'],
      ],
    );
    for (const q of reqs) {
      assert.equal(q.headers.apikey, tp.apiKey);
      assert.equal(q.query.get('apikey'), null, 'the key is never put in a URL');
    }
    assert.equal((await reviewsOf(store, 'trustpilot')).filter((x) => x.published === 1).length, 230);
  });

  test('a sync with nothing changed makes no revision', async () => {
    const revs = await revisionCount(store);
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.revision, null);
    assert.equal(await revisionCount(store), revs);
  });

  test('an edit and a company reply on an old review show up after the next sync', async () => {
    const old = tp.reviews.get('tp-3')!;
    tp.reviews.set('tp-3', { ...old, text: 'Edited later: still happy.', stars: 5, updatedAt: '2025-08-01T00:00:00Z' });
    const other = tp.reviews.get('tp-4')!;
    tp.reviews.set('tp-4', { ...other, companyReply: { text: 'We are sorry, we will call you.', createdAt: '2025-08-02T12:00:00Z' } });
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.updated, 2);
    const rows = await reviewsOf(store, 'trustpilot');
    assert.equal(rows.find((x) => x.source_review_id === 'tp-3')!.text, 'Edited later: still happy.');
    assert.equal(rows.find((x) => x.source_review_id === 'tp-4')!.owner_reply_text, 'We are sorry, we will call you.');
  });

  test('a removed review is unpublished at the full reconciliation only', async () => {
    tp.reviews.delete('tp-100');
    assert.equal((await syncOnce(t.deps, 'trustpilot')).unpublished, 0);
    const full = await syncOnce(t.deps, 'trustpilot', true);
    assert.equal(full.ok, true, full.error);
    assert.equal(full.unpublished, 1);
    assert.equal((await reviewsOf(store, 'trustpilot')).find((x) => x.source_review_id === 'tp-100')!.published, 0);
  });

  test('a rejected API key fails with the source and the fix named; nothing written', async () => {
    const good = tp.apiKey;
    tp.apiKey = 'rotated';
    const revs = await revisionCount(store);
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, false);
    assert.match(
      r.error!,
      /^trustpilot: API key rejected \(status 401\): check the API key \(\$TRUSTPILOT_API_KEY\), then run `reviewcast sync trustpilot`/,
    );
    assert.equal(await revisionCount(store), revs);
    tp.apiKey = good;
  });

  test('a missing credential names the variable to set', async () => {
    const o = testDeps(store, pki, {});
    const r = await syncOnce(o.deps, 'trustpilot');
    assert.equal(r.ok, false);
    assert.match(r.error!, /^trustpilot: environment variable TRUSTPILOT_API_KEY is not set/);
  });

  test('429 with Retry-After is honoured; a 500 then success', async () => {
    tp.faults.push({ status: 429, headers: { 'retry-after': '1' }, body: '{"message":"Too Many Requests"}' });
    tp.faults.push({ status: 500, body: '{"message":"Internal"}' });
    t.sleeps.length = 0;
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(t.sleeps, [1000, 20]);
  });

  test('a malformed page rejects the run and writes nothing', async () => {
    const revs = await revisionCount(store);
    const before = await reviewsOf(store, 'trustpilot');
    tp.reviews.set('tp-230', {
      ...tp.reviews.get('tp-230')!,
      text: 'Newest review edited (must not be written).',
      updatedAt: '2025-12-01T00:00:00Z',
    });
    const bad = tp.reviews.get('tp-30')!;
    tp.reviews.set('tp-30', { ...bad, stars: 0 });
    const r = await syncOnce(t.deps, 'trustpilot');
    assert.equal(r.ok, false);
    assert.match(r.error!, /^trustpilot: review 100 of page 2: stars:/);
    assert.equal(await revisionCount(store), revs);
    assert.deepEqual(await reviewsOf(store, 'trustpilot'), before);
    tp.reviews.set('tp-30', bad);
    tp.faults.push({ status: 200, body: '<html>maintenance</html>' });
    const r2 = await syncOnce(t.deps, 'trustpilot');
    assert.match(r2.error!, /^trustpilot: page 1 is not a reviews page/);
    assert.equal(await revisionCount(store), revs);
  });

  test('no secret appears in any captured log line or stored state', async () => {
    const text = t.log.lines.join('\n') + JSON.stringify(await store.sources.list());
    assert.ok(t.log.lines.length >= 8);
    assert.equal(text.includes(tp.apiKey), false);
  });
});

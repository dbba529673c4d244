import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { type ImportRecordInput, type StoredAnalysis, type StoredReview, StoredReviewSchema } from '../../src/domain/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { collect, freshPgDatabase, PG_SKIP, rawDb, sleep, tempDir, waitFor } from '../helpers/index.js';

const rows = (records: ImportRecordInput[]) => records.map((value, index) => ({ index, value }));

/** `store`'s listener for revisions, counting what it hears and keeping its failures; null where it has none. */
function hearing(store: Store) {
  const heard = { count: 0, failures: [] as Error[] };
  const listener = store.listenForRevisions(
    () => heard.count++,
    (err) => heard.failures.push(err),
  );
  return listener && Object.assign(heard, { stop: () => listener.stop() });
}
const NOW = '2026-11-01T10:00:00.000Z';
const LATER = '2026-11-02T10:00:00.000Z';

/** One repository suite, run against each engine. */
function repositorySuite(
  engine: 'sqlite' | 'postgres',
  open: () => Promise<{ store: Store; url: string; cleanup: () => Promise<void> }>,
  skip: string | false = false,
) {
  describe(`store on ${engine}`, { skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let raw: Kysely<any>;
    let url: string;
    const demo = generateDemoReviews({ reviews: 60 });
    /** The demo profile (revision 1) and 60 demo reviews imported at NOW (revision 2). */
    const seed = async () => {
      await store.setBusiness(demoBusiness(), NOW);
      assert.equal((await importRows(store, rows(demo), [], { now: NOW })).added, 60);
    };
    // A fresh database per test: each test seeds what it needs and depends on no other.
    beforeEach(async () => {
      ({ store, url, cleanup } = await open());
      raw = rawDb(url);
    });
    afterEach(async () => {
      await raw?.destroy();
      await store?.close();
      await cleanup?.();
    });

    test('migrations leave an empty store with no revision', async () => {
      assert.equal(store.sharesState, engine === 'postgres', 'only PostgreSQL is shared by processes');
      assert.equal(await store.latestRevision(), null);
      assert.equal(await store.reviewCount(), 0);
    });

    test('announced writes are counted, from none, and read with the newest revision', async () => {
      assert.equal((await store.watched()).notices, 0);
      await store.announceWrite();
      await store.announceWrite();
      assert.equal((await store.watched()).notices, 2);
      assert.equal(await store.latestRevision(), null, 'an announcement is not a revision');
      assert.equal((await store.watched()).latest, null);
      await store.setBusiness(demoBusiness(), NOW);
      assert.deepEqual(await store.watched(), { latest: await store.latestRevision(), notices: 2 }, 'one read of both');
    });

    test('another connection listening hears an announced write and a revision', async () => {
      const other = await Store.open(url);
      const heard = hearing(other);
      try {
        assert.ok(heard, 'a server need not wait for its next poll on either engine');
        // PostgreSQL's listener looks once as it starts listening (what was missed meanwhile): wait for that.
        if (engine === 'postgres') await waitFor(() => heard.count > 0, 'the listener connected');
        const before = heard.count;
        await store.announceWrite();
        await waitFor(() => heard.count > before, 'the announcement heard');
        // SQLite: one write may be heard more than once; the revision is to be heard on its own.
        let announced = heard.count;
        do {
          announced = heard.count;
          await sleep(200);
        } while (heard.count !== announced);
        await store.setBusiness(demoBusiness(), NOW);
        await waitFor(() => heard.count > announced, 'the revision heard');
        assert.deepEqual(heard.failures, []);
      } finally {
        await heard?.stop();
        await other.close();
      }
    });

    test('the business profile round-trips; an unchanged profile makes no revision', async () => {
      const rev = await store.setBusiness(demoBusiness(), NOW);
      assert.equal(rev?.id, 1);
      assert.deepEqual(await store.getBusiness(), demoBusiness());
      assert.equal(await store.setBusiness(demoBusiness(), LATER), null);
      assert.equal((await store.latestRevision())?.id, 1);
    });

    test('an import adds every row in one revision; the same import again changes nothing', async () => {
      await store.setBusiness(demoBusiness(), NOW);
      const first = await importRows(store, rows(demo), [], { now: NOW });
      assert.equal(first.added, 60);
      assert.equal(first.revision?.id, 2);
      const again = await importRows(store, rows(demo), [], { now: LATER });
      assert.deepEqual([again.added, again.updated, again.unchanged, again.revision], [0, 0, 60, null]);
      assert.equal((await store.latestRevision())?.id, 2);
      // Pages of 7: the walk goes on from each page's last id, every row once.
      const { rows: published } = await publishedWalk(store, 7);
      assert.equal(published.length, 60);
      assert.deepEqual(
        published.map((r) => r.id),
        published.map((r) => r.id).sort(),
        'paged by id',
      );
    });

    test('a review written through the store reads back as the record it was, every schema field', async () => {
      await store.setBusiness(demoBusiness(), NOW);
      const input: ImportRecordInput = {
        source: 'google',
        source_review_id: 'codec-1',
        author: 'Round Trip',
        author_avatar_url: 'https://example.com/a.png',
        rating: 4,
        date: '2025-03-04',
        text: 'Came on time.',
        source_url: 'https://example.com/r/1',
        owner_reply: { text: 'Thanks!', date: '2025-03-05' },
        verified: true,
        verification: { method: 'crm_job_match' },
        updated_at: '2025-03-06T00:00:00.000Z',
        title: 'Good',
        language: 'en',
        technicians: [],
        services: [],
        service_area: null,
      };
      await importRows(store, rows([input]), [], { now: NOW });
      const [r] = (await publishedWalk(store)).rows;
      assert.deepEqual(Object.keys(r).sort(), Object.keys(StoredReviewSchema.shape).sort(), 'one field per schema field');
      StoredReviewSchema.parse(r);
      const { version, changed_revision, id, first_seen_at, published_at, ...fields } = r;
      const { updated_at, ...imported } = input;
      assert.deepEqual(fields, { ...imported, published: true, updated_at });
      assert.deepEqual([changed_revision, first_seen_at, published_at], [2, NOW, '2025-03-04T00:00:00.000Z']);
      // Golden value: a stored version that moved would make every re-import rewrite and re-analyse every review.
      assert.equal(version, GOLDEN_VERSION);
      const row = await raw.selectFrom('reviews').select(['verified', 'technicians', 'owner_reply_text']).executeTakeFirstOrThrow();
      assert.deepEqual(row, { verified: 1, technicians: '[]', owner_reply_text: 'Thanks!' }, 'the row encoding stays as it was');
    });

    test('ids are ULIDs derived from the source identity, equal on every engine', async () => {
      await seed();
      const { rows: published } = await publishedWalk(store);
      const google = published.find((r) => r.source_review_id === 'google-000001' || r.source === 'google')!;
      assert.match(google.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
      // Golden value: the same source review must get this id everywhere, forever.
      const fixed = await importRows(
        store,
        rows([{ source: 'google', source_review_id: 'golden-1', author: 'Gold', rating: 5, date: '2025-01-02' }]),
        [],
        { now: NOW },
      );
      assert.equal(fixed.added, 1);
      const row = await raw.selectFrom('reviews').select('id').where('source_review_id', '=', 'golden-1').executeTakeFirstOrThrow();
      assert.equal(row.id, GOLDEN_ID);
    });

    test('a changed text updates updated_at and makes a revision; --sync unpublishes what disappeared', async () => {
      await seed();
      const changed = demo.map((r, i) => (i === 0 ? { ...r, text: 'Completely different words now.' } : r));
      const report = await importRows(store, rows(changed), [], { now: LATER });
      assert.equal(report.updated, 1);
      assert.ok(report.revision);
      const updated = await raw
        .selectFrom('reviews')
        .selectAll()
        .where('text', '=', 'Completely different words now.')
        .executeTakeFirstOrThrow();
      assert.equal(updated.updated_at, LATER);
      assert.equal(updated.first_seen_at, NOW, 'first_seen_at never moves');

      const googleOnly = changed.filter((r) => r.source === 'google').slice(1);
      const googleTotal = changed.filter((r) => r.source === 'google').length;
      const sync = await importRows(store, rows(googleOnly), [], { now: LATER, sync: true });
      assert.equal(sync.unpublished, 1, 'the dropped google review');
      assert.equal(googleTotal - 1, googleOnly.length);
      const count = await raw
        .selectFrom('reviews')
        .select((eb: any) => eb.fn.countAll().as('n'))
        .where('published', '=', 1)
        .executeTakeFirstOrThrow();
      assert.equal(Number((count as { n: number }).n), 60 - 1);
    });

    test('every written row names its revision, so a build reads only what later revisions wrote', async () => {
      await seed();
      const google = demo.filter((r) => r.source === 'google');
      assert.equal((await importRows(store, rows(google.slice(1)), [], { now: LATER, sync: true })).unpublished, 1);
      const unpublished = await raw.selectFrom('reviews').selectAll().where('published', '=', 0).execute();
      assert.ok(
        unpublished.length > 0 && unpublished.every((r) => r.changed_revision !== null),
        'an unpublished row names the revision that removed it',
      );
      const removedIn = unpublished[0].changed_revision!;
      assert.ok((await collect(store.reviewsChangedAfterPages(removedIn - 1))).some((r) => r.id === unpublished[0].id && !r.published));

      const start = (await store.latestRevision())!.id;
      assert.deepEqual(await collect(store.reviewsChangedAfterPages(start)), []);
      const count = await store.publishedCount();
      const record = {
        source: 'direct',
        source_review_id: 'changes-1',
        author: 'Ana',
        rating: 4,
        date: '2026-10-30',
        text: 'Quick and tidy.',
      };
      const added = await importRows(store, rows([record]), [], { now: LATER });
      const [fresh] = await collect(store.reviewsChangedAfterPages(start));
      assert.equal(fresh.changed_revision, added.revision!.id);
      // Both reads make the record of the same columns.
      assert.deepEqual(
        fresh,
        (await publishedWalk(store)).rows.find((r) => r.id === fresh.id),
      );
      assert.equal(await store.publishedCount(), count + 1);

      const edited = await importRows(store, rows([{ ...record, text: 'Quick, tidy and fair.' }]), [], { now: LATER });
      const since = await collect(store.reviewsChangedAfterPages(added.revision!.id));
      assert.deepEqual(
        since.map((r) => [r.id, r.text, r.changed_revision]),
        [[fresh.id, 'Quick, tidy and fair.', edited.revision!.id]],
      );
      assert.equal((await collect(store.reviewsChangedAfterPages(start))).length, 1, 'one row, however often it changed');
      assert.equal((await importRows(store, rows([{ ...record, text: 'Quick, tidy and fair.' }]), [], { now: LATER })).revision, null);
      assert.deepEqual(await collect(store.reviewsChangedAfterPages(edited.revision!.id)), [], 'an unchanged import writes nothing');

      await store.saveAnalyses([{ reviewId: fresh.id, version: 'h', analysis: '{"n":1}' }], CTX);
      assert.deepEqual(
        (await collect(store.analysisPages([fresh.id, 'no-such-review']))).map((a) => a.analysis),
        ['{"n":1}'],
      );
    });

    // A build reads every row in one consistent read (on SQLite a read-only connection seeing the file through a
    // memory map), while an import on another connection commits and checkpoints: SQLite copies back nothing an
    // open read may still need, so the file under the map keeps the read's moment.
    test('a consistent read sees one moment: what another connection commits meanwhile is not read', async () => {
      await seed();
      // The seed into the file: the read then sees it all through the map, not the log.
      await store.checkpoint();
      const before = await publishedWalk(store);
      const last = before.rows[before.rows.length - 1];
      const edited = demo.find((r) => r.source === last.source && r.source_review_id === last.source_review_id);
      assert.ok(edited, 'the last review read is a demo record');
      const other = await Store.open(url);
      const seen: StoredReview[] = [];
      let wrote = false;
      try {
        await store.consistentRead(async (view) => {
          for await (const page of view.publishedReviewPages(7)) {
            if (!wrote) {
              wrote = true;
              const fresh = generateDemoReviews({ reviews: 30, seed: 91 }).map((r, i) => ({
                ...r,
                source: 'direct',
                source_review_id: `meanwhile-${i}`,
              }));
              const report = await importRows(other, rows([...fresh, { ...edited, text: 'Written while the read went on.' }]), [], {
                now: LATER,
              });
              assert.deepEqual([report.added, report.updated], [30, 1]);
              await other.checkpoint();
            }
            seen.push(...page.rows);
          }
        });
      } finally {
        await other.close();
      }
      assert.deepEqual(seen, before.rows, 'the rows as they were when the read began, the last one unedited');
      const after = await publishedWalk(store);
      assert.equal(after.rows.length, 90);
      assert.equal(after.rows.find((r) => r.id === last.id)?.text, 'Written while the read went on.');
    });

    test('analyses are stored and replaced', async () => {
      await seed();
      const [r] = (await publishedWalk(store)).rows;
      await store.saveAnalyses([{ reviewId: r.id, version: 'a', analysis: '{"v":1}' }], CTX);
      await store.saveAnalyses([{ reviewId: r.id, version: 'b', analysis: '{"v":2}' }], { ...CTX, engine: 'x/2' });
      const all = await collect(store.analysisPages(null));
      assert.deepEqual(
        all.filter((a) => a.review_id === r.id).map((a) => a.analysis),
        ['{"v":2}'],
      );
      // The walk of the published reviews joins each one's stored analysis, and only its own.
      const walk = await publishedWalk(store, 7);
      assert.deepEqual(
        walk.analyses,
        all.filter((a) => a.review_id === r.id),
      );
      // Every row with one: each page of 7 joins its own rows' analyses, on every page, not only the first.
      await store.saveAnalyses(
        walk.rows.map((row) => ({ reviewId: row.id, version: 'c', analysis: JSON.stringify({ id: row.id }) })),
        CTX,
      );
      const paged = await publishedWalk(store, 7);
      assert.ok(paged.rows.length > 7 * 3, 'several pages');
      assert.deepEqual(
        paged.analyses.map((a) => a.analysis),
        paged.rows.map((row) => JSON.stringify({ id: row.id })),
      );
    });
  });
}

const CTX = { engine: 'x/1', business: demoBusiness() };

/** Every published row, and the stored analyses the walk joined to them. */
async function publishedWalk(store: Store, size?: number) {
  const rows: StoredReview[] = [];
  const analyses: StoredAnalysis[] = [];
  for await (const page of store.publishedReviewPages(size)) {
    rows.push(...page.rows);
    analyses.push(...page.analyses);
  }
  return { rows, analyses };
}
const GOLDEN_ID = '01JGJ4ZP00DJX7GVNEWE31XRFE';
const GOLDEN_VERSION = 'iRjnkMxiTQUnb2rrLOn6EWsapVGd5mvu';

repositorySuite('sqlite', async () => {
  const url = join(tempDir(), 'store.db');
  return { store: await Store.open(url), url, cleanup: async () => {} };
});

repositorySuite(
  'postgres',
  async () => {
    const db = await freshPgDatabase();
    return { store: await Store.open(db.url), url: db.url, cleanup: db.drop };
  },
  PG_SKIP,
);

test('on SQLite a store opened through a symbolic link hears writes to the file it leads to', async () => {
  const dir = tempDir();
  const file = join(dir, 'real.db');
  const writer = await Store.open(file);
  const link = join(tempDir(), 'link.db');
  symlinkSync(file, link);
  const linked = await Store.open(link);
  const heard = hearing(linked);
  try {
    assert.ok(heard);
    // The log is made beside the file the link leads to, not beside the link.
    await writer.announceWrite();
    assert.ok(existsSync(`${file}-wal`) && !existsSync(`${link}-wal`));
    await waitFor(() => heard.count > 0, 'the write heard through the link');
    assert.deepEqual(heard.failures, []);
  } finally {
    await heard?.stop();
    await linked.close();
    await writer.close();
  }
});

test('the store names its location without the database password (it is logged)', { skip: PG_SKIP }, async () => {
  const db = await freshPgDatabase();
  const url = new URL(db.url);
  url.password = 'not-for-logs';
  const store = await Store.open(url.toString());
  try {
    assert.ok(!store.location.includes('not-for-logs'), store.location);
    assert.ok(store.location.includes(url.pathname), 'still names the database');
  } finally {
    await store.close();
    await db.drop();
  }
});

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { collectGarbage } from '../../src/app/index.js';
import { analyseReviews, analyzePending } from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import type { ImportRecordInput } from '../../src/domain/index.js';
import { type AnalyseReviews, importRows } from '../../src/ingest/index.js';
import { engine } from '../../src/insights/index.js';
import { Store } from '../../src/store/index.js';
import { collect, rawDb, tempDir } from '../helpers/index.js';

let store: Store;
let raw: Kysely<any>;
const rows = (records: ImportRecordInput[]) => records.map((value, index) => ({ index, value }));
const row = (srid: string) => raw.selectFrom('reviews').selectAll().where('source_review_id', '=', srid).executeTakeFirstOrThrow();

before(async () => {
  const file = join(tempDir(), 'rules.db');
  store = await Store.open(file);
  raw = rawDb(file);
  await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
});
after(async () => {
  await raw.destroy();
  await store.close();
});

test('text A → B → A: updated_at follows each change and the stored hash covers it', async () => {
  const a = { source: 'google', source_review_id: 'aba', author: 'Ann', rating: 5, date: '2025-01-02', text: 'First words.' };
  await importRows(store, rows([a]), [], { now: '2025-02-01T00:00:00.000Z' });
  const first = await row('aba');
  await importRows(store, rows([{ ...a, text: 'Second words.' }]), [], { now: '2025-02-02T00:00:00.000Z' });
  const back = await importRows(store, rows([a]), [], { now: '2025-02-03T00:00:00.000Z' });
  assert.equal(back.updated, 1);
  const last = await row('aba');
  assert.equal(last.updated_at, '2025-02-03T00:00:00.000Z');
  assert.notEqual(last.row_hash, first.row_hash, 'a reader caching rows by hash sees the new updated_at');
});

test('a review first imported without a platform id, then with one, stays one review', async () => {
  const plain = { source: 'google', author: 'Bo', rating: 4, date: '2025-03-04', text: 'Kevin was quick and tidy.' };
  assert.equal((await importRows(store, rows([plain]), [])).added, 1);
  const withId = await importRows(store, rows([{ ...plain, source_review_id: 'G-77' }]), []);
  assert.deepEqual([withId.added, withId.updated], [0, 1]);
  const copies = await raw.selectFrom('reviews').selectAll().where('author', '=', 'Bo').execute();
  assert.equal(copies.length, 1);
  assert.equal(copies[0].source_review_id, 'G-77');
  assert.equal((await importRows(store, rows([plain]), [])).added, 0, 'and the other way round');
});

test('--sync with invalid rows unpublishes nothing', async () => {
  const g1 = { source: 'yelp', source_review_id: 'y1', author: 'Cy', rating: 5, date: '2025-04-01', text: 'Great.' };
  const g2 = { source: 'yelp', source_review_id: 'y2', author: 'Di', rating: 4, date: '2025-04-02', text: 'Good.' };
  await importRows(store, rows([g1, g2]), []);
  const report = await importRows(store, rows([g1, { ...g2, rating: 7 }]), [], { sync: true, skipInvalid: true });
  assert.equal(report.invalid.length, 1);
  assert.equal(report.unpublished, 0);
  assert.equal(report.syncSkipped, true);
  assert.equal((await row('y2')).published, 1);
});

test('timestamps with offsets are stored as UTC, so they order correctly as text', async () => {
  await importRows(
    store,
    rows([
      {
        source: 'direct',
        source_review_id: 'tz',
        author: 'Ed',
        rating: 5,
        date: '2025-05-01',
        published_at: '2025-05-01T09:00:00-08:00',
        text: 'On time.',
      },
    ]),
    [],
  );
  assert.equal((await row('tz')).published_at, '2025-05-01T17:00:00.000Z');
});

test('a large file compares with every stored review, a small one with those it could match: both find the same ones', async () => {
  const big = Array.from({ length: 2_100 }, (_, i) => ({
    source: 'yelp',
    source_review_id: `Y-${i}`,
    author: `A${i}`,
    rating: 4,
    date: '2025-05-06',
    text: `Visit ${i} went fine.`,
  }));
  const plain = Array.from({ length: 5 }, (_, i) => ({
    source: 'direct',
    author: `P${i}`,
    rating: 5,
    date: '2025-05-07',
    text: `Plain ${i}.`,
  }));
  assert.equal((await importRows(store, rows([...big, ...plain]), [])).added, 2_105);
  const again = await importRows(store, rows([...big, ...plain]), []);
  assert.deepEqual([again.added, again.updated, again.unchanged, again.revision], [0, 0, 2_105, null], 'the full read finds every row');
  // Small: two edits, an unchanged row, the same plain review now with a platform id, and a new one.
  const small = [
    { ...big[3], text: 'Edited.' },
    { ...big[2_000], rating: 2 },
    big[7],
    { ...plain[1], source_review_id: 'D-1' },
    { ...big[0], source_review_id: 'Y-new' },
  ];
  const keyed = await importRows(store, rows(small), []);
  assert.deepEqual(
    [keyed.added, keyed.updated, keyed.unchanged],
    [1, 3, 1],
    'the keyed read finds the same rows, by platform id and by fingerprint',
  );
  const changed = await collect(store.reviewsChangedAfterPages(keyed.revision!.id - 1));
  assert.equal(changed.length, 4, 'and only the written rows name the new revision');
});

test('when stored reviews share a fingerprint, the full and the keyed read pick the same one', async () => {
  const twin = { source: 'google', author: 'Tess', rating: 5, date: '2025-06-01', text: 'Same words twice.' };
  const outcome = async (padding: number) => {
    const file = join(tempDir(), `twins-${padding}.db`);
    const s = await Store.open(file);
    const twins = rawDb(file);
    try {
      await s.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
      await importRows(
        s,
        rows([
          { ...twin, source_review_id: 'P' },
          { ...twin, source_review_id: 'Q' },
        ]),
        [],
      );
      const filler = Array.from({ length: padding }, (_, i) => ({
        source: 'yelp',
        source_review_id: `F-${i}`,
        author: 'F',
        rating: 3,
        date: '2025-06-02',
        text: `Filler ${i}.`,
      }));
      // A row with Q's platform id, and one without any: the fallback must choose the same stored twin however it was read.
      await importRows(s, rows([{ ...twin, source_review_id: 'Q', rating: 4 }, { ...twin, rating: 1 }, ...filler]), []);
      return await twins
        .selectFrom('reviews')
        .select(['source_review_id', 'rating'])
        .where('author', '=', 'Tess')
        .orderBy('source_review_id')
        .execute();
    } finally {
      await twins.destroy();
      await s.close();
    }
  };
  const keyed = await outcome(0);
  const full = await outcome(2_001);
  assert.deepEqual(full, keyed);
});

test('the analysis after an import covers exactly the rows that import wrote', async () => {
  // Rows of an earlier import, left unanalysed: the analysis of the later one must not touch them.
  const earlier = [1, 2].map((i) => ({
    source: 'direct',
    source_review_id: `old-${i}`,
    author: `O${i}`,
    rating: 5,
    date: '2025-06-30',
    text: `Old job ${i}.`,
  }));
  assert.equal((await importRows(store, rows(earlier), [])).added, 2);
  const written = await importRows(
    store,
    rows(
      [1, 2, 3].map((i) => ({
        source: 'direct',
        source_review_id: `an-${i}`,
        author: `N${i}`,
        rating: 4,
        date: '2025-07-01',
        text: `Tidy job number ${i}.`,
      })),
    ),
    [],
  );
  const unanalysedElsewhere = Number(
    (
      (await raw
        .selectFrom('reviews as r')
        .leftJoin('review_analysis as a', 'a.review_id', 'r.id')
        .select((eb: any) => eb.fn.countAll().as('n'))
        .where('a.review_id', 'is', null)
        .where('r.published', '=', 1)
        .executeTakeFirstOrThrow()) as { n: number }
    ).n,
  );
  assert.ok(unanalysedElsewhere >= 5, 'the earlier import is unanalysed too');
  assert.equal((await analyzePending(store, engine, { revision: written.revision!.id })).analysed, 3);
  assert.equal((await analyzePending(store, engine, { revision: written.revision!.id })).analysed, 0, 'and once is enough');
});

test('an import announces its write when it has something to analyse, and only then', async () => {
  const analyze = analyseReviews(engine);
  const r = {
    source: 'google',
    source_review_id: 'notice',
    author: 'Noor',
    rating: 4,
    date: '2025-03-01',
    text: 'The plumber came on time.',
  };
  const noticesBefore = (await store.watched()).notices;
  assert.equal((await importRows(store, rows([r]), [], { analyze })).added, 1);
  assert.equal((await store.watched()).notices, noticesBefore + 1);
  // The same row again: nothing to analyse or write, nothing announced; nor without analysis (the write follows at once).
  assert.equal((await importRows(store, rows([r]), [], { analyze })).unchanged, 1);
  assert.equal((await importRows(store, rows([{ ...r, source_review_id: 'notice-2' }]), [])).added, 1);
  assert.equal((await store.watched()).notices, noticesBefore + 1);
});

test("an import lets the file's parsed values go once it has validated them, before the analyses and the write", async () => {
  assert.ok(collectGarbage(), 'a full collection can be asked for');
  const weak: WeakRef<object>[] = [];
  const input = Array.from({ length: 3 }, (_, index) => {
    const value = {
      source: 'google',
      source_review_id: `let-go-${index}`,
      author: 'Lee',
      rating: 4,
      date: '2025-03-02',
      text: `Fixed the sink on visit ${index}.`,
    };
    weak.push(new WeakRef(value));
    return { index, value };
  });
  const real = analyseReviews(engine);
  let collected = weak.map(() => false);
  const analyze: AnalyseReviews = {
    engine: real.engine,
    async analyse(business, reviews, onProgress) {
      // Up to three collections, as in the text index's test: a value still held would be there after any number.
      for (let attempt = 0; attempt < 3 && !collected.every(Boolean); attempt++) {
        await setImmediate();
        collectGarbage();
        collected = weak.map((w) => w.deref() === undefined);
      }
      return real.analyse(business, reviews, onProgress);
    },
  };
  const report = await importRows(store, input, [], { analyze });
  assert.equal(report.added, 3);
  assert.deepEqual(collected, [true, true, true], 'no parsed value is held while the reviews are analysed');
  assert.equal(input.length, 0, 'the rows given are emptied');
});

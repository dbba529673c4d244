// A live server given a review its engine throws on publishes it (its insights from its rating and title alone),
// keeps publishing the revisions after it, and logs which review it could not read: on its first full read and
// on an update.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { demoBusiness } from '../../src/demo/index.js';
import { importFile } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { capturedLog, FAULT, faultyEngine, GOOD_RECORD, importFileIn, startTestServer, tempDir, waitFor } from '../helpers/index.js';

const dir = tempDir();
const database = join(dir, 'faulty.db');

/** Imports records as `reviewcast import --no-analyze` does: the server analyses them. */
async function importRecords(name: string, records: object[]): Promise<void> {
  const store = await Store.open(database);
  try {
    if (!(await store.getBusiness())) await store.setBusiness(demoBusiness(), '2026-12-01T00:00:00.000Z');
    const report = await importFile(store, importFileIn(dir, name, JSON.stringify(records)));
    assert.deepEqual(report.invalid, []);
    assert.ok(report.written);
  } finally {
    await store.close();
  }
}

// Before the server starts: its first build reads everything, the faulty review among it.
await importRecords('first.json', [
  { ...GOOD_RECORD, source_review_id: 'g-first', rating: 1, text: `Wombat crew came late. ${FAULT}` },
  { ...GOOD_RECORD, source_review_id: 'g-first-clean', text: 'Wombat crew fixed the leak fast and cleaned up.' },
]);
const { log, lines } = capturedLog();
const server = await startTestServer({ DATABASE_URL: database }, { engine: faultyEngine, logger: log });
after(() => server.close());

const search = async (query: string) =>
  (await (await fetch(`${server.url}/api/reviews/search?query=${query}&limit=100`)).json()) as {
    matched: number;
    reviews: { id: string; text: string }[];
  };
const perReview = async () =>
  (
    (await (await fetch(`${server.url}/insights.json`)).json()) as {
      per_review: Record<string, { aspects: unknown[]; sentences: unknown[]; sentiment: number }>;
    }
  ).per_review;
const told = () => lines.filter((l) => String(l.msg).startsWith('the engine could not read a review'));

test('a review the engine throws on is published with its rating and title alone, on a full read and on an update', async () => {
  const first = await waitFor(
    async () => ((await search('wombat')).matched === 2 ? search('wombat') : null),
    'the first reviews published',
  );
  const firstFaulty = first.reviews.find((r) => r.text.includes(FAULT))!;

  await importRecords('update.json', [
    { ...GOOD_RECORD, source_review_id: 'g-fault', rating: 1, text: `Zanzibar crew fixed the leak fast. ${FAULT}` },
    { ...GOOD_RECORD, source_review_id: 'g-clean', text: 'Zanzibar crew fixed the leak fast and cleaned up.' },
  ]);
  const found = await waitFor(async () => ((await search('zanzibar')).matched === 2 ? search('zanzibar') : null), 'both reviews published');
  const faulty = found.reviews.find((r) => r.text.includes(FAULT))!;
  const clean = found.reviews.find((r) => !r.text.includes(FAULT))!;
  const analyses = await perReview();
  for (const id of [firstFaulty.id, faulty.id]) {
    assert.deepEqual(analyses[id].aspects, []);
    assert.deepEqual(analyses[id].sentences, []);
    assert.ok(analyses[id].sentiment < 0, 'a one-star rating');
  }
  assert.ok(analyses[clean.id].aspects.length > 0);
  assert.deepEqual(
    told().map((l) => l.review),
    [firstFaulty.id, faulty.id],
  );
  assert.match(String(told()[1].err), /engine fault \(test\)/);

  // The next import is published as well: the fault held nothing back.
  await importRecords('later.json', [{ ...GOOD_RECORD, source_review_id: 'g-later', text: 'Quokka tech was polite.' }]);
  await waitFor(async () => (await search('quokka')).matched === 1, 'a later review published');
  assert.equal(told().length, 2, 'each review told once: its analysis was stored');
});

// A live server given a review its engine throws on publishes it (its insights from its rating alone), keeps
// publishing the revisions after it, and logs which review it could not read.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { importFile } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { capturedLog, FAULT, faultyEngine, GOOD_RECORD, importFileIn, startTestServer, tempDir, waitFor } from '../helpers/index.js';

const { log, lines } = capturedLog();
const server = await startTestServer({}, { engine: faultyEngine, logger: log });
after(() => server.close());
const dir = tempDir();

/** Imports records into the server's database as `reviewcast import` does without --analyze: the server analyses them. */
async function importRecords(name: string, records: object[]): Promise<void> {
  const store = await Store.open(server.config.databaseUrl);
  try {
    const report = await importFile(store, importFileIn(dir, name, JSON.stringify(records)));
    assert.deepEqual(report.invalid, []);
    assert.ok(report.written);
  } finally {
    await store.close();
  }
}

const search = async (query: string) =>
  (await (await fetch(`${server.url}/api/reviews/search?query=${query}&limit=100`)).json()) as {
    matched: number;
    reviews: { id: string; text: string }[];
  };

test('a review the engine throws on is published with its rating alone, and the revisions after it too', async () => {
  await importRecords('faulty.json', [
    { ...GOOD_RECORD, source_review_id: 'g-fault', rating: 1, text: `Zanzibar crew fixed the leak fast. ${FAULT}` },
    { ...GOOD_RECORD, source_review_id: 'g-clean', text: 'Zanzibar crew fixed the leak fast and cleaned up.' },
  ]);
  const found = await waitFor(async () => ((await search('zanzibar')).matched === 2 ? search('zanzibar') : null), 'both reviews published');
  const faulty = found.reviews.find((r) => r.text.includes(FAULT))!;
  const clean = found.reviews.find((r) => !r.text.includes(FAULT))!;
  const insights = (await (await fetch(`${server.url}/insights.json`)).json()) as {
    per_review: Record<string, { aspects: unknown[]; sentences: unknown[]; sentiment: number }>;
  };
  assert.deepEqual(insights.per_review[faulty.id].aspects, []);
  assert.deepEqual(insights.per_review[faulty.id].sentences, []);
  assert.ok(insights.per_review[faulty.id].sentiment < 0, 'a one-star rating');
  assert.ok(insights.per_review[clean.id].aspects.length > 0);
  const told = lines.filter((l) => String(l.msg).startsWith('the engine could not read a review'));
  assert.deepEqual(
    told.map((l) => l.review),
    [faulty.id],
  );
  assert.match(String(told[0].err), /engine fault \(test\)/);

  // The next import is published as well: the fault held nothing back.
  await importRecords('later.json', [{ ...GOOD_RECORD, source_review_id: 'g-later', text: 'Quokka tech was polite.' }]);
  await waitFor(async () => (await search('quokka')).matched === 1, 'a later review published');
});

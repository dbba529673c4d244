import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { demoBusiness } from '../../src/demo/index.js';
import { importFile } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { CLI, GOOD_RECORD, importFileIn, tempDir } from '../helpers/index.js';

const run = promisify(execFile);
const dir = tempDir();
const dbFile = join(dir, 'cli-import.db');
let store: Store;

const good = GOOD_RECORD;

const file = (name: string, content: string | Buffer) => importFileIn(dir, name, content);

/** What an import would change: the latest revision, the reviews and the published ones. */
const state = async () => ({
  revision: await store.latestRevision(),
  reviews: await store.reviewCount(),
  published: await store.publishedCount(),
});

before(async () => {
  store = await Store.open(dbFile);
  await store.setBusiness(demoBusiness(), '2026-01-01T00:00:00.000Z');
  const ok = await importFile(store, file('seed.json', JSON.stringify([good])));
  assert.equal(ok.added, 1);
});
after(() => store.close());

test('the CLI exits 1, lists every bad row and writes nothing', async () => {
  const before = await state();
  const bad = file(
    'cli-bad.ndjson',
    [
      JSON.stringify({ ...good, source_review_id: 'z1', rating: 0 }),
      JSON.stringify({ ...good, source_review_id: 'z2', date: 'yesterday' }),
    ].join('\n'),
  );
  const result = await run(process.execPath, [CLI, 'import', bad, '--database-url', dbFile]).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => err,
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /line 1: rating:/);
  assert.match(result.stderr, /line 2: date:/);
  assert.match(result.stderr, /nothing was imported/);
  assert.deepEqual(await state(), before, 'nothing written');
});

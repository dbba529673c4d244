// After a first start's full build a fresh corpus thread takes the revision over from the build thread's
// image. While it waits for that image (held back here by an engine slow to make one), it holds nothing:
// a write's revision is built on it only after its take-over is sent, and the corpus image stored beside
// the first snapshot is the fresh thread's, asked for after its take-over too.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { capturedLog, SLOW_IMAGE_MS, slowImageEngine, startTestServer, tempDir, tookOver, waitFor } from '../helpers/index.js';

const NOW = '2026-12-01T00:00:00.000Z';
const records = generateDemoReviews({ reviews: 200, seed: 53 });

/** Imports records into the database in a connection of its own (as the CLI does); the new revision's id. */
async function importInto(database: string, rows: typeof records): Promise<number> {
  const store = await Store.open(database);
  try {
    if (!(await store.getBusiness())) await store.setBusiness(demoBusiness(), NOW);
    const report = await importRows(
      store,
      rows.map((value, index) => ({ index, value })),
      [],
      { now: NOW },
    );
    assert.ok(report.revision);
    return report.revision.id;
  } finally {
    await store.close();
  }
}

type Line = Record<string, unknown>;
const loaded = (revision: number) => (l: Line) => l.msg === 'catalog revision loaded' && l.revision === revision;

async function firstStart(name: string) {
  const database = join(tempDir(), `${name}.db`);
  const first = await importInto(database, records.slice(0, 150));
  const { log, lines } = capturedLog();
  // A full read: no snapshot is stored yet.
  const server = await startTestServer({ DATABASE_URL: database, REVIEWCAST_CORPUS_IDLE: '1h' }, { engine: slowImageEngine, logger: log });
  assert.equal(lines.find(loaded(first))?.from, 'full read');
  return { database, first, lines, server };
}

test('a write while the fresh corpus thread waits for the build thread’s image is built on it after its take-over: an update, not a full read', async () => {
  const { database, first, lines, server } = await firstStart('write-while-renewing');
  try {
    const second = await importInto(database, records.slice(150));
    // The write's revision was committed while the old thread was still making the image.
    assert.ok(!lines.some(tookOver(first)), `the take-over came before the write (image held ${SLOW_IMAGE_MS} ms)`);
    const built = await waitFor(() => lines.find(loaded(second)), 'the write’s revision', 20_000);
    assert.equal(built.from, 'update', 'built on the revision the fresh thread took over');
    assert.ok(lines.findIndex(tookOver(first)) < lines.findIndex(loaded(second)), 'after the take-over');
    assert.equal(lines.find(tookOver(first))?.from, 'image');
    assert.ok(!lines.some((l) => String(l.msg).startsWith('the corpus thread is not at the held revision')));
    assert.equal(((await (await fetch(`${server.url}/readyz`)).json()) as { reviews: number }).reviews, records.length);
  } finally {
    await server.close();
  }
});

test('the first snapshot’s corpus image is stored once the fresh thread has taken the revision over from the build thread’s image', async () => {
  const { first, lines, server } = await firstStart('image-after-renewal');
  try {
    const stored = await waitFor(
      () => lines.find((l) => l.msg === 'corpus image stored' && l.revision === first),
      'the corpus image stored',
      20_000,
    );
    assert.ok(lines.indexOf(stored) > lines.findIndex(tookOver(first)), 'after the take-over');
    assert.equal(lines.find(tookOver(first))?.from, 'image');
  } finally {
    await server.close();
  }
});

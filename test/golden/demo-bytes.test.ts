import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, test } from 'node:test';
import SQLite from 'better-sqlite3';
import type { RunningServer } from '../../src/app/index.js';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

/**
 * The safety net of the structure refactor (#14): the demo business, imported at a fixed moment and
 * served under a fixed base URL, must give the same bytes before and after. Values recorded on the
 * code before the refactor; a change here is a change of published bytes, to be made on purpose.
 */
const NOW = '2026-11-01T12:00:00.000Z';
const BASE = 'https://reviews.example';
const PATHS = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'] as const;
const GOLDEN: Record<(typeof PATHS)[number], { etag: string; sha256: string }> = {
  '/reviews.json': {
    etag: '"QrCn1Z98myYWVy5jU5SHOLgPM97jETk3"',
    sha256: '56d60615ac8de457da7357a5926609e01c5edf927ccb9f5d47f40b53eb8b1326',
  },
  '/insights.json': {
    etag: '"zZUEZ7RmnwHJKtYMwD7EUe9xky5601HU"',
    sha256: 'a79f4e15d69a8fdf75a1b89e21e1c67c550cd39c93c640f9652ec76b709cd6f5',
  },
  '/api/feed.json': {
    etag: '"CBa-Eld-OABW229H1vuNlKozCZ-mLR9y"',
    sha256: '0816be12577e380056db6f47d6fb8d94aa33099fa62d1f720b0d2a88693ac036',
  },
  '/feed.xml': { etag: '"fion6i4YX2ndtG9szw7LoRXd2vUFGX9h"', sha256: '7e2a27ea2e185f69ddb46f6ccf0ecba115dddaf505197f61f246bf6c2ef5bbd7' },
};

const KEYS = { version: '-Ske0o-9MPlVRgqjhAjjKsvlDXKtMLfv', analysis: '-Ske0o-9MPlVRgqjhAjjKsvlDXKtMLfv|SU6avbRFjGfHY0zoX6gv5JODOG8V20ZU' };

const servers: RunningServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function demoDatabase(): Promise<string> {
  const file = join(tempDir(), 'golden.db');
  const store = await Store.open(file);
  try {
    await store.setBusiness(demoBusiness(), NOW);
    const rows = generateDemoReviews({ reviews: 2000 }).map((value, index) => ({ index, value }));
    const report = await importRows(store, rows, [], { now: NOW });
    assert.equal(report.added, 2000);
  } finally {
    await store.close();
  }
  return file;
}

async function bytesOf(server: RunningServer) {
  const out: Record<string, { etag: string; sha256: string }> = {};
  for (const path of PATHS) {
    // Identity, as a client without Accept-Encoding gets it: the bytes themselves, not a coding of them.
    const res = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(res.status, 200, path);
    const body = Buffer.from(await res.arrayBuffer());
    out[path] = { etag: res.headers.get('etag') ?? '', sha256: createHash('sha256').update(body).digest('hex') };
  }
  return out;
}

test('the demo business served from SQLite gives the recorded bytes, built and loaded from its snapshot', async () => {
  const file = await demoDatabase();
  const built = await startTestServer({ DATABASE_URL: file, PUBLIC_BASE_URL: BASE, REVIEWCAST_DEMO_IF_EMPTY: false });
  servers.push(built);
  const first = await bytesOf(built);
  if (process.env.GOLDEN_PRINT) console.log(JSON.stringify(first, null, 2));
  assert.deepEqual(first, GOLDEN);
  // Its snapshot is written after the swap; a second process loads it instead of building.
  await built.close();
  const loaded = await startTestServer({ DATABASE_URL: file, PUBLIC_BASE_URL: BASE, REVIEWCAST_DEMO_IF_EMPTY: false });
  servers.push(loaded);
  assert.deepEqual(await bytesOf(loaded), GOLDEN);
  // The stored row version and analysis key: a change would make every existing database re-analyse.
  const db = new SQLite(file, { readonly: true });
  try {
    const keys = db
      .prepare(
        'select r.row_hash as version, a.content_hash as analysis from reviews r join review_analysis a on a.review_id = r.id order by r.id limit 1',
      )
      .get();
    if (process.env.GOLDEN_PRINT) console.log(JSON.stringify(keys));
    assert.deepEqual(keys, KEYS);
  } finally {
    db.close();
  }
});

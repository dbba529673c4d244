import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/index.js';

const NOW = '2026-11-01T10:00:00.000Z';

/** Whether this process maps `file` itself (SQLite's `-shm` beside it is mapped whenever the log is open). */
const mapped = (file: string) =>
  readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .some((line) => line.endsWith(` ${file}`));

// A consistent read (a full build's, a snapshot's) reads the file through a memory map, not a system call per
// page; the pages it touched stay resident while mapped, so the map must go when the read ends, thrown or not.
test('SQLite: a consistent read maps the database file and lets the map go when it ends', {
  skip: process.platform !== 'linux' && 'reads /proc/self/maps',
}, async () => {
  const dir = realpathSync(tempDir());
  const file = join(dir, 'map.db');
  const store = await Store.open(file);
  try {
    await store.setBusiness(demoBusiness(), NOW);
    const records = generateDemoReviews({ reviews: 300 }).map((value, index) => ({ index, value }));
    assert.equal((await importRows(store, records, [], { now: NOW })).added, 300);
    // Pages still in the write-ahead log are read from it: copied back, the rows are read from the file.
    await store.checkpoint();
    assert.equal(mapped(file), false, 'no read under way');

    const seen = await store.consistentRead(async (view) => {
      let rows = 0;
      for await (const page of view.publishedReviewPages()) rows += page.rows.length;
      return { rows, mapped: mapped(file) };
    });
    assert.deepEqual(seen, { rows: 300, mapped: true });
    assert.equal(mapped(file), false, 'the map was let go after the read');

    await assert.rejects(
      store.consistentRead(async (view) => {
        await view.publishedReviewPages().next();
        assert.ok(mapped(file));
        throw new Error('the reader gave up');
      }),
      /the reader gave up/,
    );
    assert.equal(mapped(file), false, 'let go after a read that threw');
  } finally {
    await store.close();
  }
});

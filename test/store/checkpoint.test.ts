import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/index.js';

const NOW = '2026-11-01T10:00:00.000Z';
const size = (file: string) => statSync(file).size;

// SQLite copies its write-ahead log back into the database file on the connection whose commit takes
// the log past 1,000 pages: on the server's connection that copy (and its sync) would run on the event
// loop. The server's connection is opened with `checkpointsElsewhere`; its writes stay in the log until
// another connection (the store writer's thread) checkpoints them.
test('SQLite: a connection opened with checkpointsElsewhere leaves its log for another connection to copy back', async () => {
  const records = generateDemoReviews({ reviews: 6000 }).map((value, index) => ({ index, value }));
  const grown: Record<string, number> = {};
  for (const elsewhere of [false, true]) {
    const file = join(tempDir(), 'checkpoint.db');
    const store = await Store.open(file, { checkpointsElsewhere: elsewhere });
    const other = await Store.open(file);
    try {
      assert.equal(store.writesToCheckpoint(), elsewhere, 'the migrations were written on this connection');
      const before = size(file);
      await store.setBusiness(demoBusiness(), NOW);
      // A copy each time: an import empties the rows it is given.
      assert.equal((await importRows(store, [...records], [], { now: NOW })).added, 6000);
      assert.ok(size(`${file}-wal`) > 1000 * 4096, 'the import took the log past the automatic checkpoint');
      grown[String(elsewhere)] = size(file) - before;
      assert.equal(store.writesToCheckpoint(), elsewhere, 'written since the last answer');
      assert.equal(store.writesToCheckpoint(), false, 'nothing written since');
      await other.checkpoint();
      if (elsewhere) assert.ok(size(file) - before > 1 << 20, 'the other connection copied the log back');
    } finally {
      await other.close();
      await store.close();
    }
  }
  assert.ok(grown.false > 1 << 20, `the default connection copied its own log back (${grown.false} bytes)`);
  assert.equal(grown.true, 0, 'a checkpointsElsewhere connection did not');
});

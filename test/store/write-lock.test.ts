import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Store } from '../../src/store/index.js';
import { competingWriter, tempDir } from '../helpers/index.js';

// On SQLite a transaction that reads and then writes cannot wait for a write committed by another
// connection after its read (SQLite answers SQLITE_BUSY at once, whatever busy_timeout says). The
// server's connection shares the file with the store-writer thread and with CLI imports, so every write
// transaction must hold the write lock from its start. This runs the hub's read-then-write transactions
// while another connection commits continuously, and requires that none fails.
test('SQLite: read-then-write transactions never fail while another connection writes', async () => {
  const file = join(tempDir(), 'lock.db');
  const store = await Store.open(file);
  const writer = competingWriter(file);
  const failures: string[] = [];
  let rounds = 0;
  try {
    for (let i = 0; i < 300; i++) {
      const now = 1_000_000 + i;
      const request = {
        mode: 'subscribe' as const,
        topic: 'https://t.example/',
        callback: `https://c${i}.example/`,
        secret: null,
        leaseSeconds: 3600,
      };
      try {
        await store.hubVerifications.queue(request, now);
        for (const v of await store.hubVerifications.claim(10, now, 60_000)) await store.hubVerifications.complete(v, true, now);
        await store.hubSubscriptions.purgeExpired(now);
        rounds++;
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
  } finally {
    const commits = await writer.stop();
    await store.close();
    assert.ok(commits > 0, 'the other connection committed meanwhile');
  }
  assert.deepEqual(failures.slice(0, 3), [], `${failures.length} of 300 rounds failed`);
  assert.equal(rounds, 300);
});

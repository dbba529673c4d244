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

// A CLI import holds SQLite's write lock for its whole transaction (seconds at 100,000 reviews). A write
// by the server meanwhile must wait for it without stopping the event loop that answers requests.
test('SQLite: a write waiting for another connection’s lock does not block the event loop', async () => {
  const file = join(tempDir(), 'wait.db');
  const store = await Store.open(file);
  const writer = competingWriter(file, { holdMs: 1500 });
  // The longest gap between the ticks of a 5 ms timer while the write waits: what a request would wait.
  let last = 0;
  let longestGap = 0;
  const ticker = setInterval(() => {
    const t = performance.now();
    if (last) longestGap = Math.max(longestGap, t - last);
    last = t;
  }, 5);
  try {
    await writer.started;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const request = {
      mode: 'subscribe' as const,
      topic: 'https://t.example/',
      callback: 'https://c.example/',
      secret: null,
      leaseSeconds: 3600,
    };
    const t = performance.now();
    await store.hubVerifications.queue(request, 1);
    const waited = performance.now() - t;
    // A tick after the write closes the last gap.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const claimed = await store.hubVerifications.claim(10, 1, 60_000);
    assert.equal(claimed.length, 1, 'the write landed once the lock was free');
    // The lock was held for 1.5 s: the write waited for most of it, and timers kept firing meanwhile.
    assert.ok(waited > 500, `the write waited ${Math.round(waited)} ms for the lock`);
    assert.ok(
      longestGap < waited / 2,
      `longest gap between timer ticks ${Math.round(longestGap)} ms while the write waited ${Math.round(waited)} ms`,
    );
  } finally {
    clearInterval(ticker);
    await writer.stop();
    await store.close();
  }
});

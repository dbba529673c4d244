import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { RevisionScheduler } from '../../src/app/index.js';
import { Store } from '../../src/store/index.js';
import { sleep, tempDir, waitFor } from '../helpers/index.js';

test('hints that the store changed bring a check forward, one at a time, and one more after it, however many come', async () => {
  const databaseUrl = join(tempDir(), 'hints.db');
  const store = await Store.open(databaseUrl);
  let hint: () => void = () => {
    throw new Error('not listening yet');
  };
  // The store's hints are the test's to give (a large write on SQLite gives hundreds).
  store.listenForRevisions = (onRevision) => {
    hint = onRevision;
    return { stop: async () => {} };
  };
  let checks = 0;
  const watched = store.watched.bind(store);
  store.watched = async () => {
    checks++;
    // Hints while the first check runs: they may be of a commit it read before, so one more check follows.
    if (checks === 1) for (let i = 0; i < 500; i++) hint();
    return watched();
  };
  const scheduler = new RevisionScheduler(store, {
    publicBaseUrl: () => 'http://127.0.0.1:1',
    databaseUrl,
    // No check of its own in this test's life: every check here is owed to a hint.
    pollMs: 60_000,
    log: pino({ level: 'silent' }),
  });
  try {
    scheduler.startWatching();
    for (let i = 0; i < 500; i++) hint();
    // The check brought forward; the one after it (hints before it may be a moment ahead of their commit,
    // and hints came during it); and the one after that (hints came before that one).
    await waitFor(() => checks === 3, 'the check brought forward and the two owed to hints');
    // Quiet now: no further check until the poll, a minute away.
    await sleep(300);
    assert.equal(checks, 3, '1,000 hints, three checks');
    hint();
    await waitFor(() => checks === 5, 'a later hint brings the next check forward, and one follows it');
    await sleep(300);
    assert.equal(checks, 5);
  } finally {
    await scheduler.stop();
    await store.close();
  }
});

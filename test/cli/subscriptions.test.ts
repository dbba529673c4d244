import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { Store } from '../../src/store/index.js';
import { CLI, tempDir } from '../helpers/index.js';

const run = promisify(execFile);

test('subscriptions list and remove from the CLI', async () => {
  const db = join(tempDir(), 'subs.db');
  const store = await Store.open(db);
  const now = Date.now();
  await store.hubSubscriptions.activate(
    [{ topic: 'https://x.example/feed.xml', callback: 'https://sub.example/cb?token=secret', secret: 'sekrit', leaseSeconds: 3600 }],
    now,
  );
  await store.close();
  const cli = (...args: string[]) => run(process.execPath, [CLI, 'subscriptions', ...args, '--database-url', db]).catch((e) => e);
  const listed = await cli('list');
  assert.match(listed.stdout, /sub\.example/);
  assert.doesNotMatch(listed.stdout, /sekrit/, 'secrets never printed');
  assert.equal((await cli('remove', '999')).code, 1);
  assert.match((await cli('remove', 'https://sub.example/cb?token=secret')).stdout, /removed 1/);
  assert.doesNotMatch((await cli('list')).stdout, /sub\.example/);
});

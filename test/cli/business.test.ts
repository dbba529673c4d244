import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CLI, tempDir } from '../helpers/index.js';

const run = promisify(execFile);

test('business set validates the profile and names the bad fields', async () => {
  const dir = tempDir();
  const file = join(dir, 'biz.yaml');
  writeFileSync(file, 'id: Bad Id\nname: ""\nvertical: spaceship\n');
  const res = await run(process.execPath, [CLI, 'business', 'set', file, '--database-url', join(dir, 'b.db')]).catch((e) => e);
  assert.equal(res.code, 1);
  assert.match(res.stderr, /id: /);
  assert.match(res.stderr, /name: /);
  assert.match(res.stderr, /vertical: /);
});

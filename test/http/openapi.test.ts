import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, tempDir } from '../helpers/index.js';

test('/openapi.json is OpenAPI 3.1.0, version 1.0.0, covers every REST endpoint and lints with zero errors', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.0.0');
  for (const p of [
    '/reviews.json',
    '/insights.json',
    '/api/feed.json',
    '/feed.xml',
    '/api/reviews/search',
    '/api/reviews/since/{date}',
    '/api/websub/hub',
  ]) {
    assert.ok(doc.paths[p], `${p} documented`);
  }
  const file = join(tempDir(), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const { stdout } = await promisify(execFile)(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--format=json', file], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 16 << 20,
  }).catch((err: { stdout: string; stderr: string }) => {
    throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
  });
  const report = JSON.parse(stdout);
  const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
  assert.deepEqual(errors, []);
});

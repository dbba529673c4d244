import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatLogLine } from '../../src/cli/index.js';
import { CLI, spawnServe, tempDir } from '../helpers/index.js';

const TIME = Date.UTC(2026, 10, 20, 9, 8, 7, 65);
const line = (entry: Record<string, unknown>) => `${JSON.stringify({ level: 30, time: TIME, pid: 7, hostname: 'h', ...entry })}\n`;

test('a log entry becomes one readable line: time, level, message, then its fields (nested ones flattened)', () => {
  const out = formatLogLine(
    line({ reqId: 'req-1', req: { method: 'GET', url: '/feed.xml' }, note: 'two words', n: 3, ok: true, msg: 'incoming request' }),
    { color: false },
  );
  assert.equal(out, '09:08:07.065 INFO  incoming request reqId=req-1 req.method=GET req.url=/feed.xml note="two words" n=3 ok=true\n');
});

test('an error shows its stack under the line; levels are named; colour only when asked', () => {
  const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.js:1:2)' };
  const out = formatLogLine(line({ level: 50, err, msg: 'shutdown failed' }), { color: false });
  assert.equal(out, '09:08:07.065 ERROR shutdown failed\n    Error: boom\n        at x (y.js:1:2)\n');
  assert.match(formatLogLine(line({ level: 40, msg: 'w' }), { color: false }), /^\S+ WARN {2}w\n$/);
  const colored = formatLogLine(line({ level: 40, msg: 'w' }), { color: true });
  assert.match(colored, /\x1b\[33mWARN \x1b\[39m w/);
  assert.equal(formatLogLine('not json\n', { color: true }), 'not json\n');
});

test('serve logs JSON lines when stdout is not a terminal, and drains on SIGTERM', async () => {
  const dir = tempDir();
  const server = await spawnServe(['--port', '0', '--database-url', join(dir, 'r.db')], { REVIEWCAST_DEMO_IF_EMPTY: '0' });
  await server.stop();
  assert.equal(server.child.exitCode, 0);
  const lines = server.output().split('\n').filter(Boolean);
  assert.ok(lines.length >= 2);
  for (const l of lines) assert.doesNotThrow(() => JSON.parse(l), `not a JSON line: ${l}`);
  assert.ok(lines.some((l) => JSON.parse(l).msg === 'reviewcast listening'));
  assert.ok(lines.some((l) => JSON.parse(l).signal === 'SIGTERM'));
});

// util-linux's `script` runs the server on a pseudo-terminal, as `npm start` in a terminal does.
const hasScript = spawnSync('script', ['--version']).status === 0;
test('serve logs readable lines on a terminal', {
  skip: hasScript ? false : 'util-linux `script` not found: cannot give the server a terminal',
}, async () => {
  const dir = tempDir();
  const command = `exec "${process.execPath}" "${CLI}" serve --host 127.0.0.1 --port 0 --database-url "${join(dir, 'r.db')}"`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, LOG_LEVEL: 'info', REVIEWCAST_DEMO_IF_EMPTY: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}reviewcast listening url=(http:\S+)/m);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  try {
    const url = await listening;
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.doesNotMatch(out, /"msg":/);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

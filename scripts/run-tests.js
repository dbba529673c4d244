#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's own test runner (Node 20 has no glob support in --test).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });

const filter = process.argv.slice(2);
const files = walk('test')
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Tests that start the CLI run it bundled from the compiled dist/, as the package does: build both first (a no-op when current).
const built = spawnSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

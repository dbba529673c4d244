// npm run bench -- <name>: runs bench/<name>.bench.ts; the names are the files there, so the usage line cannot drift.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const names = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const name = process.argv[2];
if (!name || !names.includes(name)) {
  console.error(`usage: npm run bench -- <${names.join('|')}>`);
  process.exit(2);
}
const r = spawnSync(
  process.execPath,
  ['--max-old-space-size=8192', '--import', 'tsx', `bench/${name}.bench.ts`, ...process.argv.slice(3)],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);

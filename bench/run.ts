// npm run bench -- <name>: runs bench/<name>.bench.ts (import, import-pauses, soak, http, insights, corpus-update, mcp, websub, replicas, hostile, startup, scale, scale-memory, scale-memory-process, search).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const name = process.argv[2];
if (!name || !existsSync(`bench/${name}.bench.ts`)) {
  console.error(
    'usage: npm run bench -- <import|import-pauses|soak|http|insights|corpus-update|mcp|websub|replicas|hostile|startup|scale|scale-memory|scale-memory-process|search>',
  );
  process.exit(2);
}
const r = spawnSync(
  process.execPath,
  ['--max-old-space-size=8192', '--import', 'tsx', `bench/${name}.bench.ts`, ...process.argv.slice(3)],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);

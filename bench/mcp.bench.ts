// npm run bench -- mcp [--reviews 2000] [--limits 5,20] [--seconds 4] [--rounds 3] [--connections 32] [--json out.json]
//
// tools/call search_reviews per second on /mcp, beside the same SDK transport and the same HTTP stack
// (Fastify, the session layer, createMcpHandler) serving a server whose only tool returns at once. The
// ratio is what the tools themselves cost; the target is >= 0.8. Each server runs in its own
// process so autocannon does not share its event loop; both eras and two page sizes are measured,
// because the cost of a call grows with the reviews it returns (twice: structuredContent and text). A third
// row per page size asks search_reviews for the compact view (id, rating, date, 200 characters of text).
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/server';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { z } from 'zod';
import { RevisionScheduler, seedDemo } from '../src/app/index.js';
import { MemoBudget } from '../src/catalog/index.js';
import { buildApp } from '../src/http/index.js';
import { registerMcp } from '../src/mcp/index.js';
import { Store } from '../src/store/index.js';
import { benchDir, fmt, table } from './lib.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SELF = fileURLToPath(import.meta.url);
type Kind = 'search_reviews' | 'no-op';
/** What a row measures: a server and whether the search asks for the compact view. */
const VARIANTS = [
  { tool: 'no-op', kind: 'no-op', compact: false },
  { tool: 'search_reviews', kind: 'search_reviews', compact: false },
  { tool: 'search_reviews compact', kind: 'search_reviews', compact: true },
] as const;
type Tool = (typeof VARIANTS)[number]['tool'];

/** A typical agent query: two filters and a text match, returning a page of `limit` full (or compact) reviews. */
const searchArgs = (limit: number, compact: boolean) => ({ min_rating: 4, query: 'water', limit, ...(compact && { compact }) });

async function serve(kind: Kind, reviews: number): Promise<void> {
  const log = pino({ level: 'silent' });
  const databaseUrl = join(benchDir(), 'reviewcast.db');
  const store = await Store.open(databaseUrl);
  await seedDemo(store, reviews);
  let base = 'http://127.0.0.1';
  const catalog = new RevisionScheduler(store, { publicBaseUrl: () => base, databaseUrl, pollMs: 60_000, log });
  const noop = () => {
    const s = new McpServer({ name: 'noop', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
    s.registerTool('search_reviews', { description: 'returns at once', inputSchema: z.object({}).passthrough() }, () => ({
      content: [{ type: 'text', text: '{}' }],
    }));
    return s;
  };
  const memo = new MemoBudget(64 << 20);
  const app = await buildApp({
    catalog: () => catalog.get(),
    logger: log,
    ready: () => store.ping(),
    memo,
    plugins: [
      (a) =>
        registerMcp(a, {
          catalog: () => catalog.get(),
          config: { mcpSessionTtlMs: 30 * 60_000, mcpMaxSessions: 10_000, mcpSessionsPerMinute: 60, mcpAllowedOrigins: null },
          log,
          rateLimits: store,
          memo,
          ...(kind === 'no-op' && { createServer: noop }),
        }),
    ],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  await catalog.refresh();
  process.send!({ url: `${base}/mcp` });
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Request headers and body for one tools/call in the given era (a session is opened first for the 2025 era). */
async function requestFor(url: string, era: Era, limit: number, compact: boolean) {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: searchArgs(limit, compact) } };
  if (era === '2026-07-28') {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': era,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return {
      headers: { ...HEADERS, 'mcp-protocol-version': era, 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
      body: JSON.stringify({ ...call, params: { ...call.params, _meta: meta } }),
    };
  }
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  await init.arrayBuffer();
  const session = init.headers.get('mcp-session-id')!;
  return { headers: { ...HEADERS, 'mcp-protocol-version': era, 'mcp-session-id': session }, body: JSON.stringify(call) };
}

type Era = '2025-11-25' | '2026-07-28';

/**
 * CPU milliseconds a process has used (user + system, from /proc). On a shared, loaded machine calls/s
 * follow the neighbours; the server's own CPU per call is what the tool costs, whatever the load.
 */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function startServer(kind: Kind, reviews: number): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = fork(SELF, ['--serve', kind, String(reviews)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: (m as { url: string }).url, pid: child.pid!, stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited ${code}`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main(): Promise<void> {
  const reviews = Number(arg('reviews', '2000'));
  const seconds = Number(arg('seconds', '4'));
  const rounds = Number(arg('rounds', '3'));
  const connections = Number(arg('connections', '32'));
  const limits = arg('limits', '5,20').split(',').map(Number);
  // Both servers up at once and measured in alternation, so drift in a shared machine's load hits both alike.
  const servers = { 'no-op': await startServer('no-op', reviews), search_reviews: await startServer('search_reviews', reviews) };
  const rows: { era: Era; limit: number; tool: Tool; rps: number; p50: number; p99: number; cpuMsPerCall: number }[] = [];
  try {
    for (const era of ['2025-11-25', '2026-07-28'] as Era[]) {
      for (const limit of limits) {
        const samples: Record<Tool, autocannon.Result[]> = { 'no-op': [], search_reviews: [], 'search_reviews compact': [] };
        const cpu: Record<Tool, number[]> = { 'no-op': [], search_reviews: [], 'search_reviews compact': [] };
        for (let round = 0; round < rounds; round++) {
          for (const { tool, kind, compact } of VARIANTS) {
            const url = servers[kind].url;
            const req = await requestFor(url, era, limit, compact);
            // Warm-up: JIT and the schema caches, so the measured seconds are steady state.
            if (round === 0) await autocannon({ url, method: 'POST', connections, duration: 1, ...req });
            const cpuBefore = cpuMs(servers[kind].pid);
            const r = await autocannon({ url, method: 'POST', connections, duration: seconds, ...req });
            cpu[tool].push((cpuMs(servers[kind].pid) - cpuBefore) / r.requests.total);
            if (r.non2xx || r.errors) throw new Error(`${tool} ${era}: ${r.non2xx} non-2xx, ${r.errors} errors`);
            samples[tool].push(r);
          }
        }
        for (const { tool } of VARIANTS) {
          const rs = samples[tool];
          rows.push({
            era,
            limit,
            tool,
            rps: median(rs.map((r) => r.requests.average)),
            p50: median(rs.map((r) => r.latency.p50)),
            p99: median(rs.map((r) => r.latency.p99)),
            cpuMsPerCall: median(cpu[tool]),
          });
        }
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.stop();
  }
  // Ratios are truncated, never rounded up: 0.799 reads 0.79×, not 0.80×.
  const ratio = (x: number) => `${fmt(Math.floor(x * 100) / 100, 2)}×`;
  const noop = (era: Era, limit: number) => rows.find((r) => r.era === era && r.limit === limit && r.tool === 'no-op')!;
  console.log(
    `\nMCP tools/call over HTTP: ${reviews} reviews, ${connections} connections, median of ${rounds} × ${seconds}s per row (Node ${process.version})\n`,
  );
  table(
    ['protocol era', 'search limit', 'tool', 'calls/s', 'p50 ms', 'p99 ms', 'vs no-op', 'server CPU µs/call', 'vs no-op (calls per CPU s)'],
    rows.map((r) => [
      r.era,
      r.limit,
      r.tool,
      fmt(r.rps),
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      r.tool === 'no-op' ? '1.00×' : ratio(r.rps / noop(r.era, r.limit).rps),
      fmt(r.cpuMsPerCall * 1000),
      r.tool === 'no-op' ? '1.00×' : ratio(noop(r.era, r.limit).cpuMsPerCall / r.cpuMsPerCall),
    ]),
  );
  const json = arg('json', '');
  if (json) writeFileSync(json, JSON.stringify({ reviews, seconds, rounds, connections, node: process.version, rows }, null, 2));
}

if (process.argv[2] === '--serve') await serve(process.argv[3] as Kind, Number(process.argv[4]));
else await main();

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type RunningServer, seedDemo } from '../../src/app/index.js';
import { TOOLS } from '../../src/mcp/index.js';
import { Store } from '../../src/store/index.js';
import { startTestServer, tempDir } from '../helpers/index.js';

const SEED = 13;

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/mcp`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

describe('an initialize flood cannot evict live MCP sessions', () => {
  let server: RunningServer;
  // Behind a proxy, so each X-Forwarded-For address is its own client.
  before(
    async () =>
      (server = await startTestServer({ TRUST_PROXY: '1', REVIEWCAST_MCP_SESSIONS_PER_MINUTE: 3, REVIEWCAST_MCP_MAX_SESSIONS: 40 })),
  );
  after(() => server?.close());

  const victims: string[] = [];
  const alive = async () =>
    await Promise.all(
      victims.map(async (id, i) => (await post(server.url, LIST, { 'mcp-session-id': id, 'x-forwarded-for': `10.0.0.${i + 1}` })).status),
    );

  test('five clients hold sessions', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await post(server.url, INIT, { 'x-forwarded-for': `10.0.0.${i}` });
      assert.equal(res.status, 200);
      victims.push(res.headers.get('mcp-session-id')!);
    }
  });

  test('one address gets its burst (a third of the per-minute rate: 1 here, the next token 20 s later), then 429 in JSON-RPC form with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await post(server.url, INIT, { 'x-forwarded-for': '192.0.2.66' });
      statuses.push(res.status);
      if (res.status === 429) {
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        const body = await res.json();
        assert.equal(body.jsonrpc, '2.0');
        assert.equal(body.id, 1);
        assert.equal(typeof body.error.message, 'string');
      } else await res.body?.cancel();
    }
    assert.equal(statuses.filter((s) => s === 200).length, 1);
    assert.equal(statuses.filter((s) => s === 429).length, 99);
    assert.equal(await metric(server.url, 'reviewcast_mcp_sessions_refused_total{reason="rate_limited"}'), 99);
    assert.deepEqual(await alive(), [200, 200, 200, 200, 200]);
  });

  test('many addresses fill the cap; then new sessions are refused (503) and no session active within the minute is evicted', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await post(server.url, INIT, { 'x-forwarded-for': `198.51.100.${i}` });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    // 40 slots: 5 victims and 1 from the flood above leave 34.
    assert.equal(statuses.filter((s) => s === 200).length, 34);
    assert.equal(statuses.filter((s) => s === 503).length, 26);
    assert.equal(await metric(server.url, 'reviewcast_mcp_sessions_refused_total{reason="full"}'), 26);
    assert.deepEqual(await alive(), [200, 200, 200, 200, 200]);
  });
});

// ---- a seeded fuzzer over /mcp: both eras, any method, params, ids, headers and broken bodies ----

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const TOOL_NAMES = TOOLS.map((t) => t.name);
const DOCUMENTED = new Set([200, 202, 204, 400, 403, 404, 405, 406, 413, 415, 429, 503]);

describe('MCP fuzz', () => {
  let server: RunningServer;
  let session: string;
  before(async () => {
    const db = join(tempDir(), 'mcp-fuzz.db');
    const store = await Store.open(db);
    await seedDemo(store, 200);
    await store.close();
    server = await startTestServer({ DATABASE_URL: db, REVIEWCAST_DEMO_IF_EMPTY: false, REVIEWCAST_MCP_SESSIONS_PER_MINUTE: 100_000 });
    const res = await post(server.url, INIT);
    session = res.headers.get('mcp-session-id')!;
  });
  after(() => server?.close());

  const searchArgs = fc.record(
    {
      rating: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(2.5), fc.constant('5')),
      min_rating: fc.oneof(fc.double({ min: 0, max: 6, noNaN: true }), fc.constant(null)),
      since: fc.constantFrom('2024-01-01', '2025-02-30', 'x', '2026-06-01'),
      until: fc.constantFrom('2026-12-31', '2023-01-01', ''),
      query: fc.oneof(fc.constantFrom('leak', 'the', '\u0000', '%', ''), fc.string({ maxLength: 8 })),
      mentions_technician: fc.constantFrom('mike-delgado', 'Sarah', 'nobody', ''),
      mentions_service: fc.constantFrom('drain-cleaning', 'Water heater', 'nothing'),
      limit: fc.oneof(fc.integer({ min: -1, max: 101 }), fc.constant('20')),
    },
    { requiredKeys: [] },
  );
  const validSearchArgs = fc.record(
    {
      rating: fc.integer({ min: 1, max: 5 }),
      min_rating: fc.constantFrom(1, 2.5, 4, 4.5, 5),
      since: fc.constantFrom('2024-01-01', '2025-06-30', '2026-06-01'),
      until: fc.constantFrom('2026-12-31', '2025-12-31'),
      query: fc.oneof(fc.constantFrom('leak', 'the', 'on time', '%', 'ÉTÉ'), fc.string({ maxLength: 3 })),
      mentions_technician: fc.constantFrom('mike-delgado', 'Sarah', 'TOM BECKER', 'nobody'),
      mentions_service: fc.constantFrom('drain-cleaning', 'Water heater', 'nothing'),
      limit: fc.integer({ min: 1, max: 100 }),
    },
    { requiredKeys: [] },
  );
  const params = fc.oneof(
    fc.record(
      {
        name: fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ maxLength: 12 })),
        arguments: fc.oneof(searchArgs, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
      },
      { requiredKeys: ['name'] },
    ),
    fc.record({
      uri: fc.oneof(
        fc.constantFrom(
          'reviewcast://business',
          'reviewcast://insights',
          'reviewcast://reviews/x',
          'reviewcast://aspects/%ZZ',
          'file:///etc/passwd',
          'http://169.254.169.254/',
        ),
        fc.string({ maxLength: 20 }),
      ),
    }),
    fc.record({
      ref: fc.jsonValue({ maxDepth: 2 }),
      argument: fc.record({ name: fc.string({ maxLength: 8 }), value: fc.string({ maxLength: 8 }) }),
    }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(undefined),
  );
  const message = fc.record({
    method: fc.oneof(
      fc.constantFrom(
        'initialize',
        'tools/list',
        'tools/call',
        'resources/list',
        'resources/read',
        'resources/templates/list',
        'prompts/list',
        'prompts/get',
        'completion/complete',
        'ping',
        'server/discover',
        'notifications/initialized',
        'logging/setLevel',
        'tasks/get',
      ),
      fc.string({ maxLength: 12 }),
    ),
    params,
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.constant(undefined), fc.constant({ a: 1 })),
  });
  const era = fc.constantFrom('session', 'stateless', 'no-session', 'bogus-session');
  const shape = fc.constantFrom('single', 'batch', 'junk', 'empty');
  const headers = fc.record({
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', ''),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*', 'text/html', ''),
    'mcp-protocol-version': fc.constantFrom('2025-11-25', '2026-07-28', '2025-03-26', '1999-01-01', 'x', ''),
    origin: fc.constantFrom('', 'https://evil.example', 'http://localhost:1'),
  });

  test('any request: no 5xx, a documented status, a JSON-RPC body on every JSON answer', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        message,
        era,
        shape,
        headers,
        fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'),
        async (m, e, sh, h, method) => {
          const msg: Record<string, unknown> = { jsonrpc: '2.0', method: m.method };
          if (m.id !== undefined) msg.id = m.id;
          if (m.params !== undefined)
            msg.params =
              e === 'stateless' && m.params && typeof m.params === 'object' && !Array.isArray(m.params)
                ? { ...m.params, _meta: META }
                : m.params;
          const body =
            sh === 'single' ? JSON.stringify(msg) : sh === 'batch' ? JSON.stringify([msg, msg]) : sh === 'junk' ? '{"jsonrpc":"2.0",' : '';
          const hdrs: Record<string, string> = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== ''));
          if (e === 'session') hdrs['mcp-session-id'] = session;
          if (e === 'bogus-session') hdrs['mcp-session-id'] = 'x'.repeat(43);
          if (e === 'stateless')
            Object.assign(hdrs, {
              'mcp-method': m.method,
              ...(typeof (m.params as { name?: unknown })?.name === 'string' ? { 'mcp-name': (m.params as { name: string }).name } : {}),
            });
          let res: Response;
          try {
            res = await fetch(`${server.url}/mcp`, { method, headers: hdrs, ...(method === 'GET' ? {} : { body }) });
          } catch {
            return; // fetch refuses some header values itself; nothing was sent
          }
          const text = await res.text();
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          const where = `${method} ${e} ${sh} ${JSON.stringify(hdrs)} ${body.slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
          assert.ok(res.status < 500, where);
          assert.ok(DOCUMENTED.has(res.status), where);
          const type = res.headers.get('content-type') ?? '';
          if (!text) return;
          const payloads = type.startsWith('text/event-stream')
            ? text
                .split('\n')
                .filter((l) => l.startsWith('data:'))
                .map((l) => l.slice(5))
            : [text];
          if (!type.includes('json') && !type.startsWith('text/event-stream')) {
            // Only the REST 405/404 for methods /mcp does not route (PUT) answer in the REST shape.
            assert.equal(method, 'PUT', where);
            return;
          }
          for (const p of payloads) {
            const parsed = JSON.parse(p);
            for (const one of Array.isArray(parsed) ? parsed : [parsed]) {
              if (method === 'PUT') continue;
              assert.equal(one.jsonrpc, '2.0', where);
              assert.ok('result' in one !== 'error' in one, where);
              if (one.error) assert.ok(Number.isInteger(one.error.code) && typeof one.error.message === 'string', where);
            }
          }
        },
      ),
      { seed: SEED, numRuns: 700 },
    );
    // The fuzzer reached the success path and every kind of refusal, not just one of them.
    for (const status of [200, 400, 403, 404, 405, 406, 415]) assert.ok(seen.has(status), `no ${status} among ${[...seen]}`);
  });

  test('search_reviews agrees with the REST search for any arguments both accept', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(validSearchArgs, validSearchArgs, searchArgs), async (args) => {
        const res = await post(
          server.url,
          { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_reviews', arguments: args, _meta: META } },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
        );
        assert.equal(res.status, 200);
        const { result } = await res.json();
        const qs = new URLSearchParams(
          Object.entries(args)
            .filter(([, v]) => v !== null)
            .map(([k, v]) => [k, String(v)]),
        ).toString();
        const rest = await fetch(`${server.url}/api/reviews/search?${qs}`);
        if (result.isError) return; // MCP rejects by type (a string "5"), REST converts text; only common ground is compared
        if (rest.status !== 200) return;
        const expected = await rest.json();
        assert.deepEqual(result.structuredContent, expected, qs);
        compared++;
      }),
      { seed: SEED, numRuns: 200 },
    );
    assert.ok(compared >= 100, `only ${compared} answers compared`);
  });
});

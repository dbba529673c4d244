import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { startTestServer } from '../helpers/server.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } };
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
  before(async () => (server = await startTestServer({ TRUST_PROXY: '1', REVIEWCAST_MCP_SESSIONS_PER_MINUTE: 3, REVIEWCAST_MCP_MAX_SESSIONS: 40 })));
  after(() => server?.close());

  const victims: string[] = [];
  const alive = async () => (await Promise.all(victims.map(async (id, i) => (await post(server.url, LIST, { 'mcp-session-id': id, 'x-forwarded-for': `10.0.0.${i + 1}` })).status)));

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

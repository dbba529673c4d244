import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { warmUp } from '../../src/mcp/index.js';
import { startTestServer } from '../helpers/index.js';

// startServer warms the MCP endpoint up before it listens, through a session table and limit of its own.
let server: RunningServer;
before(async () => {
  // 3 a minute is a burst of one: a warm-up that took this address's token would make the first initialize 429.
  server = await startTestServer({ REVIEWCAST_MCP_SESSIONS_PER_MINUTE: 3 });
});
after(() => server.close());

const initialize = (id: number) =>
  fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  });

const metric = async (name: string) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1]);
};

test('the warm-up takes no session, token or count from clients', async () => {
  assert.equal(await metric('reviewcast_mcp_sessions_created_total'), 0);
  const first = await initialize(1);
  await first.arrayBuffer();
  assert.equal(first.status, 200, 'the first client gets the burst token');
  const second = await initialize(2);
  await second.arrayBuffer();
  assert.equal(second.status, 429, 'the burst is one');
  assert.equal(await metric('reviewcast_mcp_sessions_created_total'), 1);
  assert.equal(await metric('reviewcast_mcp_sessions_refused_total{reason="rate_limited"}'), 1);
});

test('every warm-up exchange is a valid MCP request in both eras', async () => {
  // Against the real endpoint of another server (its own token bucket), rewriting only the origin.
  const other = await startTestServer();
  try {
    const statuses = await warmUp((request) => fetch(new Request(`${other.url}/mcp`, request)));
    assert.deepEqual(statuses, [200, 202, 200, 200, 200]);
  } finally {
    await other.close();
  }
});

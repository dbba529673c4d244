import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import { startTestServer } from '../helpers/index.js';
import { connectClient } from './helpers.js';

// The composition root (startServer, as `reviewcast serve` runs it) mounts /mcp with the configured limits.
let server: RunningServer;
before(async () => {
  server = await startTestServer({ REVIEWCAST_MCP_MAX_SESSIONS: 2 });
});
after(() => server.close());

test('startServer serves MCP in both eras', async () => {
  for (const era of ['session', 'stateless'] as const) {
    const { client, transport } = await connectClient(`${server.url}/mcp`, era);
    const r = await client.callTool({ name: 'get_business', arguments: {} });
    assert.equal((r.structuredContent as { business: { name: string } }).business.name, server.catalog.get().business.name);
    // Ended, so the cap test below starts from no live session.
    if (era === 'session') await transport.terminateSession();
    await client.close();
  }
});

test('the configured session cap applies: past it a new session is refused, live ones stay', async () => {
  const sessions: string[] = [];
  for (let i = 0; i < 2; i++) {
    const { transport, client } = await connectClient(`${server.url}/mcp`, 'session');
    sessions.push(transport.sessionId!);
    await client.close();
  }
  await assert.rejects(connectClient(`${server.url}/mcp`, 'session'), 'a third session is refused while both are recent');
  const alive = await Promise.all(
    sessions.map(async (id) => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      return res.status;
    }),
  );
  assert.deepEqual(alive, [200, 200]);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  assert.match(metrics, /^reviewcast_mcp_sessions_refused_total\{reason="full"\} 1$/m);
});

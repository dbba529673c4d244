import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InMemorySessionStore, MAX_BODY_BYTES } from '../../src/mcp/index.js';
import { connectClient, type McpTestServer, rawPost, startMcpServer } from './helpers.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** A 2026-07-28 request: the per-request `_meta` envelope instead of a session. */
const modern = (method: string, params: Record<string, unknown> = {}, id = 3) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28' };

async function initialize(url: string): Promise<string> {
  const res = await rawPost(url, INIT);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const id = res.headers.get('mcp-session-id');
  assert.ok(id);
  return id;
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: number; message: string } }).error;

describe('session era (2025-11-25) over HTTP', () => {
  let server: McpTestServer;
  before(async () => (server = await startMcpServer({}, 50)));
  after(() => server.close());

  test('initialize returns a random visible-ASCII Mcp-Session-Id that later requests must send', async () => {
    const a = await initialize(server.mcpUrl);
    const b = await initialize(server.mcpUrl);
    assert.notEqual(a, b);
    assert.match(a, /^[\x21-\x7e]{32,}$/);

    const ok = await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': a, 'mcp-protocol-version': '2025-11-25' });
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { result: { tools: unknown[] } }).result.tools.length, 14);

    const missing = await rawPost(server.mcpUrl, LIST);
    assert.equal(missing.status, 400);
    assert.match((await errorOf(missing)).message, /Mcp-Session-Id/);

    const unknown = await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': 'not-a-session' });
    assert.equal(unknown.status, 404);
  });

  test('DELETE ends the session; it is then unknown (404)', async () => {
    const id = await initialize(server.mcpUrl);
    const del = await fetch(server.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    assert.equal(del.status, 200);
    assert.equal((await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': id })).status, 404);
    assert.equal((await fetch(server.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': id } })).status, 404);
  });

  test('GET has no server-initiated stream to offer: 405, with or without a session', async () => {
    const id = await initialize(server.mcpUrl);
    const variants: Record<string, string>[] = [{ accept: 'text/event-stream', 'mcp-session-id': id }, { accept: 'text/event-stream' }];
    for (const headers of variants) {
      const res = await fetch(server.mcpUrl, { headers });
      assert.equal(res.status, 405);
      assert.match(res.headers.get('allow') ?? '', /POST/);
    }
  });

  test('the official client: connect, call, terminate', async () => {
    const { client, transport } = await connectClient(server.mcpUrl, 'session');
    assert.ok(transport.sessionId);
    assert.equal((await client.listTools()).tools.length, 14);
    await transport.terminateSession();
    assert.equal((await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': transport.sessionId ?? 'gone' })).status, 404);
    await client.close();
  });

  test('Accept, Content-Type, malformed JSON and protocol version get the spec status codes', async () => {
    const id = await initialize(server.mcpUrl);
    const notAcceptable = await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': id, accept: 'application/json' });
    assert.equal(notAcceptable.status, 406);

    const wrongType = await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': id, 'content-type': 'text/plain' });
    assert.equal(wrongType.status, 415);

    const malformed = await rawPost(server.mcpUrl, '{"jsonrpc": "2.0", "id": 1,', { 'mcp-session-id': id });
    assert.equal(malformed.status, 400);
    assert.equal((await errorOf(malformed)).code, -32700);

    const badVersion = await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' });
    assert.equal(badVersion.status, 400);
    assert.match((await errorOf(badVersion)).message, /protocol version/i);
  });

  test('every session-era revision: initialize, then tools/call in that session', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const init = await rawPost(server.mcpUrl, { ...INIT, params: { ...INIT.params, protocolVersion: version } });
      assert.equal(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion, version);
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
      assert.equal((await rawPost(server.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
      const call = await rawPost(
        server.mcpUrl,
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get_faq', arguments: {} } },
        headers,
      );
      assert.equal(call.status, 200, version);
      const body = (await call.json()) as { result: { content: { text: string }[] } };
      assert.deepEqual(JSON.parse(body.result.content[0].text).faq, server.catalog.get().insights.faq);
    }
  });

  test('an Authorization header is ignored: nothing here needs a token', async () => {
    const res = await rawPost(server.mcpUrl, INIT, { authorization: 'Bearer whatever' });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });

  test('initialize with an unknown revision negotiates a supported one', async () => {
    const res = await rawPost(server.mcpUrl, { ...INIT, params: { ...INIT.params, protocolVersion: '2024-01-01' } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: { protocolVersion: string } };
    assert.match(body.result.protocolVersion, /^2025-/);
  });
});

describe('stateless era (2026-07-28) over HTTP', () => {
  let server: McpTestServer;
  before(async () => (server = await startMcpServer({}, 50)));
  after(() => server.close());

  test('server/discover answers without any session', async () => {
    const res = await rawPost(server.mcpUrl, modern('server/discover'), { ...MODERN_HEADERS, 'mcp-method': 'server/discover' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    const body = (await res.json()) as {
      result: { supportedVersions: string[]; capabilities: Record<string, unknown>; _meta: Record<string, { name: string }> };
    };
    assert.ok(body.result.supportedVersions.includes('2026-07-28'));
    assert.ok(body.result.capabilities.tools);
    assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'reviewcast');
  });

  test('tools/call with the envelope and the Mcp-Method / Mcp-Name headers', async () => {
    const res = await rawPost(server.mcpUrl, modern('tools/call', { name: 'get_business', arguments: {} }), {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': 'get_business',
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { result: { structuredContent: { business: { name: string } } } };
    assert.equal(body.result.structuredContent.business.name, server.catalog.get().business.name);
  });

  test('headers that disagree with the body are rejected (400, -32020)', async () => {
    const res = await rawPost(server.mcpUrl, modern('tools/call', { name: 'get_business', arguments: {} }), {
      ...MODERN_HEADERS,
      'mcp-method': 'tools/call',
      'mcp-name': 'get_faq',
    });
    assert.equal(res.status, 400);
    assert.equal((await errorOf(res)).code, -32020);
  });

  test('an unsupported revision in the envelope is a 400 naming the supported ones', async () => {
    const body = modern('tools/list');
    (body.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const res = await rawPost(server.mcpUrl, body, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
    assert.equal(res.status, 400);
    const err = (await res.json()) as { error: { data?: { supported?: string[] } } };
    assert.ok(err.error.data?.supported?.includes('2026-07-28'));
  });

  test('initialize is not a method of this revision: 404 method not found', async () => {
    const res = await rawPost(server.mcpUrl, modern('initialize', INIT.params), { ...MODERN_HEADERS, 'mcp-method': 'initialize' });
    assert.equal(res.status, 404);
    assert.equal((await errorOf(res)).code, -32601);
  });

  test('the official client pinned to 2026-07-28 and in auto mode', async () => {
    for (const era of ['stateless', 'auto'] as const) {
      const { client, transport } = await connectClient(server.mcpUrl, era);
      assert.equal(transport.sessionId, undefined);
      const r = await client.callTool({ name: 'list_aspects', arguments: {} });
      assert.ok(r.structuredContent);
      await client.close();
    }
  });
});

describe('both eras: size limit and Origin', () => {
  let server: McpTestServer;
  before(async () => (server = await startMcpServer({ mcpAllowedOrigins: null }, 50)));
  after(() => server.close());

  test('a body over 1 MiB is refused with 413 before it is parsed', async () => {
    const big = JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
    const res = await rawPost(server.mcpUrl, big);
    assert.equal(res.status, 413);
    const modernBig = await rawPost(
      server.mcpUrl,
      JSON.stringify({ ...modern('tools/list'), pad: 'x'.repeat(MAX_BODY_BYTES) }),
      MODERN_HEADERS,
    );
    assert.equal(modernBig.status, 413);
  });

  test('a foreign Origin is 403; loopback and the public origin pass; no Origin passes', async () => {
    const evil = await rawPost(server.mcpUrl, INIT, { origin: 'http://evil.example.com', host: 'evil.example.com' });
    assert.equal(evil.status, 403);
    const evilModern = await rawPost(server.mcpUrl, modern('server/discover'), {
      ...MODERN_HEADERS,
      'mcp-method': 'server/discover',
      origin: 'https://evil.example.com',
    });
    assert.equal(evilModern.status, 403);
    for (const origin of ['http://localhost:5173', server.url]) {
      const res = await rawPost(server.mcpUrl, INIT, { origin });
      assert.equal(res.status, 200, origin);
      await res.body?.cancel();
    }
    assert.equal((await rawPost(server.mcpUrl, INIT)).status, 200);
  });

  test('a configured allow-list admits exactly its origins', async () => {
    const listed = await startMcpServer({ mcpAllowedOrigins: ['https://app.example.com'] }, 20);
    try {
      assert.equal((await rawPost(listed.mcpUrl, INIT, { origin: 'https://app.example.com' })).status, 200);
      assert.equal((await rawPost(listed.mcpUrl, INIT, { origin: 'http://localhost:3000' })).status, 403);
      assert.equal((await rawPost(listed.mcpUrl, INIT, { origin: 'https://app.example.com.evil.net' })).status, 403);
    } finally {
      await listed.close();
    }
  });
});

describe('session expiry and cap', () => {
  test('an idle session expires after the TTL (404), an active one stays', async () => {
    // The sessions' clock is the test's: a slow machine cannot let the active session idle past the TTL.
    let now = Date.now();
    const sessions = new InMemorySessionStore({ ttlMs: 400, maxSessions: 100 }, () => now);
    const server = await startMcpServer({}, 20, sessions);
    try {
      const idle = await initialize(server.mcpUrl);
      const active = await initialize(server.mcpUrl);
      for (let i = 0; i < 4; i++) {
        now += 150;
        assert.equal((await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': active })).status, 200);
      }
      assert.equal((await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': idle })).status, 404);
    } finally {
      await server.close();
    }
  });

  test('past the cap a new session is refused (503, JSON-RPC) while every session was active within the minute; none is evicted', async () => {
    const server = await startMcpServer({ mcpMaxSessions: 3 }, 20);
    try {
      const [a, b, c] = [await initialize(server.mcpUrl), await initialize(server.mcpUrl), await initialize(server.mcpUrl)];
      const status = async (id: string) => (await rawPost(server.mcpUrl, LIST, { 'mcp-session-id': id })).status;
      // Many clients that never DELETE: every one is refused, and the three live sessions stay.
      const refused = await Promise.all(Array.from({ length: 20 }, () => rawPost(server.mcpUrl, INIT)));
      for (const res of refused) {
        assert.equal(res.status, 503);
        assert.equal(res.headers.get('retry-after'), '60');
        const body = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
        assert.equal(body.jsonrpc, '2.0');
        assert.equal(body.id, 1);
        assert.match(body.error.message, /active within the last minute/);
      }
      assert.deepEqual([await status(a), await status(b), await status(c)], [200, 200, 200]);
    } finally {
      await server.close();
    }
  });
});

describe('resources, prompts and completions', () => {
  let server: McpTestServer;
  before(async () => (server = await startMcpServer({}, 50)));
  after(() => server.close());

  for (const era of ['session', 'stateless'] as const) {
    test(`${era}: business, insights and review resources; aspect, technician and service completions`, async () => {
      const { client } = await connectClient(server.mcpUrl, era);
      const c = server.catalog.get();
      try {
        const listed = (await client.listResources()).resources.map((r) => r.uri);
        assert.ok(listed.includes('reviewcast://business') && listed.includes('reviewcast://insights'));
        const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
        assert.ok(templates.includes('reviewcast://reviews/{id}'));

        const business = await client.readResource({ uri: 'reviewcast://business' });
        assert.equal(JSON.parse((business.contents[0] as { text: string }).text).business.name, c.business.name);
        const insights = await client.readResource({ uri: 'reviewcast://insights' });
        assert.equal((insights.contents[0] as { text: string }).text, c.representations.insights.body.toString());
        const review = await client.readResource({ uri: `reviewcast://reviews/${c.reviews[0].id}` });
        assert.deepEqual(JSON.parse((review.contents[0] as { text: string }).text), c.reviews[0]);
        await assert.rejects(client.readResource({ uri: 'reviewcast://reviews/01AAAAAAAAAAAAAAAAAAAAAAAA' }));
        await assert.rejects(client.readResource({ uri: 'reviewcast://aspects/%E0%A4' }), /Unknown aspect/);

        const aspect = c.insights.aspects[0];
        const done = await client.complete({
          ref: { type: 'ref/resource', uri: 'reviewcast://aspects/{aspect}' },
          argument: { name: 'aspect', value: aspect.id.slice(0, 3) },
        });
        assert.ok(done.completion.values.includes(aspect.id));
        const tech = c.business.technicians[0];
        const byName = await client.complete({
          ref: { type: 'ref/prompt', name: 'technician_report' },
          argument: { name: 'technician', value: tech.name.slice(0, 3).toLowerCase() },
        });
        assert.ok(byName.completion.values.includes(tech.id));
        const svc = c.business.services[0];
        const services = await client.complete({
          ref: { type: 'ref/resource', uri: 'reviewcast://services/{service}' },
          argument: { name: 'service', value: '' },
        });
        assert.ok(services.completion.values.includes(svc.id));

        const prompt = await client.getPrompt({ name: 'aspect_report', arguments: { aspect: aspect.label } });
        assert.equal(prompt.messages.length, 2);
        await assert.rejects(client.getPrompt({ name: 'service_report', arguments: { service: 'nope' } }), /Unknown service "nope"/);
      } finally {
        await client.close();
      }
    });
  }
});

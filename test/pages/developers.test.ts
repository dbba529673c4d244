import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { RunningServer } from '../../src/app/index.js';
import { renderDevelopers } from '../../src/pages/index.js';
import { HubConfigSchema } from '../../src/websub/index.js';
import { startTestServer } from '../helpers/index.js';

let server: RunningServer;
after(() => server?.close());
before(async () => {
  server = await startTestServer({ REVIEWCAST_HUB_REQUESTS_PER_MINUTE: 90 });
});

const defaults = HubConfigSchema.parse({});

describe('/developers states the running hub limits', () => {
  test('started with REVIEWCAST_HUB_REQUESTS_PER_MINUTE=90, the page says 90 (bursts of 30), not the default 30', async () => {
    const res = await fetch(`${server.url}/developers`);
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.ok(text.includes('The hub accepts 90 subscription requests a minute per client address (bursts of 30)'), 'running limit stated');
    assert.ok(!text.includes('accepts 30 subscription requests'), 'default limit not stated');
  });

  test('the hub itself enforces the limit the page states: a burst of 30, then 429', async () => {
    // The per-client limit is checked before anything else, so an empty body is enough to spend a token.
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${server.url}/api/websub/hub`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses.slice(0, 30), Array(30).fill(415), 'the whole burst of 30 passes the limiter');
    assert.ok(statuses.includes(429), 'beyond the burst the hub answers 429');
  });
});

describe('/developers tool list', () => {
  test('renders the tools it is given, with JSON Schema or Zod input schemas', () => {
    const tools = [
      {
        name: 'search_reviews',
        title: 'Search reviews',
        description: 'Filters combine with AND; `matched` counts every match.',
        inputSchema: {
          type: 'object',
          properties: { rating: { type: 'integer', minimum: 1, maximum: 5, description: 'exact star rating' } },
        },
      },
      {
        name: 'get_business',
        title: 'Business profile',
        description: 'The business.',
        inputSchema: z.object({ verbose: z.boolean().optional().describe('more detail') }),
      },
      { name: 'get_aggregate', description: 'No arguments.', inputSchema: { type: 'object', properties: {} } },
    ];
    const out = renderDevelopers(server.catalog.get(), tools, defaults).value;
    assert.ok(out.includes('id="tool-search_reviews"') && out.includes('<code>search_reviews</code>'));
    assert.ok(out.includes('<p>Filters combine with AND; <code>matched</code> counts every match.</p>'));
    assert.ok(out.includes('<code>rating</code></th><td>integer 1–5</td>'));
    assert.ok(out.includes('<code>verbose</code></th><td>boolean</td><td><span class="optional">optional</span> more detail</td>'));
    assert.ok(out.includes('id="tool-get_aggregate"'));
    assert.ok(renderDevelopers(server.catalog.get(), [], defaults).value.includes('No tools are registered on this server.'));
  });
});

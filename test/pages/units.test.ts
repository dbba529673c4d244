import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { RunningServer } from '../../src/app/index.js';
import type { Review } from '../../src/domain/index.js';
import {
  cardContext,
  clock,
  dayRange,
  formatCount,
  formatDate,
  html,
  jsonScript,
  namesOf,
  prefersHtml,
  renderDevelopers,
  reviewCard,
} from '../../src/pages/index.js';
import { startTestServer } from '../helpers/index.js';

let server: RunningServer;
after(() => server?.close());
before(async () => {
  server = await startTestServer();
});

describe('template escaping', () => {
  test('interpolated text never becomes markup; Html values and arrays compose', () => {
    const evil = `<script>alert("x")</script>&'`;
    assert.equal(
      html`<p title="${evil}">${evil}</p>`.value,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    assert.equal(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value, '<ul><li>a</li><li>b</li></ul>');
    assert.equal(html`${null}${undefined}${false}${0}`.value, '0');
  });

  test('JSON in a script block cannot close the element', () => {
    const out = jsonScript({ text: '</script><script>alert(1)</script>\u2028' }).value;
    assert.ok(!out.includes('</script'));
    assert.deepEqual(JSON.parse(out), { text: '</script><script>alert(1)</script>\u2028' });
  });

  test('a hostile review renders inert', () => {
    const c = server.catalog.get();
    const hostile: Review = {
      ...c.reviews[0],
      author: '<img src=x onerror=alert(1)>',
      text: '"><script>alert(1)</script>',
      owner_reply: { text: '<b>hi</b>', date: '2025-01-01' },
    };
    const out = reviewCard(hostile, cardContext(c, namesOf(c), 3)).value;
    assert.ok(!out.includes('<script>') && !out.includes('<img') && !out.includes('<b>'));
    assert.ok(out.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });
});

describe('formatting', () => {
  test('dates, counts, days and clock times are locale-independent', () => {
    assert.equal(formatDate('2026-10-31'), 'Oct 31, 2026');
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(dayRange(['Mo', 'Tu', 'We', 'Th', 'Fr']), 'Mon–Fri');
    assert.equal(dayRange(['Sa', 'Mo']), 'Mon, Sat');
    assert.equal(clock('07:00'), '7 am');
    assert.equal(clock('18:30'), '6:30 pm');
    assert.equal(clock('12:00'), 'noon');
    assert.equal(clock('24:00'), 'midnight');
  });
});

describe('content negotiation for the 404', () => {
  test('browsers get HTML; API clients, curl and no Accept get JSON', () => {
    assert.equal(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), true);
    assert.equal(prefersHtml('application/json'), false);
    assert.equal(prefersHtml('*/*'), false);
    assert.equal(prefersHtml(undefined), false);
    assert.equal(prefersHtml('application/json, text/html;q=0.5'), false);
    assert.equal(prefersHtml('text/html;q=0'), false);
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
    const out = renderDevelopers(server.catalog.get(), tools).value;
    assert.ok(out.includes('id="tool-search_reviews"') && out.includes('<code>search_reviews</code>'));
    assert.ok(out.includes('<p>Filters combine with AND; <code>matched</code> counts every match.</p>'));
    assert.ok(out.includes('<code>rating</code></th><td>integer 1–5</td>'));
    assert.ok(out.includes('<code>verbose</code></th><td>boolean</td><td><span class="optional">optional</span> more detail</td>'));
    assert.ok(out.includes('id="tool-get_aggregate"'));
    assert.ok(renderDevelopers(server.catalog.get(), []).value.includes('No tools are registered on this server.'));
  });
});

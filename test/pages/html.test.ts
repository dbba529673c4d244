import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/app/index.js';
import type { Review } from '../../src/domain/index.js';
import { cardContext, html, jsonScript, namesOf, reviewCard } from '../../src/pages/index.js';
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

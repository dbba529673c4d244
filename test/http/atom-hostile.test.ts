import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import type { RunningServer } from '../../src/app/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { importRows } from '../../src/ingest/index.js';
import { Store } from '../../src/store/index.js';
import { client, startTestServer, tempDir } from '../helpers/index.js';

const HOSTILE = [
  'Fixed <script>alert(1)</script> & left </content> behind',
  'CDATA end ]]> and more ]]]]><![CDATA[>',
  'Control chars \u0000\u0001\u0008\u000B\u000C\u001F\uFFFE here',
  'Emoji 🚰🔧👍🏽 and a lone surrogate \uD83D end',
  'RTL: שירות מצוין, الخدمة ممتازة \u202Eevil\u202C',
  '"Quotes" and \'apostrophes\' & entities &amp; &lt;',
];

let url: string;
let server: RunningServer;
after(() => server?.close());
before(async () => {
  const file = join(tempDir(), 'hostile.db');
  const store = await Store.open(file);
  await store.setBusiness({ ...demoBusiness(), name: 'Tap & <Drain> "Co"' }, '2026-01-01T00:00:00.000Z');
  const rows = HOSTILE.map((text, i) => ({
    index: i,
    value: {
      source: 'direct',
      author: `A<${i}>&`,
      rating: 5,
      date: `2026-01-0${i + 1}`,
      text,
      title: i === 0 ? '<b>Title</b> & ]]>' : null,
    },
  }));
  const report = await importRows(store, rows, []);
  assert.equal(report.added, HOSTILE.length, JSON.stringify(report.invalid));
  await store.close();
  server = await startTestServer({ DATABASE_URL: file, REVIEWCAST_DEMO_IF_EMPTY: false });
  url = server.url;
});

test('Atom stays well-formed and round-trips hostile review text', async () => {
  const res = await client(url).get('/feed.xml');
  assert.equal(XMLValidator.validate(res.text), true, 'well-formed XML');
  const feed = parseFeed(res.text);
  assert.equal(feed.title, 'Tap & <Drain> "Co" — customer reviews');
  const contents = feed.items.map((i) => i.content ?? i.description ?? '');
  assert.ok(contents.some((c) => c.includes('<script>alert(1)</script> & left </content> behind')));
  assert.ok(contents.some((c) => c.includes('CDATA end ]]> and more')));
  assert.ok(
    contents.some((c) => c.includes('Control chars  here')),
    'forbidden characters dropped, the rest kept',
  );
  assert.ok(contents.some((c) => c.includes('🚰🔧👍🏽')));
  assert.ok(contents.some((c) => c.includes('שירות מצוין, الخدمة ممتازة')));
  // Text that spells an entity is text: each `&` is escaped, so an XML parser reads it back as written (the
  // feed parser decodes entities in content a second time, so the bytes are checked).
  assert.ok(res.text.includes(`"Quotes" and 'apostrophes' &amp; entities &amp;amp; &amp;lt;</content>`));
});

test('JSON Feed carries the same hostile text exactly', async () => {
  const feed = (await client(url).get('/api/feed.json')).json();
  const texts = feed.items.map((i: { content_text: string }) => i.content_text);
  assert.ok(texts.includes(HOSTILE[1]));
  assert.ok(texts.includes(HOSTILE[0]));
});

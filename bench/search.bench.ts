// The search path in process (issue 16), on a database made by `npm run bench -- scale --keep DIR`: the
// same distinct 5-filter searches as the scale bench, each rendered the old way (JSON.stringify of the
// result objects, then a SHA-256 of the bytes for the ETag) and the current way (the page's reviews as
// views of the rendered /reviews.json, the hash-tree digest), checked equal, timed in turns.
//   npm run bench -- search --database-url DIR/scale.db [--queries 20000]
import { loadavg } from 'node:os';
import { type Catalog, PER_URL, Representation } from '../src/catalog/index.js';
import { type SearchQuery, SearchQuerySchema } from '../src/domain/index.js';
import { fmt, table } from './lib.js';
import { startInProcess } from './servers.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const db = arg('database-url', '');
const N = Number(arg('queries', '20000'));
if (!db) throw new Error('usage: npm run bench -- search --database-url DIR/scale.db');

const server = await startInProcess(db);
const c: Catalog = server.catalog.get();

// The scale bench's distinct searches (limits 4–100).
const words = ['leak', 'on time', 'price', 'drain', 'clean', 'late', 'explained', 'water heater', 'friendly', 'mess'];
const techs = ['mike', 'sarah', 'jamal', 'tom', 'ana', 'kevin', 'priya', 'dave'];
const queries: SearchQuery[] = Array.from({ length: N }, (_, i) =>
  SearchQuerySchema.parse({
    min_rating: 1 + (i % 5),
    since: `${2022 + (i % 5)}-${String(1 + (i % 12)).padStart(2, '0')}-01`,
    query: words[i % words.length],
    mentions_technician: techs[(i >> 3) % techs.length],
    limit: 4 + (i % 97),
  }),
);

const JSON_TYPE = 'application/json; charset=utf-8';
const paths = {
  'JSON.stringify of the result objects (before)': (q: SearchQuery) =>
    new Representation(JSON_TYPE, Buffer.from(JSON.stringify(c.search(q))), c.lastModified, { policy: PER_URL }),
  'views of the reviews in /reviews.json (after)': (q: SearchQuery) => {
    const page = c.searchPage(q);
    return new Representation(JSON_TYPE, page.parts, c.lastModified, { policy: PER_URL, digest: page.digest });
  },
  'index only (searchPositions, no rendering)': (q: SearchQuery) => c.index.searchPositions(q),
};

// Same bytes both ways.
for (const q of queries.slice(0, 500))
  if (!paths['JSON.stringify of the result objects (before)'](q).body.equals(Buffer.concat(c.searchPage(q).parts)))
    throw new Error(`different bytes for ${JSON.stringify(q)}`);

const times = new Map<string, number[]>(Object.keys(paths).map((k) => [k, []]));
// Rounds alternate the paths so a shared machine's load falls on both alike.
for (let round = 0; round < 4; round++)
  for (const [name, run] of Object.entries(paths)) {
    const t = times.get(name)!;
    for (const q of queries) {
      const start = process.hrtime.bigint();
      run(q);
      t.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const rows = [...times].map(([name, t]) => {
  t.sort((a, b) => a - b);
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  return [name, `${fmt(mean)} µs`, `${fmt(pct(t, 50))} µs`, `${fmt(pct(t, 99))} µs`];
});
const load = loadavg().map((l) => fmt(l, 2));
await server.close();
console.log(`\n${fmt(c.reviews.length)} reviews, ${fmt(N)} distinct searches × 4 rounds each, load average ${load.join(' ')}`);
table(['search rendered as', 'mean', 'p50', 'p99'], rows);

// Where a server's memory goes (issue 16), on a database made by `npm run bench -- scale --keep DIR`:
// the server runs in this process, and each structure is measured by its exact bytes (buffers) or by the
// heap it takes when built again beside the held one (object graphs), after full garbage collections.
//   npm run bench -- scale-memory --database-url DIR/scale.db
import type { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Worker } from 'node:worker_threads';
import { type Catalog, holdAll, ReviewIndex, totalLength } from '../src/catalog/index.js';
import { runAtOnce } from '../src/threads/index.js';
import { fmt, table } from './lib.js';
import { startInProcess } from './servers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const db = process.argv[process.argv.indexOf('--database-url') + 1];
const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
  }
  return process.memoryUsage();
};

/** Heap and buffer bytes that `make` allocates and keeps (its result held until measured). */
async function cost(make: () => unknown): Promise<{ heap: number; buffers: number }> {
  const before = await settle();
  const held = make();
  const after = await settle();
  void held;
  return { heap: after.heapUsed - before.heapUsed, buffers: after.arrayBuffers - before.arrayBuffers };
}

/**
 * Bytes of a heap snapshot's objects by type, read as it streams (a snapshot of a large heap is more
 * text than one string may hold): node_count entries of node_fields.length integers each.
 */
async function heapByType(snapshot: Readable): Promise<Map<string, number>> {
  let head = '';
  let fields = 0;
  let typeAt = 0;
  let sizeAt = 0;
  let types: string[] = [];
  let field = 0;
  let type = 0;
  let num = '';
  let inNodes = false;
  let done = false;
  const out = new Map<string, number>();
  for await (const chunk of snapshot) {
    if (done) continue;
    let text = String(chunk);
    if (!inNodes) {
      head += text;
      const at = head.indexOf('"nodes":[');
      if (at < 0) continue;
      const names = JSON.parse(/"node_fields":(\[[^\]]*\])/.exec(head)![1]) as string[];
      fields = names.length;
      typeAt = names.indexOf('type');
      sizeAt = names.indexOf('self_size');
      types = JSON.parse(/"node_types":\[(\[[^\]]*\])/.exec(head)![1]) as string[];
      text = head.slice(at + 9);
      inNodes = true;
    }
    for (const ch of text) {
      if (ch >= '0' && ch <= '9') num += ch;
      else if (ch === ',' || ch === ']') {
        if (num !== '') {
          const v = Number(num);
          if (field === typeAt) type = v;
          if (field === sizeAt) out.set(types[type], (out.get(types[type]) ?? 0) + v);
          field = (field + 1) % fields;
          num = '';
        }
        if (ch === ']') {
          done = true;
          break;
        }
      }
    }
  }
  return out;
}

const baseline = await settle();
const server = await startInProcess(db);
// The corpus thread takes the loaded revision over after the swap; let it.
await new Promise((r) => setTimeout(r, 8000));
const ready = await settle();
const c: Catalog = server.catalog.get();
const reps = c.representations;
const n = c.reviews.length;

// Load as clients would: the datasets in each coding, then distinct searches.
for (const path of ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'])
  for (const coding of ['br', 'gzip', 'identity'])
    await (await fetch(server.url + path, { headers: { 'accept-encoding': coding } })).arrayBuffer();
const br = { reviews: totalLength(await reps.reviews.encoded('br')), insights: totalLength(await reps.insights.encoded('br')) };
const words = ['leak', 'price', 'drain', 'clean', 'late', 'friendly'];
for (let i = 0; i < 3000; i++)
  await (
    await fetch(
      `${server.url}/api/reviews/search?min_rating=${1 + (i % 5)}&since=${2022 + (i % 5)}-01-01&query=${words[i % 6]}&limit=${4 + (i % 97)}`,
      {
        headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' },
      },
    )
  ).arrayBuffer();
const memo = Number(/^reviewcast_memo_bytes (\d+)/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1] ?? 'NaN');
const loaded = await settle();

// Measured after the load, so the copies made here do not count in the RSS figures above.
const parse = () => (JSON.parse(Buffer.concat(c.reviewsJson.parts).toString()) as { reviews: Catalog['reviews'][number][] }).reviews;
const reviewsGraph = await cost(parse);
// As the catalog holds them: the parsed objects let go once held.
const reviewsHeld = await cost(() => runAtOnce(holdAll(parse(), c.reviewsJson)));
const indexGraph = await cost(() => ReviewIndex.create(c.reviews, c.held.records, c.attribution.technicians, c.attribution.services));
const analysesGraph = await cost(() =>
  Array.from({ length: n }, (_, i) => JSON.parse(c.insightsJson.itemText(i).replace(/^"[^"]*":/, ''))),
);
const gz = { reviews: totalLength(await reps.reviews.encoded('gzip')), insights: totalLength(await reps.insights.encoded('gzip')) };

// The corpus thread's own heap (it holds the corpus the next revision is built on).
const corpusWorker = (server.catalog as unknown as { engine: { worker: Worker } }).engine.worker;
const corpusHeap = await heapByType(await corpusWorker.getHeapSnapshot());
const corpusTotal = [...corpusHeap.values()].reduce((a, b) => a + b, 0);
const top = [...corpusHeap].sort((a, b) => b[1] - a[1]).slice(0, 4);

const rows: (string | number)[][] = [
  ['process RSS when ready / after load', `${mb(ready.rss)} / ${mb(loaded.rss)}`, 'VmRSS'],
  [
    `main heap used when ready / after load (before the server: ${mb(baseline.heapUsed)})`,
    `${mb(ready.heapUsed)} / ${mb(loaded.heapUsed)}`,
    'V8',
  ],
  ['main buffers when ready / after load', `${mb(ready.arrayBuffers)} / ${mb(loaded.arrayBuffers)}`, 'ArrayBuffers'],
  ['/reviews.json body (identity)', mb(reps.reviews.length), 'exact'],
  ['/reviews.json gzip (from the snapshot or made for it) / br (made when asked)', `${mb(gz.reviews)} / ${mb(br.reviews)}`, 'exact'],
  ['/insights.json body (identity)', mb(reps.insights.length), 'exact'],
  ['/insights.json gzip / br', `${mb(gz.insights)} / ${mb(br.insights)}`, 'exact'],
  ['spliced layouts (starts, lengths, SHA-256 per item; two documents)', mb(n * 2 * (8 + 32)), 'exact'],
  [
    `reviews as held (${fmt(n)}: a Proxy each, its place in /reviews.json and the fields the index reads)`,
    mb(reviewsHeld.heap),
    'heap of a second hold',
  ],
  [`the same reviews as parsed Review objects (what was held before)`, mb(reviewsGraph.heap), 'heap of a second parse'],
  ['search index (ReviewIndex with its text index)', mb(indexGraph.heap + indexGraph.buffers), 'heap + buffers of a second build'],
  [
    `parsed analyses, all ${fmt(n)} (held by nothing now: the corpus thread parses them for each insights pass)`,
    mb(analysesGraph.heap),
    'heap of a second parse',
  ],
  ['per-URL memos after 3,000 distinct searches', mb(memo), 'counted by the budget'],
  [`corpus thread heap (${top.map(([t, b]) => `${t} ${mb(b)}`).join(', ')})`, mb(corpusTotal), 'its heap snapshot, summed'],
  [
    'RSS beyond the main heap and buffers when ready (worker threads: corpus, store writer when writing; code; allocator slack)',
    mb(ready.rss - ready.heapTotal - ready.external),
    'remainder',
  ],
];
console.log(`\n${fmt(n)} reviews; Node ${process.version}\n`);
table(['what', 'MB', 'how measured'], rows);
await server.close();

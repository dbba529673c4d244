// One new review in a large corpus: what the corpus thread spends on the revision (stage + commit:
// the new row's analysis, the insights, the per_review body, the feeds), against what each revision
// cost before the corpus kept its insights' state (a full insights pass over the kept rows) and before
// it kept its rows (every kept analysis parsed back out of the per_review body, and buildInsights over
// all of them). All in this run, on the same corpus (demo reviews analysed here first, which takes
// minutes of CPU at 100k).
//   npm run bench -- corpus-update [--reviews 100000] [--updates 5]

import { LocalCorpus, SplicedJson } from '../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../src/demo/index.js';
import type { ReviewAnalysis } from '../src/domain/index.js';
import { buildInsights, type CorpusReview, engine } from '../src/insights/index.js';
import { fmt, table } from './lib.js';

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || fallback;
const N = arg('reviews', 100_000);
const UPDATES = arg('updates', 5);
const business = demoBusiness();
const generatedAt = '2026-11-26T00:00:00.000Z';
const base = 'https://reviews.bench.example';

const rows = generateDemoReviews({ reviews: N })
  .map((r, i) => ({
    id: `d${String(i).padStart(7, '0')}`,
    rating: r.rating,
    date: r.date,
    text: r.text ?? null,
    title: null,
    language: null,
    technicians: r.technicians ?? [],
    services: r.services ?? [],
    service_area: r.service_area ?? null,
    stored: null,
  }))
  .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1));
const corpus = new LocalCorpus(engine);
await corpus.stage({ business, basedOn: null, changed: [], rows });
let done = await corpus.commit({
  revision: { id: 1, created_at: generatedAt },
  freshIds: rows.map((r) => r.id),
  freshPositions: Int32Array.from(rows, (_, i) => i),
  removedPositions: new Int32Array(0),
  newest: [],
  publicBaseUrl: base,
});
/** The reviews as the corpus keeps them: attributed to what their analyses found too (as catalog/to-review.ts does). */
const attributed = (r: Omit<(typeof rows)[number], 'stored' | 'title' | 'language'>, a: ReviewAnalysis): CorpusReview => ({
  id: r.id,
  rating: r.rating,
  date: r.date,
  text: r.text,
  technicians: r.technicians.concat(a.technicians.filter((x) => !r.technicians.includes(x))),
  services: r.services.concat(a.services.filter((x) => !r.services.includes(x))),
  service_area: r.service_area ?? a.service_areas[0] ?? null,
});
const analysisAt = (body: SplicedJson, i: number, id: string) =>
  JSON.parse(body.itemText(i).slice(JSON.stringify(id).length + 1)) as ReviewAnalysis;
const first = SplicedJson.fromLayout(
  done.body,
  done.layout,
  rows.map((r) => r.id),
  [],
);
const reviews = rows.map((r, i) => attributed(r, analysisAt(first, i, r.id)));
rows.length = 0;

const cpuMs = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
const pass: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
const before: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
for (let k = 0; k < UPDATES; k++) {
  const id = `fresh-${k}`;
  const text = 'The valve was replaced the same day and the crew cleaned up; fair price.';
  const fresh = { rating: 5, date: '2026-11-26', text, technicians: [] as string[], services: [] as string[], service_area: null };
  let t = performance.now();
  let c = process.cpuUsage();
  await corpus.stage({
    business,
    basedOn: k + 1,
    changed: [id],
    rows: [
      {
        id,
        rating: 5,
        date: '2026-11-26',
        text,
        title: null,
        language: null,
        technicians: [],
        services: [],
        service_area: null,
        stored: null,
      },
    ],
  });
  done = await corpus.commit({
    revision: { id: k + 2, created_at: generatedAt },
    freshIds: [id],
    freshPositions: Int32Array.of(0),
    // A new review: nothing taken out of the held order.
    removedPositions: new Int32Array(0),
    newest: [],
    publicBaseUrl: base,
  });
  now.wall.push(performance.now() - t);
  now.cpu.push(cpuMs(c));
  // The previous commit's extra work per revision: every kept analysis parsed from the body, then buildInsights.
  t = performance.now();
  c = process.cpuUsage();
  const ids = [id, ...reviews.map((r) => r.id)];
  const perReview = SplicedJson.fromLayout(done.body, done.layout, ids, []);
  const analyses = ids.map((rid, i) => analysisAt(perReview, i, rid));
  reviews.unshift(attributed({ ...fresh, id }, analyses[0]));
  const full = buildInsights({ business, reviews, analyses, generatedAt });
  before.wall.push(performance.now() - t);
  before.cpu.push(cpuMs(c));
  // Held to the same document, so the two columns are the same work's result.
  if (JSON.stringify(Object.defineProperty(full, 'per_review', { value: {}, enumerable: true })) !== done.core)
    throw new Error('the kept rows and buildInsights disagree');
  // The insights pass a commit made before the corpus kept its insights' state: every kept row again.
  const maker = engine.insightRows(business.vertical);
  const kept = reviews.map((r, i) => maker.row(r, analyses[i]));
  t = performance.now();
  c = process.cpuUsage();
  const again = JSON.stringify(maker.insights({ business, rows: kept, generatedAt }));
  pass.wall.push(performance.now() - t);
  pass.cpu.push(cpuMs(c));
  if (again !== done.core) throw new Error('the kept state and a pass over the kept rows disagree');
}

console.log(
  `\n${fmt(N)} demo reviews, ${UPDATES} one-review revisions (medians); Node ${process.version}; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
table(
  ['one new review, corpus thread work', 'wall', 'CPU'],
  [
    [
      'the whole revision now (stage + commit: analysis, insights moved by the change, per_review body, feeds)',
      `${fmt(median(now.wall))} ms`,
      `${fmt(median(now.cpu))} ms`,
    ],
    [
      'the insights pass over all kept rows each commit made before it kept their state (now after a seed or profile change only)',
      `${fmt(median(pass.wall))} ms`,
      `${fmt(median(pass.cpu))} ms`,
    ],
    [
      'what each revision added before the corpus kept its rows: every analysis parsed back + buildInsights over all',
      `${fmt(median(before.wall))} ms`,
      `${fmt(median(before.cpu))} ms`,
    ],
  ],
);

// Insights engine benchmark: analysis speed (sentences/s, one core), heap for analysing a 100k-review corpus,
// and buildInsights time at that size (full rebuild and "one new review" freshness).
//
//   node --import tsx bench/insights.bench.ts [--reviews 100000] [--json bench/results/insights.json]
//   node --expose-gc --import tsx bench/insights.bench.ts   (adds retained-heap numbers after a forced GC)
//
// Reviews are generated here from a seeded template grammar, so runs are comparable and independent of
// the demo generator.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { prng } from '../src/demo/index.js';
import { buildInsights, type CorpusReview, createAnalyzer, ENGINE_VERSION, type ReviewAnalysis } from '../src/insights/index.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const REVIEWS = Number(arg('reviews', '100000'));
const JSON_OUT = process.argv.includes('--json') ? arg('json', 'bench/results/insights.json') : null;

const business = {
  vertical: 'home_services',
  name: 'Bench Plumbing',
  technicians: ['Mike Johnson', 'Ana Núñez', 'Raj Patel', 'Chris Lee', 'Dana White', 'Omar Haddad'].map((name, i) => ({
    id: `t${i}`,
    name,
    aliases: [name.split(' ')[0]],
  })),
  services: ['Drain cleaning', 'Water heater repair', 'Leak repair', 'Toilet repair', 'Sewer line'].map((name, i) => ({
    id: `s${i}`,
    name,
    aliases: [],
  })),
  service_areas: ['Northside', 'Southside', 'Eastgate', 'Westfield'].map((name, i) => ({ id: `a${i}`, name })),
};

const OPENERS = [
  '{tech} came out to look at our {problem}.',
  'We called about a {problem} on a Sunday.',
  'Booked them for {service} in {area}.',
  'Second time using this company.',
  '',
];
const CLAIMS = [
  '{tech} arrived {punct} and {work}.',
  'The price was {price} and {tech} {comm}.',
  '{tech} was {friendly}, {work}.',
  'Honestly {work}, but {tech} was {punct}.',
  'They {clean} after the job.',
  'Scheduling was {sched}.',
  'The office {comm}.',
  '{tech} {tech_knowledge}.',
  'Response time was {resp}.',
  'Would {recommend} recommend them to friends.',
];
const SLOTS: Record<string, string[]> = {
  problem: ['leak under the sink', 'clogged drain', 'water heater', 'running toilet', 'burst pipe', 'low water pressure'],
  punct: ['right on time', 'early', 'two hours late', 'late', 'on time'],
  work: ['fixed the leak fast', 'did excellent work', 'the repair failed a week later', 'did a sloppy job', 'solved the problem'],
  price: ['fair', 'way too high', 'very reasonable', 'not cheap', 'exactly as quoted'],
  comm: ['explained everything clearly', 'never called back', 'kept us informed', 'was confusing about the options'],
  friendly: ['very friendly', 'rude', 'polite', 'extremely nice', 'not very friendly'],
  clean: ['cleaned up', 'left a mess', 'left everything spotless', 'did not clean up'],
  sched: ['easy', 'a nightmare', 'flexible', 'quick'],
  tech_knowledge: ['was very knowledgeable', 'clearly knew what he was doing', 'seemed clueless'],
  resp: ['fast', 'slow', 'excellent', 'terrible'],
  recommend: ['highly', 'definitely', 'not', 'absolutely'],
};

function generate(n: number): CorpusReview[] {
  const rnd = prng(42);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const start = Date.parse('2022-01-01T00:00:00Z');
  const span = Date.parse('2025-12-31T00:00:00Z') - start;
  const reviews: CorpusReview[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tech = pick(business.technicians);
    const service = pick(business.services);
    const area = pick(business.service_areas);
    const fill = (t: string): string =>
      t.replace(/\{(\w+)\}/g, (_, k: string) =>
        k === 'tech' ? tech.aliases[0] : k === 'service' ? service.name.toLowerCase() : k === 'area' ? area.name : pick(SLOTS[k]),
      );
    const sentences = [pick(OPENERS), ...Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(CLAIMS))]
      .filter((s) => s !== '')
      .map(fill);
    const rating = 1 + Math.floor(rnd() ** 0.35 * 5);
    reviews[i] = {
      id: `r${String(i).padStart(7, '0')}`,
      rating,
      date: new Date(start + Math.floor(rnd() * span)).toISOString().slice(0, 10),
      text: rnd() < 0.08 ? null : sentences.join(' '),
      technicians: [tech.id],
      services: [service.id],
      service_area: area.id,
    };
  }
  return reviews;
}

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => Math.round(bytes / 1048576);

const reviews = generate(REVIEWS);
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const analyzer = createAnalyzer({
  vertical: business.vertical,
  technicians: business.technicians,
  services: business.services,
  serviceAreas: business.service_areas,
});

// Warm up the JIT and wink's caches before timing.
for (let i = 0; i < 500; i++) analyzer.analyze({ id: 'w', rating: 5, text: reviews[i % reviews.length].text, title: null, language: null });

const analyses = new Map<string, ReviewAnalysis>();
let sentences = 0;
let peakHeap = 0;
// CPU time beside wall time: on a loaded shared machine the wall clock also counts waiting for a core.
const cpu = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < reviews.length; i++) {
  const r = reviews[i];
  const a = analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: null, language: null });
  sentences += a.sentences.length;
  analyses.set(r.id, a);
  if (i % 5000 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}
const analyseSeconds = (performance.now() - t0) / 1000;
const analyseCpuSeconds = cpu(c0);
peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);

// Baseline in the same run: the lexicon engine alone (no trained model), which is how absa-lexicon/1.12.0
// analysed, on the first reviews of the same corpus.
const lexiconOnly = createAnalyzer({
  vertical: business.vertical,
  technicians: business.technicians,
  services: business.services,
  serviceAreas: business.service_areas,
  model: null,
});
const baselineReviews = reviews.slice(0, Math.min(REVIEWS, 20_000));
for (let i = 0; i < 500; i++)
  lexiconOnly.analyze({ id: 'w', rating: 5, text: baselineReviews[i % baselineReviews.length].text, title: null, language: null });
let baselineSentences = 0;
const bc0 = process.cpuUsage();
const b0 = performance.now();
for (const r of baselineReviews)
  baselineSentences += lexiconOnly.analyze({ id: r.id, rating: r.rating, text: r.text, title: null, language: null }).sentences.length;
const baselineSeconds = (performance.now() - b0) / 1000;
const baselineCpuSeconds = cpu(bc0);
gc?.();
const retained = process.memoryUsage().heapUsed - heapBefore;
const storedBytes = [...analyses.values()].reduce((s, a) => s + JSON.stringify(a).length, 0);

const sorted = [...reviews].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.id < b.id ? -1 : 1));
// Wall time and this process's CPU time: on a shared machine the wall clock also counts time spent
// waiting for a core, which says nothing about the engine.
const buildTimes: number[] = [];
const buildCpu: number[] = [];
let insightsBytes = 0;
for (let run = 0; run < 7; run++) {
  const s = performance.now();
  const c = process.cpuUsage();
  const ins = buildInsights({ business, reviews: sorted, analyses, generatedAt: new Date().toISOString() });
  const used = process.cpuUsage(c);
  buildTimes.push(performance.now() - s);
  buildCpu.push((used.user + used.system) / 1000);
  if (run === 0) insightsBytes = JSON.stringify({ ...ins, per_review: {} }).length;
}
buildTimes.sort((a, b) => a - b);
buildCpu.sort((a, b) => a - b);

// Freshness: one new review arrives; analyse it and rebuild from the stored analyses.
const fresh: CorpusReview = { ...sorted[0], id: 'fresh', date: '2026-01-01', text: 'Mike was late but fixed the leak fast. Fair price.' };
gc?.();
const f0 = performance.now();
analyses.set(fresh.id, analyzer.analyze({ id: fresh.id, rating: fresh.rating, text: fresh.text, title: null, language: null }));
buildInsights({ business, reviews: [fresh, ...sorted], analyses, generatedAt: new Date().toISOString() });
const freshMs = performance.now() - f0;

const results = {
  node: process.version,
  reviews: REVIEWS,
  sentences,
  analyse_seconds: Number(analyseSeconds.toFixed(2)),
  sentences_per_second: Math.round(sentences / analyseSeconds),
  sentences_per_cpu_second: Math.round(sentences / analyseCpuSeconds),
  baseline_lexicon_only_sentences_per_second: Math.round(baselineSentences / baselineSeconds),
  baseline_lexicon_only_sentences_per_cpu_second: Math.round(baselineSentences / baselineCpuSeconds),
  reviews_per_second: Math.round(REVIEWS / analyseSeconds),
  peak_heap_mb: mb(peakHeap),
  retained_heap_mb: gc ? mb(retained) : null,
  stored_analysis_bytes_per_review: Math.round(storedBytes / REVIEWS),
  build_insights_ms_median: Math.round(buildTimes[3]),
  build_insights_ms_min: Math.round(buildTimes[0]),
  build_insights_cpu_ms_median: Math.round(buildCpu[3]),
  one_new_review_ms: Math.round(freshMs),
  insights_bytes_without_per_review: insightsBytes,
};

const rows: [string, string, string][] = [
  [
    `analysis speed (1 core), ${ENGINE_VERSION}`,
    `${results.sentences_per_second.toLocaleString('en-US')} sentences/s (${results.sentences_per_cpu_second.toLocaleString('en-US')} per CPU second)`,
    '≥ 2,000 sentences/s',
  ],
  ['', `${results.reviews_per_second.toLocaleString('en-US')} reviews/s`, ''],
  [
    'same run, lexicon alone (no model)',
    `${results.baseline_lexicon_only_sentences_per_second.toLocaleString('en-US')} sentences/s (${results.baseline_lexicon_only_sentences_per_cpu_second.toLocaleString('en-US')} per CPU second)`,
    'baseline',
  ],
  [
    `heap, analysing ${REVIEWS.toLocaleString('en-US')} reviews`,
    `${results.peak_heap_mb} MB peak${gc ? `, ${results.retained_heap_mb} MB retained` : ''}`,
    '≤ 512 MB',
  ],
  ['stored analysis size', `${results.stored_analysis_bytes_per_review} B/review (JSON)`, 'compact'],
  [
    `buildInsights at ${REVIEWS.toLocaleString('en-US')}`,
    `${results.build_insights_ms_median} ms median (min ${results.build_insights_ms_min}), CPU ${results.build_insights_cpu_ms_median} ms`,
    '< 1,000 ms',
  ],
  ['one new review → insights', `${results.one_new_review_ms} ms`, '< 1,000 ms'],
];
const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length)), 20];
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
process.stdout.write(
  `${[line(['measure', 'result', 'target']), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...rows.map(line)].join('\n')}\n`,
);
process.stdout.write(
  `(${sentences.toLocaleString('en-US')} sentences in ${results.analyse_seconds} s, node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)\n`,
);
if (JSON_OUT) {
  mkdirSync(dirname(JSON_OUT), { recursive: true });
  writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
}

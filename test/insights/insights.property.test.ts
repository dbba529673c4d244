// Property tests of buildInsights over generated corpora: everything in /insights.json must be
// recomputable from per_review and the reviews themselves, and must point at real reviews.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Insights, InsightsSchema } from '../../src/domain/index.js';
import { buildInsights, type CorpusReview, createAnalyzer, type ReviewAnalysis } from '../../src/insights/index.js';

const business = {
  vertical: 'home_services',
  name: 'Acme Plumbing',
  technicians: [
    { id: 't-mike', name: 'Mike Johnson', aliases: ['Mike'] },
    { id: 't-ana', name: 'Ana Núñez', aliases: ['Ana'] },
    { id: 't-raj', name: 'Raj Patel', aliases: [] },
  ],
  services: [
    { id: 's-drain', name: 'Drain cleaning', aliases: ['drain'] },
    { id: 's-heater', name: 'Water heater repair', aliases: ['water heater'] },
  ],
  service_areas: [
    { id: 'a-north', name: 'Northside' },
    { id: 'a-south', name: 'Southside' },
  ],
};
const analyzer = createAnalyzer({
  vertical: business.vertical,
  technicians: business.technicians,
  services: business.services,
  serviceAreas: business.service_areas,
});

const FRAGMENTS = [
  'Mike was late but fixed the leak fast.',
  'Ana was very friendly and explained everything clearly.',
  'The price was way too high for a simple clogged drain.',
  'Great job on the water heater, fair price.',
  'They never showed up and never called back.',
  'Raj did not clean up after himself, which was disappointing.',
  'Professional, punctual and knowledgeable.',
  'Scheduling an appointment was easy and the office was responsive.',
  'Honestly not impressed with the workmanship; the toilet is leaking again.',
  'Excellent service in Northside!',
  'The toilet repair was quick.',
  'Another drain repair is booked for the new water heater.',
  'Nothing special.',
  'El técnico fue muy amable y el precio fue justo.',
  'Ok.',
  '',
];

const reviewArb = fc.record({
  rating: fc.integer({ min: 1, max: 5 }),
  date: fc
    .date({ min: new Date('2023-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  text: fc.option(
    fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
    { nil: null, freq: 5 },
  ),
  technicians: fc.subarray(business.technicians.map((t) => t.id)),
  services: fc.subarray(business.services.map((s) => s.id)),
  service_area: fc.option(fc.constantFrom(...business.service_areas.map((a) => a.id)), { nil: null }),
});

const corpusArb = fc
  .array(reviewArb, { minLength: 0, maxLength: 60 })
  .map((items) => items.map((r, i): CorpusReview => ({ id: `r${String(i).padStart(3, '0')}`, ...r })));

function build(reviews: CorpusReview[]): Insights {
  const analyses = new Map<string, ReviewAnalysis>(
    reviews.map((r) => [r.id, analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: null, language: null })]),
  );
  return buildInsights({ business, reviews, analyses, generatedAt: '2026-01-01T00:00:00Z' });
}

const near100 = (xs: number[]) => Math.abs(xs.reduce((s, x) => s + x, 0) - 100) <= 0.1;

function checkCorpus(reviews: CorpusReview[]): void {
  const ins = build(reviews);
  InsightsSchema.parse(ins);
  const byId = new Map(reviews.map((r) => [r.id, r]));
  const per = ins.per_review;

  assert.equal(ins.review_count, reviews.length);
  assert.deepEqual(Object.keys(per).sort(), [...byId.keys()].sort());

  // Overall sentiment and percentages.
  if (reviews.length > 0) {
    assert.ok(near100([ins.overall_sentiment.positive_pct, ins.overall_sentiment.neutral_pct, ins.overall_sentiment.negative_pct]));
    const mean = reviews.reduce((s, r) => s + per[r.id].sentiment, 0) / reviews.length;
    assert.ok(Math.abs(ins.overall_sentiment.score - mean) < 1e-3);
  }

  // Aspects: every count is a recount of per_review.
  for (const a of ins.aspects) {
    const mentions = reviews.map((r) => per[r.id].aspects.find((x) => x.id === a.id)).filter((x) => x !== undefined);
    assert.equal(a.mention_count, mentions.length, a.id);
    for (const pol of ['positive', 'neutral', 'negative', 'conflict'] as const) {
      assert.equal(a[`${pol}_count`], mentions.filter((m) => m.polarity === pol).length, `${a.id} ${pol}`);
    }
    if (a.mention_count > 0) assert.ok(near100([a.positive_pct, a.neutral_pct, a.negative_pct, a.conflict_pct]), a.id);
    for (const id of a.example_review_ids) assert.ok(per[id].aspects.some((x) => x.id === a.id));
    for (const q of a.quotes) {
      const text = byId.get(q.review_id)?.text ?? '';
      assert.ok(text.includes(q.text), `quote "${q.text}" not in ${q.review_id}`);
      assert.ok(
        per[q.review_id].sentences.some(
          (s) => text.slice(s.start, s.end) === q.text && s.aspects.some((m) => m.id === a.id && m.polarity === q.sentiment),
        ),
      );
    }
  }

  // Entities: recount from the attribution arrays.
  const entityChecks = [
    [ins.entities.technicians, (r: CorpusReview) => r.technicians],
    [ins.entities.services, (r: CorpusReview) => r.services],
    [ins.entities.service_areas, (r: CorpusReview) => (r.service_area ? [r.service_area] : [])],
  ] as const;
  for (const [list, idsOf] of entityChecks) {
    for (const e of list) {
      const mine = reviews.filter((r) => idsOf(r).includes(e.id));
      assert.equal(e.review_count, mine.length, e.id);
      if (mine.length > 0) assert.ok(Math.abs((e.avg_rating ?? 0) - mine.reduce((s, r) => s + r.rating, 0) / mine.length) <= 0.005);
      for (const id of e.example_review_ids) assert.ok(idsOf(byId.get(id) as CorpusReview).includes(e.id));
    }
  }
  for (const p of ins.entities.problems) {
    assert.equal(p.review_count, reviews.filter((r) => per[r.id].problems.includes(p.id)).length, p.id);
    for (const id of p.example_review_ids) assert.ok(per[id].problems.includes(p.id));
  }

  // Topics: recount of reviews whose key phrases share the topic's head noun.
  for (const t of ins.topics) {
    const mine = reviews.filter((r) => per[r.id].phrases.some((ph) => ph.split(' ').at(-1) === t.id));
    assert.equal(t.review_count, mine.length, t.id);
    for (const id of t.review_ids) assert.ok(mine.some((r) => r.id === id));
    // The label is a phrase most of the topic's reviews contain.
    const label = t.label.toLowerCase();
    const containing = mine.filter((r) => per[r.id].phrases.some((ph) => ph === label || ph.endsWith(` ${label}`)));
    assert.ok(containing.length * 2 > mine.length, `topic ${t.id}: "${t.label}" is in ${containing.length} of ${mine.length} reviews`);
  }

  // Temporal: months partition the corpus; the label follows the stated rule.
  assert.equal(
    ins.temporal.monthly.reduce((s, m) => s + m.review_count, 0),
    reviews.length,
  );
  for (const m of ins.temporal.monthly) {
    const mine = reviews.filter((r) => r.date.startsWith(m.month));
    assert.equal(m.review_count, mine.length);
    assert.ok(Math.abs(m.avg_rating - mine.reduce((s, r) => s + r.rating, 0) / mine.length) <= 0.005);
  }
  const d = ins.temporal.trend_detail;
  const significant = d.p_value !== null && d.p_value < 0.05 && Math.abs((d.slope_per_month ?? 0) * 11) >= 0.1;
  assert.equal(ins.temporal.trend, significant ? ((d.slope_per_month ?? 0) > 0 ? 'improving' : 'declining') : 'stable');

  // FAQ, pull quote: grounded in real reviews.
  if (reviews.length === 0) assert.equal(ins.faq.length, 0);
  else assert.ok(ins.faq.length >= 4 && ins.faq.length <= 12, `faq has ${ins.faq.length} entries`);
  for (const f of ins.faq) {
    assert.ok(f.supporting_review_ids.length > 0);
    for (const id of f.supporting_review_ids) assert.ok(byId.has(id), id);
  }
  if (ins.pull_quote_review_id === null) assert.equal(ins.pull_quote, '');
  else assert.ok(byId.get(ins.pull_quote_review_id)?.text?.includes(ins.pull_quote));
  if (reviews.length > 0) assert.ok(ins.summary.includes(String(reviews.length)));
}

describe('buildInsights over generated corpora', () => {
  it('keeps every number recomputable and every id and quote real', () => {
    fc.assert(fc.property(corpusArb, checkCorpus), { numRuns: 60 });
  });

  it('handles the empty corpus', () => {
    const ins = build([]);
    InsightsSchema.parse(ins);
    assert.equal(ins.review_count, 0);
    assert.deepEqual(ins.date_range, { earliest: null, latest: null });
    assert.equal(ins.temporal.trend, 'stable');
    assert.equal(ins.pull_quote, '');
  });

  it('handles a corpus of rating-only reviews', () => {
    const reviews = Array.from(
      { length: 12 },
      (_, i): CorpusReview => ({
        id: `r${i}`,
        rating: (i % 5) + 1,
        date: `2025-${String((i % 12) + 1).padStart(2, '0')}-01`,
        text: null,
        technicians: i % 2 ? ['t-mike'] : [],
        services: [],
        service_area: null,
      }),
    );
    checkCorpus(reviews);
    const ins = build(reviews);
    assert.ok(ins.aspects.every((a) => a.mention_count === 0));
    // Without text, a review's sentiment is its rating on the -1..1 scale.
    const expected = reviews.reduce((s, r) => s + (r.rating - 3) / 2, 0) / reviews.length;
    assert.ok(Math.abs(ins.overall_sentiment.score - expected) < 1e-3);
    assert.equal(ins.entities.technicians.find((t) => t.id === 't-mike')?.review_count, 6);
  });
});

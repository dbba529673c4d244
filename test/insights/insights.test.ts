// buildInsights on hand-made corpora: the FAQ is grounded in the reviews it cites, the trend rule fires
// on a real trend and not on noise, and a second build after one new review reuses every analysis.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildInsights, type CorpusReview, createAnalyzer, type ReviewAnalysis } from '../../src/insights/index.js';

const business = {
  vertical: 'home_services',
  name: 'Acme Plumbing',
  technicians: [
    { id: 't-mike', name: 'Mike Johnson', aliases: ['Mike'] },
    { id: 't-ana', name: 'Ana Núñez', aliases: [] },
  ],
  services: [{ id: 's-drain', name: 'Drain cleaning', aliases: [] }],
  service_areas: [{ id: 'a-north', name: 'Northside' }],
};
const analyzer = createAnalyzer({
  vertical: business.vertical,
  technicians: business.technicians,
  services: business.services,
  serviceAreas: business.service_areas,
});

const TEXTS: [number, string][] = [
  [5, 'Mike arrived on time and fixed the leak quickly. Very professional.'],
  [5, 'Ana explained everything clearly and the price was fair.'],
  [4, 'Good workmanship on the clogged drain, but he was late.'],
  [1, 'They never showed up and never called back. Terrible communication.'],
  [2, 'The quote was way too high and the technician was rude.'],
  [5, 'Excellent job, spotless clean-up and a friendly technician.'],
];

function corpus(n: number, rating: (i: number) => number, date: (i: number) => string): CorpusReview[] {
  return Array.from({ length: n }, (_, i) => {
    const [stars, text] = TEXTS[i % TEXTS.length];
    return {
      id: `r${String(i).padStart(4, '0')}`,
      rating: rating(i) || stars,
      date: date(i),
      text,
      technicians: i % 3 === 0 ? ['t-mike'] : i % 3 === 1 ? ['t-ana'] : [],
      services: i % 2 ? ['s-drain'] : [],
      service_area: i % 4 ? 'a-north' : null,
    };
  });
}

function analyses(reviews: CorpusReview[]): Map<string, ReviewAnalysis> {
  return new Map(reviews.map((r) => [r.id, analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: null, language: null })]));
}

const monthDate = (i: number, months = 12) => `2025-${String((i % months) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;

describe('FAQ', () => {
  const reviews = corpus(
    60,
    () => 0,
    (i) => monthDate(i),
  );
  const ins = buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: '2026-01-01T00:00:00Z' });
  const per = ins.per_review;

  it('has 6 to 12 entries on a normal corpus', () => {
    assert.ok(ins.faq.length >= 6 && ins.faq.length <= 12, String(ins.faq.length));
  });
  it('cites, for praise and complaints, reviews that praise or complain about that aspect', () => {
    const praise = ins.faq.find((f) => f.question === 'What do customers praise most?');
    const complaint = ins.faq.find((f) => f.question === 'What do customers complain about most?');
    assert.ok(praise && complaint);
    const label = (answer: string) => ins.aspects.find((a) => answer.startsWith(`${a.label}:`));
    const praised = label(praise.answer);
    const criticised = label(complaint.answer);
    assert.ok(praised && criticised);
    for (const id of praise.supporting_review_ids) assert.ok(per[id].aspects.some((a) => a.id === praised.id && a.polarity === 'positive'));
    for (const id of complaint.supporting_review_ids)
      assert.ok(per[id].aspects.some((a) => a.id === criticised.id && a.polarity === 'negative'));
    assert.ok(praise.answer.includes(String(praised.positive_count)));
  });
  it('cites reviews attributed to the technicians it names', () => {
    const techs = ins.faq.find((f) => f.question.startsWith('Which technicians'));
    assert.ok(techs);
    const byId = new Map(reviews.map((r) => [r.id, r]));
    for (const id of techs.supporting_review_ids) assert.ok((byId.get(id)?.technicians.length ?? 0) > 0);
    const mike = ins.entities.technicians.find((t) => t.id === 't-mike');
    assert.ok(mike && techs.answer.includes(`Mike Johnson (${mike.review_count} reviews`));
  });
  it('states the real average rating in the first answer and the summary', () => {
    const mean = (reviews.reduce((s, r) => s + r.rating, 0) / reviews.length).toFixed(2);
    assert.ok(ins.faq[0].answer.includes(mean));
    assert.ok(ins.summary.includes(mean));
  });
});

describe('FAQ on a polarised corpus', () => {
  it('still answers the rating question when no review has the rounded mean rating', () => {
    const reviews = corpus(
      10,
      (i) => (i % 2 ? 1 : 5),
      (i) => monthDate(i),
    );
    const ins = buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: 'x' });
    assert.equal(ins.faq[0].question, 'How do customers rate Acme Plumbing?');
    assert.ok(ins.faq[0].answer.includes('3.00 out of 5'));
    assert.ok(ins.faq[1].answer.startsWith('5 stars: 5 (50.0%); 1 star: 5 (50.0%)'));
  });
});

describe('trend rule', () => {
  it('reports improving for ratings that climb through the year', () => {
    const reviews = corpus(
      120,
      (i) => 1 + Math.floor(((i % 12) / 12) * 5),
      (i) => monthDate(i),
    );
    const ins = buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: 'x' });
    assert.equal(ins.temporal.trend, 'improving');
    assert.ok((ins.temporal.trend_detail.p_value ?? 1) < 0.05);
  });
  it('reports declining for ratings that fall', () => {
    const reviews = corpus(
      120,
      (i) => 5 - Math.floor(((i % 12) / 12) * 5),
      (i) => monthDate(i),
    );
    assert.equal(buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: 'x' }).temporal.trend, 'declining');
  });
  it('reports stable when ratings do not depend on the month', () => {
    const reviews = corpus(
      120,
      (i) => [5, 1, 4, 2, 3][i % 5],
      (i) => monthDate(i),
    );
    assert.equal(buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: 'x' }).temporal.trend, 'stable');
  });
  it('only looks at the last 12 months', () => {
    // Old reviews are all 1 star, the last year is flat at 5: no improvement inside the window.
    const old = corpus(
      40,
      () => 1,
      (i) => `2022-${String((i % 12) + 1).padStart(2, '0')}-10`,
    );
    const recent = corpus(
      40,
      () => 5,
      (i) => monthDate(i),
    ).map((r) => ({ ...r, id: `n${r.id}` }));
    const reviews = [...old, ...recent];
    const ins = buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: 'x' });
    assert.equal(ins.temporal.trend, 'stable');
    assert.equal(ins.temporal.trend_detail.n, 40);
    assert.equal(ins.temporal.trend_detail.window_start, '2025-01');
  });
});

describe('incremental rebuild', () => {
  it('uses the stored analyses as given and reflects one new review', () => {
    const reviews = corpus(
      30,
      () => 0,
      (i) => monthDate(i),
    );
    const stored = analyses(reviews);
    const before = buildInsights({ business, reviews, analyses: stored, generatedAt: 'a' });
    const added: CorpusReview = {
      id: 'new',
      rating: 1,
      date: '2025-12-30',
      text: 'Mike was rude and late.',
      technicians: ['t-mike'],
      services: [],
      service_area: null,
    };
    stored.set(added.id, analyzer.analyze({ id: added.id, rating: 1, text: added.text, title: null, language: null }));
    const after = buildInsights({ business, reviews: [added, ...reviews], analyses: stored, generatedAt: 'b' });
    assert.equal(after.review_count, before.review_count + 1);
    assert.equal(after.per_review.r0000, stored.get('r0000'));
    const mike = (i: typeof before) => i.entities.technicians.find((t) => t.id === 't-mike');
    assert.equal(mike(after)?.review_count, (mike(before)?.review_count ?? 0) + 1);
    assert.equal(after.date_range.latest, '2025-12-30');
  });
  it('refuses a review without its analysis rather than inventing one', () => {
    assert.throws(
      () =>
        buildInsights({
          business,
          reviews: corpus(
            1,
            () => 5,
            () => '2025-01-01',
          ),
          analyses: new Map(),
          generatedAt: 'x',
        }),
      /no analysis/,
    );
  });
});

describe('topic labels', () => {
  it('name a topic by a phrase most of its reviews contain, not by its most frequent phrase', () => {
    const texts = [
      ...Array.from({ length: 3 }, () => 'The toilet repair was quick.'),
      'The faucet repair was quick.',
      'The sink repair was quick.',
      'The shower repair was quick.',
      'The drain repair was quick.',
      ...Array.from({ length: 4 }, () => 'The new water heater works.'),
      'The water heater works.',
      'The tank heater works.',
    ];
    const reviews = texts.map(
      (text, i): CorpusReview => ({ id: `t${i}`, rating: 5, date: '2025-05-01', text, technicians: [], services: [], service_area: null }),
    );
    const ins = buildInsights({ business, reviews, analyses: analyses(reviews), generatedAt: '2026-01-01T00:00:00Z' });
    const repair = ins.topics.find((t) => t.id === 'repair');
    const heater = ins.topics.find((t) => t.id === 'heater');
    // "toilet repair" is the commonest repair phrase, but only 3 of 7 repair reviews say it.
    assert.equal(repair?.phrases[0], 'toilet repair');
    assert.equal(repair?.label, 'Repair');
    // 5 of 6 heater reviews contain "water heater"; only 4 "new water heater".
    assert.equal(heater?.label, 'Water heater');
  });
});

// A made-up corpus run through a row maker's paths (rows made, written as an image and read back, the
// insights pass over them), in a corpus thread that stands by: V8 compiles that code while nothing waits,
// so a take-over that follows runs compiled code from its first row. Cold, the take-over of 100k demo
// rows (read from their image, then the pass) took about 250 ms longer than warm.
import type { Insights, ReviewAnalysis, ReviewAspect } from '../../domain/index.js';
import { loadTaxonomyLabels } from '../lexicon.js';
import { InsightRows } from './held.js';
import type { CorpusReview } from './rows.js';

/** Rows per round: enough calls of each path for V8 to optimise it, few enough for a round to be short. */
export const WARM_ROWS = 2000;

const POLARITIES: readonly ReviewAspect['polarity'][] = ['positive', 'negative', 'neutral', 'positive', 'conflict'];
const HEADS = ['heater', 'drain', 'visit', 'estimate', 'team'];
const WORDS = ['water', 'new', 'quick', 'second', 'whole'];
const CLOSING = 'Everything was cleaned up after the job.';
const DAY_MS = 86_400_000;
const LAST_DAY = Date.UTC(2026, 0, 1);

const business = (vertical: string) => ({
  vertical,
  name: 'Warm-up',
  technicians: [0, 1, 2].map((i) => ({ id: `t${i}`, name: `Technician ${i}` })),
  services: [0, 1, 2].map((i) => ({ id: `s${i}`, name: `Service ${i}` })),
  service_areas: [0, 1].map((i) => ({ id: `a${i}`, name: `Area ${i}` })),
});

/** Review i of the made-up corpus: newest first, every builder fed (aspects of each polarity with quotable sentences, phrases sharing heads, problems, entities). */
function madeUp(i: number, aspectIds: string[], problemIds: string[]): { review: CorpusReview; analysis: ReviewAnalysis } {
  // Wordings that repeat across reviews, as templated reviews do (the quotes turn repeats away).
  const opening = `Visit ${i % 13}: the crew explained every step.`;
  const text = `${opening} ${CLOSING}`;
  const aspects = [0, 1].map(
    (k): ReviewAspect => ({
      id: aspectIds[(i + k * 3) % aspectIds.length],
      // Each aspect in every polarity in turn.
      polarity: POLARITIES[(Math.floor(i / aspectIds.length) + k) % POLARITIES.length],
      score: Math.round(((i % 9) - 4) * 25) / 100,
      phrase: `${WORDS[i % WORDS.length]} ${HEADS[(i + k) % HEADS.length]}`,
      sentence: k,
    }),
  );
  const second = opening.length + 1;
  return {
    review: {
      id: `warm-${i}`,
      rating: 1 + (i % 5),
      date: new Date(LAST_DAY - Math.floor(i / 3) * DAY_MS).toISOString().slice(0, 10),
      text,
      technicians: [`t${i % 3}`],
      services: i % 2 === 0 ? [`s${i % 3}`] : [],
      service_area: i % 4 === 0 ? null : `a${i % 2}`,
    },
    analysis: {
      engine: 'warm-up',
      language: 'en',
      sentiment: Math.round(((i % 11) - 5) * 20) / 100,
      text_sentiment: null,
      sentences: [
        { start: 0, end: opening.length, score: 0.5, aspects: [] },
        { start: second, end: text.length, score: -0.5, aspects: [] },
      ],
      aspects,
      technicians: [],
      services: [],
      service_areas: [],
      problems: problemIds.length > 0 && i % 3 === 0 ? [problemIds[(i / 3) % problemIds.length]] : [],
      phrases: [`${WORDS[(i + 1) % WORDS.length]} ${HEADS[i % HEADS.length]}`, HEADS[(i + 2) % HEADS.length]],
    },
  };
}

/** One round: `rows` made-up rows of the vertical made, imaged and read back by another maker, and their insights (returned, for tests to see every builder was fed). */
export function warmRound(vertical: string, rows = WARM_ROWS): Insights {
  const labels = loadTaxonomyLabels(vertical);
  const aspectIds = labels.aspects.map((a) => a.id);
  const problemIds = labels.problems.map((p) => p.id);
  const maker = new InsightRows(vertical);
  const made = [];
  for (let i = 0; i < rows; i++) {
    const { review, analysis } = madeUp(i, aspectIds, problemIds);
    made.push(maker.row(review, analysis));
  }
  const reader = new InsightRows(vertical);
  return reader.insights({ business: business(vertical), rows: reader.fromImage(maker.image(made)), generatedAt: '' });
}

// FAQ entries generated from the computed facts. Each entry is produced only when its claim can be grounded:
// its supporting reviews are ones the answer is literally about (the reviews behind a count, the newest
// reviews of a star value, the reviews attributed to a named technician…). At most 12 entries.
import type { FaqEntry, Polarity } from '../../domain/index.js';
import { count, type Facts, fmtInt, fmtPct, fmtRating, newestIds } from './facts.js';
import { percentages } from './percent.js';
import type { Row } from './rows.js';

const MAX_ENTRIES = 12;
const SUPPORT = 5;
const ASPECT_QUESTIONS = 3;
const ENTITY_NAMES = 3;
const RECENT_DAYS = 90;

export function buildFaq(f: Facts): FaqEntry[] {
  if (f.reviewCount === 0) return [];
  const entries: FaqEntry[] = [];
  const add = (question: string, answer: string, supporting: string[]): void => {
    if (supporting.length > 0 && entries.length < MAX_ENTRIES) entries.push({ question, answer, supporting_review_ids: supporting });
  };

  const typical = Math.round(f.meanRating);
  add(
    `How do customers rate ${f.subject}?`,
    `${capitalize(f.subject)} has an average rating of ${fmtRating(f.meanRating)} out of 5 from ${count(f.reviewCount, 'published review')} ` +
      `(${fmtInt(f.textCount)} with text). ${fmtPct(f.positivePct)} of reviews are positive, ${fmtPct(f.neutralPct)} neutral and ${fmtPct(f.negativePct)} negative.`,
    // Reviews at the typical (rounded mean) rating; a polarised corpus may have none, then the newest.
    [newestIds(f.rows, (r) => r.review.rating === typical, bound(SUPPORT, f.stars[typical])), newestIds(f.rows, () => true, SUPPORT)].find(
      (ids) => ids.length > 0,
    ) ?? [],
  );

  const starPct = percentages([5, 4, 3, 2, 1].map((s) => f.stars[s]));
  const dist = [5, 4, 3, 2, 1]
    .map((s, i) => ({ s, n: f.stars[s], pct: starPct[i] }))
    .filter((x) => x.n > 0)
    .map((x) => `${count(x.s, 'star')}: ${fmtInt(x.n)} (${fmtPct(x.pct)})`);
  add(
    'How are the star ratings distributed?',
    `${dist.join('; ')}.`,
    [5, 4, 3, 2, 1].flatMap((s) => newestIds(f.rows, (r) => r.review.rating === s, bound(1, f.stars[s]))),
  );

  const mentioned = f.aspects.filter((a) => a.mention_count > 0);
  const praised = [...mentioned].sort((a, b) => b.positive_count - a.positive_count)[0];
  if (praised && praised.positive_count > 0) {
    add(
      'What do customers praise most?',
      `${praised.label}: ${fmtInt(praised.positive_count)} of the ${count(praised.mention_count, 'review')} that discuss it ${praised.positive_count === 1 ? 'is' : 'are'} positive about it (${fmtPct(praised.positive_pct)}).`,
      newestIds(f.rows, aspectIs(praised.id, 'positive'), bound(SUPPORT, praised.positive_count)),
    );
  }
  const criticised = [...mentioned].sort((a, b) => b.negative_count - a.negative_count)[0];
  if (criticised && criticised.negative_count > 0) {
    add(
      'What do customers complain about most?',
      `${criticised.label}: ${count(criticised.negative_count, 'review')} ${criticised.negative_count === 1 ? 'is' : 'are'} negative about it, ${fmtPct(criticised.negative_pct)} of the ${fmtInt(criticised.mention_count)} that discuss it.`,
      newestIds(f.rows, aspectIs(criticised.id, 'negative'), bound(SUPPORT, criticised.negative_count)),
    );
  }

  // Each aspect answer quotes a different sentence, so three answers do not repeat one review.
  const quoted = new Set<string>();
  for (const a of mentioned.slice(0, ASPECT_QUESTIONS)) {
    const quote = a.quotes.find((q) => !quoted.has(q.text));
    if (quote) quoted.add(quote.text);
    const others = newestIds(f.rows, aspectIs(a.id), bound(SUPPORT, a.mention_count)).filter((id) => id !== quote?.review_id);
    add(
      `What do reviews say about ${a.label.toLowerCase()}?`,
      `${count(a.mention_count, 'review')} mention ${a.label.toLowerCase()}: ${fmtInt(a.positive_count)} positive, ${fmtInt(a.neutral_count)} neutral, ` +
        `${fmtInt(a.negative_count)} negative and ${fmtInt(a.conflict_count)} mixed (score ${a.score.toFixed(2)} on a -1 to 1 scale).` +
        (quote ? ` One customer wrote: “${quote.text}”` : ''),
      (quote ? [quote.review_id, ...others] : others).slice(0, SUPPORT),
    );
  }

  entityQuestion(f, add, 'Which technicians do customers mention most?', f.technicians, (r) => r.review.technicians);
  entityQuestion(f, add, 'Which services are reviewed most?', f.services, (r) => r.review.services);
  entityQuestion(f, add, 'Which areas are reviews from?', f.areas, (r) => (r.review.service_area === null ? [] : [r.review.service_area]));

  const problems = f.problems.slice(0, ENTITY_NAMES);
  if (problems.length > 0) {
    add(
      'What problems do customers mention?',
      `Most mentioned: ${problems.map((p) => `${p.label.toLowerCase()} (${count(p.review_count, 'review')})`).join(', ')}.`,
      problems.flatMap((p) => p.example_review_ids.slice(0, 2)),
    );
  }

  const d = f.trendDetail;
  if (d.window_start !== null && d.n > 0) {
    const tested =
      d.slope_per_month === null
        ? `Only ${count(d.n, 'review')} fall in ${d.window_start} to ${d.window_end}, too few to test a trend (the rule needs at least 10 reviews over 3 months), so it is reported as stable.`
        : `${count(d.n, 'review')} from ${d.window_start} to ${d.window_end} were tested: the fitted slope is ${d.slope_per_month >= 0 ? '+' : ''}` +
          `${d.slope_per_month.toFixed(3)} stars per month${d.p_value === null ? '' : ` (p = ${d.p_value.toFixed(3)})`}. ` +
          'A trend is reported only when the slope is significant (p < 0.05) and amounts to at least 0.1 stars over the year.';
    add(
      'Are ratings getting better or worse?',
      `The trend is ${f.trend}. ${tested}`,
      newestIds(f.rows, (r) => r.review.date.slice(0, 7) >= (d.window_start as string), bound(SUPPORT, d.n)),
    );
  }

  const latest = f.rows[0].review.date;
  const since = shiftDays(latest, -RECENT_DAYS);
  let recentCount = 0;
  let recentSum = 0;
  for (const r of f.rows) {
    if (r.review.date < since) break;
    recentCount++;
    recentSum += r.review.rating;
  }
  add(
    'How recent are the reviews?',
    `The latest review is dated ${latest}. ${count(recentCount, 'review')} ${recentCount === 1 ? 'was' : 'were'} posted in the ${RECENT_DAYS} days up to then, averaging ${fmtRating(recentSum / recentCount)} stars.`,
    newestIds(f.rows, () => true, SUPPORT),
  );
  return entries;
}

/**
 * `k`, or fewer when at most `matching` rows can match: the scan for the newest ids stops once it has
 * them all instead of reading to the oldest review (a kept corpus's revision reads only the newest rows).
 */
const bound = (k: number, matching: number): number => Math.min(k, matching);

function aspectIs(id: string, polarity?: Polarity): (row: Row) => boolean {
  return (row) => row.findAspect(id, polarity) >= 0;
}

function entityQuestion(
  f: Facts,
  add: (q: string, a: string, ids: string[]) => void,
  question: string,
  list: Facts['technicians'],
  idsOf: (row: Row) => readonly string[],
): void {
  const top = list.filter((e) => e.review_count > 0).slice(0, ENTITY_NAMES);
  if (top.length === 0) return;
  const parts = top.map(
    (e) =>
      `${e.name} (${count(e.review_count, 'review')}, average ${fmtRating(e.avg_rating as number)} stars, ${fmtPct(e.positive_pct)} positive)`,
  );
  add(
    question,
    `${parts.join('; ')}.`,
    top.flatMap((e) => newestIds(f.rows, (r) => idsOf(r).includes(e.id), bound(2, e.review_count))),
  );
}

function shiftDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The editorial summary: a few sentences a reader can trust, every number taken from the facts.
import { count, type Facts, fmtInt, fmtPct, fmtRating } from './facts.js';

export function buildSummary(f: Facts, dateRange: { earliest: string | null; latest: string | null }): string {
  if (f.reviewCount === 0) return 'No reviews have been published yet.';
  const parts: string[] = [
    `Across ${count(f.reviewCount, 'review')} from ${dateRange.earliest} to ${dateRange.latest}, customers rate ${f.subject} ` +
      `${fmtRating(f.meanRating)} out of 5 on average, and ${fmtPct(f.positivePct)} of reviews are positive (${fmtPct(f.negativePct)} negative).`,
  ];
  const mentioned = f.aspects.filter((a) => a.mention_count > 0);
  const praised = [...mentioned].sort((a, b) => b.positive_count - a.positive_count)[0];
  if (praised && praised.positive_count > 0) {
    parts.push(
      `The most praised aspect is ${praised.label.toLowerCase()}: ${fmtPct(praised.positive_pct)} positive across ${count(praised.mention_count, 'review')} that discuss it.`,
    );
  }
  const criticised = [...mentioned].sort((a, b) => b.negative_count - a.negative_count)[0];
  if (criticised && criticised.negative_count > 0) {
    parts.push(
      `The most frequent complaint concerns ${criticised.label.toLowerCase()} (${count(criticised.negative_count, 'negative review')}).`,
    );
  }
  const tech = f.technicians.find((t) => t.review_count > 0);
  if (tech)
    parts.push(
      `${tech.name} is named in the most reviews (${fmtInt(tech.review_count)}, averaging ${fmtRating(tech.avg_rating as number)} stars).`,
    );
  const d = f.trendDetail;
  if (d.window_start !== null) parts.push(`Over ${d.window_start} to ${d.window_end} the rating trend is ${f.trend}.`);
  return parts.join(' ');
}

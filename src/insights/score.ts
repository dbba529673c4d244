// Shared numeric conventions: how raw lexicon sums become -1..1 scores and polarity labels.
import type { Polarity } from '../domain/index.js';

/** A raw opinion sum must exceed this (in lexicon units) to count as positive or negative. */
export const POLARITY_THRESHOLD = 0.5;

/** Maps an unbounded lexicon sum onto -1..1 (x/√(x²+α), as VADER does); α=8 puts one "great" (3) at 0.73. */
export function normalize(raw: number): number {
  return raw / Math.sqrt(raw * raw + 8);
}

export function polarityOf(raw: number): Polarity {
  if (raw > POLARITY_THRESHOLD) return 'positive';
  if (raw < -POLARITY_THRESHOLD) return 'negative';
  return 'neutral';
}

/** Polarity of an already-normalised -1..1 score, with the threshold mapped through `normalize`. */
export function polarityOfScore(score: number): Polarity {
  const cut = normalize(POLARITY_THRESHOLD);
  if (score > cut) return 'positive';
  if (score < -cut) return 'negative';
  return 'neutral';
}

/** Star rating 1..5 on the -1..1 scale (3 stars is neutral). */
export function ratingScore(rating: number): number {
  const clamped = Math.min(5, Math.max(1, Number.isFinite(rating) ? rating : 3));
  return (clamped - 3) / 2;
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

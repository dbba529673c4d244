// Percentages that add up: rounded to one decimal by the largest-remainder method, so a set of
// complementary shares always sums to exactly 100.0 (or all 0 when the total is 0).

export function percentages(counts: number[], decimals = 1): number[] {
  const total = counts.reduce((s, c) => s + c, 0);
  if (total === 0) return counts.map(() => 0);
  const unit = 10 ** decimals;
  const exact = counts.map((c) => (c / total) * 100 * unit);
  const floors = exact.map(Math.floor);
  let missing = 100 * unit - floors.reduce((s, f) => s + f, 0);
  const order = exact.map((e, i) => ({ i, r: e - floors[i] })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (missing <= 0) break;
    floors[i] += 1;
    missing -= 1;
  }
  return floors.map((f) => f / unit);
}

/** One share of a total, rounded to one decimal; 0 for an empty total. */
export function percent(part: number, total: number): number {
  return total === 0 ? 0 : Math.round((part / total) * 1000) / 10;
}

import { type Html, html } from './html.js';

// Formatting is done by hand rather than with Intl so every replica (whatever its ICU data) renders the
// same bytes for one revision — the pages' ETags depend on it. enhance.js mirrors formatDate.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 2026-10-31 → "Oct 31, 2026". */
export function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** 1344 → "1,344". */
export const formatCount = (n: number) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** One decimal, trailing ".0" dropped: 67.2 → "67.2", 4 → "4". */
export const formatPct = (n: number) => `${Math.round(n * 10) / 10}`;

/** Ratings always show one decimal: 4.2 → "4.2", 4 → "4.0". */
export const formatRating = (n: number) => (Math.round(n * 10) / 10).toFixed(1);

export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** google → "Google"; the platform ids are lowercase by contract. */
export const sourceLabel = (source: string) => source.charAt(0).toUpperCase() + source.slice(1);

/**
 * Stars for a value 0–5: a grey row with a gold row clipped to the value on top. One accessible name
 * carries the number; the glyphs themselves are CSS content.
 */
export function stars(value: number, label: string | null = `${formatRating(value)} out of 5 stars`): Html {
  const pct = Math.max(0, Math.min(100, (value / 5) * 100));
  // label null: the number is written beside the stars, so they are decoration only.
  const a11y = label === null ? html`aria-hidden="true"` : html`role="img" aria-label="${label}"`;
  return html`<span class="stars" ${a11y}><span class="stars-on" style="width:${formatPct(pct)}%"></span></span>`;
}

const DAY_NAMES: Record<string, string> = { Mo: 'Mon', Tu: 'Tue', We: 'Wed', Th: 'Thu', Fr: 'Fri', Sa: 'Sat', Su: 'Sun' };
const WEEK = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/** ["Mo","Tu","We","Th","Fr"] → "Mon–Fri"; non-consecutive days are listed. */
export function dayRange(days: readonly string[]): string {
  const idx = [...new Set(days)].map((d) => WEEK.indexOf(d)).sort((a, b) => a - b);
  const consecutive = idx.length > 2 && idx.every((v, i) => i === 0 || v === idx[i - 1] + 1);
  if (consecutive) return `${DAY_NAMES[WEEK[idx[0]]]}–${DAY_NAMES[WEEK[idx[idx.length - 1]]]}`;
  return idx.map((i) => DAY_NAMES[WEEK[i]]).join(', ');
}

/** 07:00 → "7 am", 18:30 → "6:30 pm", 24:00 → "midnight". */
export function clock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === 24 || (h === 0 && m === 0)) return 'midnight';
  if (h === 12 && m === 0) return 'noon';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m ? `:${String(m).padStart(2, '0')}` : ''} ${h < 12 ? 'am' : 'pm'}`;
}

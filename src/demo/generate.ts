import { type Business, BusinessSchema, type ImportRecordInput, shiftDays } from '../domain/index.js';
import { DEMO_BUSINESS } from './business.js';
import {
  ASPECT_PHRASES,
  CLOSERS_MIX,
  CLOSERS_NEG,
  CLOSERS_POS,
  FIRST_NAMES,
  LAST_INITIALS,
  OPENERS,
  PROBLEMS,
  REPLIES_NEG,
  REPLIES_POS,
} from './phrases.js';

/** mulberry32: a tiny seeded PRNG, so the demo is the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoOptions {
  reviews?: number;
  seed?: number;
  /** Last day of the generated history; fixed by default so the demo's bytes never change. */
  endDate?: string;
  years?: number;
}

// J-shaped: mostly fives, a real tail of ones, few in the middle.
const RATING_WEIGHTS: [number, number][] = [
  [5, 0.66],
  [4, 0.14],
  [3, 0.05],
  [2, 0.04],
  [1, 0.11],
];
const SOURCES: [string, number][] = [
  ['google', 0.55],
  ['yelp', 0.2],
  ['facebook', 0.13],
  ['direct', 0.12],
];

export function demoBusiness(): Business {
  return BusinessSchema.parse(DEMO_BUSINESS);
}

/** A deterministic, realistic review history for the demo business, as import records. */
export function generateDemoReviews(opts: DemoOptions = {}): ImportRecordInput[] {
  return Array.from(demoReviews(opts));
}

/** The same history one record at a time, so a million reviews never sit in memory together. */
export function* demoReviews(opts: DemoOptions = {}): Generator<ImportRecordInput> {
  const n = opts.reviews ?? 2000;
  const rand = prng(opts.seed ?? 20_240_601);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const weighted = <T>(xs: readonly [T, number][]) => {
    let r = rand();
    for (const [v, w] of xs) if ((r -= w) < 0) return v;
    return xs[xs.length - 1][0];
  };
  const business = demoBusiness();
  const aspects = Object.keys(ASPECT_PHRASES);
  const end = opts.endDate ?? '2026-10-31';
  const days = Math.round((opts.years ?? 5) * 365);
  for (let i = 0; i < n; i++) {
    // Volume grows over time (a business that gets busier): sqrt skews dates toward the end.
    const date = shiftDays(end, -Math.floor((1 - Math.sqrt(rand())) * days));
    const rating = weighted(RATING_WEIGHTS);
    const source = weighted(SOURCES);
    const tech = business.technicians[Math.floor(rand() ** 1.3 * business.technicians.length)];
    const service = pick(business.services);
    const area = pick(business.service_areas);
    const author = `${pick(FIRST_NAMES)} ${LAST_INITIALS[Math.floor(rand() * LAST_INITIALS.length)]}.`;
    const ratingOnly = rand() < 0.15;
    const fill = (s: string) =>
      s
        .replace('{t}', rand() < 0.5 ? tech.name.split(' ')[0] : tech.name)
        .replace('{s}', service.name.toLowerCase())
        .replace('{p}', pick(PROBLEMS));
    let text: string | null = null;
    if (!ratingOnly) {
      const parts = [fill(pick(OPENERS))];
      const count = 1 + Math.floor(rand() * 3);
      const chosen = new Set<string>();
      while (chosen.size < count) chosen.add(pick(aspects));
      for (const aspect of chosen) {
        // Low ratings carry complaints, high ones praise, with some mixed reviews in between.
        const positive = rating >= 4 ? rand() < 0.93 : rating === 3 ? rand() < 0.5 : rand() < 0.12;
        parts.push(fill(pick(positive ? ASPECT_PHRASES[aspect].pos : ASPECT_PHRASES[aspect].neg)));
      }
      if (rand() < 0.35) parts.push(`We are in ${area.name}.`);
      parts.push(pick(rating >= 4 ? CLOSERS_POS : rating <= 2 ? CLOSERS_NEG : CLOSERS_MIX));
      text = parts.join(' ');
    }
    const hasReply = rand() < (rating <= 2 ? 0.92 : 0.72);
    const replyDate = shiftDays(date, Math.floor(rand() * 4));
    const hour = 8 + Math.floor(rand() * 12);
    const minute = Math.floor(rand() * 60);
    yield {
      source,
      // Direct reviews come from the CRM with its job number; platforms have their own review ids.
      source_review_id: source === 'direct' ? `job-${100_000 + i}` : `${source}-${(i + 1).toString(36).padStart(6, '0')}`,
      author,
      rating,
      date,
      published_at: `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`,
      text,
      language: 'en',
      source_url: source === 'direct' ? null : `https://reviews.example/${source}/${i + 1}`,
      owner_reply: hasReply && replyDate <= end ? { text: fill(pick(rating >= 4 ? REPLIES_POS : REPLIES_NEG)), date: replyDate } : null,
      verified: true,
      verification: { method: source === 'direct' ? 'crm_job_match' : 'platform' },
      technicians: rand() < 0.3 ? [tech.id] : [],
      services: rand() < 0.6 ? [service.id] : [],
      service_area: rand() < 0.5 ? area.id : null,
    };
  }
}

/**
 * The demo history as file text in chunks of about `chunkChars`: NDJSON (one record a line) or one JSON
 * array, byte for byte what stringifying the whole array at once gives.
 */
export function* demoFileChunks(format: 'json' | 'ndjson', opts: DemoOptions = {}, chunkChars = 1 << 16): Generator<string> {
  let chunk = format === 'json' ? '[' : '';
  let count = 0;
  for (const r of demoReviews(opts)) {
    const text = JSON.stringify(r);
    chunk += format === 'json' ? (count === 0 ? text : `,${text}`) : `${text}\n`;
    count++;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  // An empty NDJSON file is one newline, as joining no lines and ending the file gives.
  chunk += format === 'json' ? ']' : count === 0 ? '\n' : '';
  yield chunk;
}

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { analyseReviews } from '../../src/catalog/index.js';
import { demoBusiness, generateDemoReviews } from '../../src/demo/index.js';
import { engine } from '../../src/insights/index.js';
import { niceByThread } from '../helpers/index.js';

const threads = () => niceByThread().size;

/** The most threads this process had beyond those it had before `work` ran. */
async function extraThreadsDuring(work: () => Promise<unknown>): Promise<number> {
  const base = threads();
  let most = base;
  const sampler = setInterval(() => {
    most = Math.max(most, threads());
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return most - base;
}

test('an analysis starts a thread per batch of work, up to one per core', {
  skip: process.platform !== 'linux' && 'reads /proc',
}, async () => {
  // libuv's own threads start with the first file read: started before counting.
  await readFile(import.meta.filename);
  const analyse = analyseReviews(engine);
  const business = demoBusiness();
  const reviews = generateDemoReviews({ reviews: 600 }).map((r, i) => ({
    id: `r${i}`,
    rating: r.rating,
    text: r.text ?? null,
    title: r.title ?? null,
    language: null,
  }));
  // Each thread loads the engine (about a second of CPU): one review does not start a thread per core.
  let one: string[] = [];
  // What one analysis thread adds to this process (under tsx, its module hooks' thread too), or more.
  const perThread = await extraThreadsDuring(async () => (one = await analyse.analyse(business, reviews.slice(0, 1))));
  assert.ok(perThread > 0);
  assert.equal(one.length, 1);
  let all: string[] = [];
  // Three batches of 250: a thread for each, up to one per core (bounds: a thread the runtime starts once,
  // during either run, counts there too).
  const extra = await extraThreadsDuring(async () => (all = await analyse.analyse(business, reviews)));
  if (availableParallelism() > 1) assert.ok(extra > perThread, `${extra} threads for 600 reviews, ${perThread} for one`);
  assert.ok(extra <= perThread * Math.min(availableParallelism(), 3), `${extra} threads for 600 reviews, ${perThread} for one`);
  assert.equal(all.length, 600);
  assert.equal(all[0], one[0], 'the same analysis from either pool');
});

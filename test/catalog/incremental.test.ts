// A catalog built on the previous one (only the changed reviews re-rendered and re-indexed) must be
// indistinguishable from one built from scratch: same bytes, same ETags, same answers.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import fc from 'fast-check';
import {
  analyzerOptions,
  Catalog,
  CorpusWorker,
  decodeSnapshot,
  LocalCorpus,
  SnapshotFormatError,
  SplicedJson,
  snapshotFormat,
  snapshotLoader,
  TextIndex,
} from '../../src/catalog/index.js';
import { demoBusiness } from '../../src/demo/index.js';
import { foldText, type StoredReview } from '../../src/domain/index.js';
import { createAnalyzer, engine } from '../../src/insights/index.js';
import { runAtOnce } from '../../src/threads/index.js';
import { carriedByKey, carriedFrom, storedReviews, watchAspectMask } from '../helpers/index.js';

const FORMAT = snapshotFormat(engine.version);

const business = demoBusiness();
const base = storedReviews(120, 11);
const extra = storedReviews(60, 12, 'x');
const texts = [
  'Fixed the leak fast.',
  'Late, but the drain works now.',
  'Ünusual ÉTÉ text with the tech',
  null,
  'Price was fair; Mike was on time.',
];

/** One revision's changes: new reviews, edited ones (a new row object: new text, rating or date), removed ones and republished ones. */
const change = fc.record({
  add: fc.integer({ min: 0, max: 4 }),
  republish: fc.boolean(),
  edit: fc.array(
    fc.record({
      pick: fc.nat(),
      text: fc.constantFrom(...texts),
      rating: fc.integer({ min: 1, max: 5 }),
      dayShift: fc.integer({ min: -400, max: 400 }),
      // What the search index keeps a set of positions for besides ratings and mentions.
      source: fc.constantFrom('google', 'yelp', 'direct'),
      language: fc.constantFrom('en', 'es', null),
      reply: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  remove: fc.array(fc.nat(), { maxLength: 3 }),
});

const shiftDay = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const analyzer = createAnalyzer(analyzerOptions(business));
/** Analyses as a store hands them back: analysed once, stored as JSON. */
const stored = (rows: Iterable<StoredReview>) =>
  new Map(
    [...rows].map((r) => [
      r.id,
      JSON.stringify(analyzer.analyze({ id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language })),
    ]),
  );
const common = (revision: number) => ({
  revision: { id: revision, created_at: `2026-11-${String(revision).padStart(2, '0')}T00:00:00.000Z` },
  business,
  publicBaseUrl: 'https://reviews.example',
});
// Incremental builds run on the corpus thread, as on a server; builds from scratch in this thread: the
// bytes must agree across both.
const worker = new CorpusWorker(engine);
after(() => worker.close());
/** From scratch; the catalog analyses every review itself. */
const build = (rows: Map<string, StoredReview>, revision: number) =>
  Catalog.fromReviews({ ...common(revision), rows, analyses: new Map() }, new LocalCorpus(engine));
/** Only what changed: each changed id's current row (or null once removed) and its stored analysis. */
const update = (previous: Catalog, rows: Map<string, StoredReview>, changed: Set<string>, revision: number) =>
  Catalog.update(
    previous,
    {
      ...common(revision),
      changes: new Map([...changed].map((id) => [id, rows.get(id) ?? null])),
      analyses: stored([...changed].flatMap((id) => rows.get(id) ?? [])),
    },
    worker,
  );

test('an update with one new review views the previous body where it lies instead of rendering it again', async () => {
  const rows = new Map(storedReviews(400, 13).map((r) => [r.id, r]));
  const first = await Catalog.fromReviews({ ...common(1), rows, analyses: stored(rows.values()) }, worker);
  const fresh = { ...extra[0], date: '2027-01-01', published_at: '2027-01-01T00:00:00.000Z' };
  rows.set(fresh.id, fresh);
  const next = await update(first, rows, new Set([fresh.id]), 2);
  const old = new Set(first.reviewsJson.parts.map((p) => p.buffer));
  const made = next.reviewsJson.parts.filter((p) => !old.has(p.buffer)).reduce((n, p) => n + p.length, 0);
  // What is new: the document's head and tail (the business, the aggregate rating) and the one review.
  const body = next.reviewsJson.segments.length;
  assert.ok(body > 200_000 && made < 16_384, `${made} bytes made for one new review in a body of ${body}`);
  assert.equal(Buffer.concat(next.reviewsJson.parts).toString(), Buffer.concat((await build(rows, 2)).reviewsJson.parts).toString());
});

const QUERIES = [
  { limit: 100 },
  { query: 'leak', limit: 100 },
  { query: 'the tech', min_rating: 3, limit: 100 },
  { query: 'ete', limit: 50 },
  { rating: 5, since: '2024-01-01', limit: 100 },
  // Every set the index keeps (carried a run at a time into an update's index): alone and combined.
  { min_rating: 4, limit: 200 },
  { mentions_technician: 'mike-delgado', limit: 200 },
  { mentions_service: 'drain-cleaning', limit: 200 },
  { source: 'yelp', limit: 200 },
  { source: 'direct', has_owner_reply: false, limit: 200 },
  { has_owner_reply: true, limit: 200 },
  { language: 'es', limit: 200 },
  { has_text: false, limit: 200 },
  { has_text: true, rating: 2, sort: 'oldest' as const, limit: 200 },
];

/**
 * The catalog as another process loads it: from the stored snapshot (gzip-coded bodies and layout); the
 * corpus thread takes it over, reading its rows from the bodies or from the corpus image it gave of them.
 */
async function reloaded(c: Catalog, from: 'bodies' | 'image'): Promise<Catalog> {
  const image = from === 'image' ? await worker.image(c.revision) : null;
  if (from === 'image') assert.ok(image, 'the thread that built the revision gives its image');
  const stored = await c.snapshot(FORMAT);
  const { reviews, insights, ...snapshot } = await decodeSnapshot(stored, FORMAT);
  // Decoded, it keeps nothing of the packed value (a loaded snapshot's, let go once loaded).
  stored.layout.fill(0);
  const loaded = Catalog.fromSnapshot(
    { id: c.revision, created_at: c.generatedAt },
    { reviews, insights, ...snapshot },
    'https://reviews.example',
  );
  // From the image, the insight builders' state comes with the rows (no pass over them).
  const state = from === 'image' ? 'image' : 'pass';
  assert.deepEqual(await worker.seed(loaded.revision, { ...snapshot, reviews: [reviews], insights: [insights] }, image), { from, state });
  for (const name of ['reviews', 'insights', 'feedJson', 'feedAtom'] as const)
    assert.equal(loaded.representations[name].etag, c.representations[name].etag, `${name} ETag after a reload`);
  for (const r of c.reviews.slice(0, 5))
    assert.deepEqual(loaded.analysisOf(r.id), c.analysisOf(r.id), 'one analysis parsed from its stored bytes');
  assert.equal(JSON.stringify(loaded.insights), insights.toString(), 'per_review rebuilt from the stored analyses');
  return loaded;
}

test('a catalog built on the previous one (built, or loaded from its snapshot and taken over from its bodies or corpus image) equals one built from scratch, over any sequence of changes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(change, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('built', 'bodies', 'image'),
      async (changes, start) => {
        const rows = new Map(base.map((r) => [r.id, r]));
        let incremental = await Catalog.fromReviews({ ...common(1), rows, analyses: stored(rows.values()) }, worker);
        if (start !== 'built') incremental = await reloaded(incremental, start);
        let next = 0;
        const removed: StoredReview[] = [];
        for (const [k, c] of changes.entries()) {
          const revision = k + 2;
          const changed = new Set<string>();
          for (let i = 0; i < c.add && next < extra.length; i++, next++) {
            rows.set(extra[next].id, extra[next]);
            changed.add(extra[next].id);
          }
          const ids = [...rows.keys()];
          for (const e of c.edit) {
            const old = rows.get(ids[e.pick % ids.length])!;
            rows.set(old.id, {
              ...old,
              text: e.text,
              rating: e.rating,
              date: shiftDay(old.date, e.dayShift),
              source: e.source,
              language: e.language,
              owner_reply: e.reply ? { text: 'Thank you for calling us.', date: old.date } : null,
              version: `${old.version}+`,
            });
            changed.add(old.id);
          }
          if (c.republish && removed.length > 0) {
            const back = removed.shift()!;
            rows.set(back.id, back);
            changed.add(back.id);
          }
          for (const pick of c.remove) {
            const id = ids[pick % ids.length];
            if (rows.has(id)) removed.push(rows.get(id)!);
            rows.delete(id);
            changed.add(id);
          }
          incremental = await update(incremental, rows, changed, revision);
          const scratch = await build(rows, revision);
          for (const name of ['reviews', 'insights', 'feedJson', 'feedAtom'] as const) {
            assert.ok(
              incremental.representations[name].body.equals(scratch.representations[name].body),
              `${name} bytes after change ${k + 1}`,
            );
            assert.equal(incremental.representations[name].etag, scratch.representations[name].etag);
          }
          assert.equal(
            incremental.representations.insights.body.toString(),
            JSON.stringify(scratch.insights),
            'the spliced insights are JSON.stringify of the document',
          );
          const answer = (c: Catalog, q: (typeof QUERIES)[number]) => {
            const { matched, reviews } = c.search(q);
            return { matched, ids: reviews.map((r) => r.id) };
          };
          for (const q of QUERIES) assert.deepEqual(answer(incremental, q), answer(scratch, q), JSON.stringify(q));
          for (const id of ids.slice(0, 20)) {
            assert.deepEqual(incremental.review(id), scratch.review(id));
            assert.deepEqual(incremental.analysisOf(id), scratch.analysisOf(id));
          }
        }
      },
    ),
    { numRuns: 25, seed: 4242 },
  );
});

test('an empty corpus updates, reloads and fills again like a build from scratch', async () => {
  const rows = new Map<string, StoredReview>();
  let c = await Catalog.fromReviews({ ...common(1), rows, analyses: new Map() }, worker);
  const steps: [string, (ids: Set<string>) => void][] = [
    ['three new', (ids) => extra.slice(0, 3).forEach((r) => (rows.set(r.id, r), ids.add(r.id)))],
    ['all removed', (ids) => [...rows.keys()].forEach((id) => (rows.delete(id), ids.add(id)))],
    ['reloaded empty, then one new', (ids) => (rows.set(extra[4].id, extra[4]), ids.add(extra[4].id))],
    ['reloaded from its image, then one new', (ids) => (rows.set(extra[5].id, extra[5]), ids.add(extra[5].id))],
  ];
  for (const [k, [label, apply]] of steps.entries()) {
    if (label.startsWith('reloaded')) c = await reloaded(c, label.includes('image') ? 'image' : 'bodies');
    const changed = new Set<string>();
    apply(changed);
    c = await update(c, rows, changed, k + 2);
    const scratch = await build(rows, k + 2);
    for (const name of ['reviews', 'insights', 'feedJson', 'feedAtom'] as const)
      assert.ok(c.representations[name].body.equals(scratch.representations[name].body), `${label}: ${name}`);
    assert.equal(c.reviews.length, rows.size);
  }
});

test('a corpus image is given only of the revision the thread holds, and one not of the bodies given is passed over for them', async () => {
  const rows = new Map(base.slice(0, 30).map((r) => [r.id, r]));
  const first = await Catalog.fromReviews({ ...common(1), rows, analyses: stored(rows.values()) }, worker);
  const imageOfFirst = await worker.image(1);
  assert.ok(imageOfFirst);
  // An edit: the second revision has as many reviews, in the same order, as the first.
  const edited = { ...base[3], rating: 1, text: 'Changed my mind.', version: `${base[3].version}+` };
  rows.set(edited.id, edited);
  const second = await update(first, rows, new Set([edited.id]), 2);
  assert.equal(await worker.image(1), null, 'the thread has moved on to revision 2');
  // The second revision's bodies with the first one's image: only its revision tells them apart.
  assert.deepEqual(await worker.seed(2, second.seedBodies(), imageOfFirst), {
    from: 'bodies',
    passedOver: 'an image of revision 1',
    state: 'pass',
  });
  // An image of revision 2 made elsewhere from rows with one review moved to another place: revision 2's
  // count, not its order.
  const moved = new Map(rows);
  moved.set(base[0].id, { ...base[0], date: '2019-01-01', version: `${base[0].version}+` });
  const elsewhere = new LocalCorpus(engine);
  await Catalog.fromReviews({ ...common(2), rows: moved, analyses: stored(moved.values()) }, elsewhere);
  const seeded = await worker.seed(2, second.seedBodies(), await elsewhere.image(2));
  assert.equal(seeded.from, 'bodies');
  assert.match(seeded.passedOver ?? '', /^review \d+ is not /);
  // Taken over from the bodies, the next update is right.
  rows.set(extra[1].id, extra[1]);
  const third = await update(second, rows, new Set([extra[1].id]), 3);
  assert.ok(third.representations.insights.body.equals((await build(rows, 3)).representations.insights.body));
  // An image that is not one (cut short) is passed over too; the whole one is read.
  const imageOfThird = (await worker.image(3))!;
  assert.equal((await worker.seed(3, third.seedBodies(), imageOfThird.subarray(0, imageOfThird.length - 1))).from, 'bodies');
  assert.deepEqual(await worker.seed(3, third.seedBodies(), await worker.image(3)), { from: 'image', state: 'image' });
});

test('a damaged stored layout is refused, not trusted', async () => {
  const c = await build(new Map(base.slice(0, 10).map((r) => [r.id, r])), 1);
  const ok = await c.snapshot(FORMAT);
  const load = async (layout: Buffer) =>
    Catalog.fromSnapshot({ id: 1, created_at: c.generatedAt }, await decodeSnapshot({ ...ok, layout }, FORMAT), 'https://reviews.example');
  assert.equal((await load(ok.layout)).representations.reviews.etag, c.representations.reviews.etag);
  const shifted = Buffer.from(ok.layout);
  shifted.writeUInt32LE(shifted.readUInt32LE(4 + 8) + 1, 4 + 8); // the first review's start (after the pack header and the layout header), one byte off
  await assert.rejects(load(shifted), /out of place/);
  await assert.rejects(load(ok.layout.subarray(0, ok.layout.length - 1)), /cut short/);
});

test('a stored snapshot read back in parts cut anywhere (inside the gzip trailers, the layout headers) loads as the whole value does, serves its codings in those parts, and is stored again as the same value', async () => {
  const c = await build(new Map(base.slice(0, 10).map((r) => [r.id, r])), 1);
  const ok = await c.snapshot(FORMAT);
  const cutAt = (b: Buffer, at: number) => [b.subarray(0, at), b.subarray(at)];
  const every = (b: Buffer, size: number) =>
    Array.from({ length: Math.ceil(b.length / size) }, (_, k) => b.subarray(k * size, (k + 1) * size));
  const load = async (parts: { reviews: Buffer[]; insights: Buffer[]; layout: Buffer[] }, started: boolean) => {
    const loader = snapshotLoader(FORMAT);
    if (started) for (const name of ['reviews', 'insights'] as const) loader.onField(name, parts[name]);
    return Catalog.fromSnapshot({ id: 1, created_at: c.generatedAt }, await loader.decode({ ...ok, ...parts }), 'https://reviews.example');
  };
  for (const tail of [1, 2, 3, 4])
    for (const started of [true, false]) {
      const parts = {
        reviews: cutAt(ok.reviews, ok.reviews.length - tail),
        insights: [
          ...every(ok.insights.subarray(0, ok.insights.length - tail), 4093),
          ...every(ok.insights.subarray(ok.insights.length - tail), 1),
          // An empty part after the trailer: its size is read from the bytes before it.
          Buffer.alloc(0),
        ],
        layout: every(ok.layout, 7),
      };
      const given = { reviews: parts.reviews.length, insights: parts.insights.length };
      const loaded = await load(parts, started);
      // The loader took the parts over: it let go of every one, so none outlives the load.
      assert.deepEqual([parts.reviews.length, parts.insights.length, parts.layout.length], [0, 0, 0]);
      for (const name of ['reviews', 'insights', 'feedJson', 'feedAtom'] as const) {
        assert.equal(loaded.representations[name].etag, c.representations[name].etag, `${name}, trailer cut ${tail} from the end`);
        assert.ok(loaded.representations[name].body.equals(c.representations[name].body), `${name}, trailer cut ${tail} from the end`);
      }
      assert.deepEqual(loaded.search({ query: 'the', limit: 50 }), c.search({ query: 'the', limit: 50 }));
      // Each gzip coding is served in the parts it was read in (never joined), the bytes stored.
      for (const name of ['reviews', 'insights'] as const) {
        const gzip = await loaded.representations[name].encoded('gzip');
        assert.equal(gzip.length, given[name], `${name}: its parts`);
        assert.ok(Buffer.concat(gzip).equals(ok[name]), `${name}: the stored coding`);
      }
      // Stored again, the loaded revision (its codings in parts) is the value it was loaded from.
      const again = await loaded.snapshot(FORMAT);
      for (const field of ['reviews', 'insights', 'layout'] as const) assert.ok(again[field].equals(ok[field]), `${field} stored again`);
      assert.equal(again.insights_core, ok.insights_core);
    }
});

test('a stored snapshot of another format is a SnapshotFormatError, so the revision is built instead', async () => {
  const ok = await (await build(new Map(base.slice(0, 3).map((r) => [r.id, r])), 1)).snapshot(FORMAT);
  assert.equal(ok.engine, FORMAT);
  await assert.rejects(decodeSnapshot({ ...ok, engine: 'engine/0 catalog/1' }, FORMAT), SnapshotFormatError);
});

test('spliced JSON is JSON.stringify of the document, for arrays and objects, empty or not, with items carried or fresh', () => {
  const item = fc.record({
    a: fc.string(),
    n: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    s: fc.constantFrom('</script>', '"\\', '\u2028', '😀', '\ud800'),
  });
  fc.assert(
    fc.property(
      fc.array(item, { maxLength: 8 }),
      fc.array(item, { maxLength: 8 }),
      fc.array(fc.boolean(), { maxLength: 8 }),
      fc.constantFrom('array' as const, 'object' as const),
      (first, added, keepMask, kind) => {
        const keyed = first.map((v, i) => [`k${i}`, v] as const);
        const doc = (items: (readonly [string, unknown])[]) => ({
          before: 1,
          list: kind === 'array' ? items.map(([, v]) => v) : Object.fromEntries(items),
          after: 'x',
        });
        const one = SplicedJson.render(doc(keyed), 'list', kind, { keys: keyed.map(([k]) => k), values: keyed.map(([, v]) => v) });
        assert.equal(Buffer.concat(one.parts).toString(), JSON.stringify(doc(keyed)));
        // Keep some, drop the rest, put new ones in between: order of carried items is preserved.
        const kept = keyed.filter((_, i) => keepMask[i] !== false);
        const fresh = added.map((v, i) => [`n${i}`, v] as const);
        const merged = kept.flatMap((kv, i) => (fresh[i] ? [fresh[i], kv] : [kv])).concat(fresh.slice(kept.length));
        const items = { keys: merged.map(([k]) => k), values: merged.map(([, v]) => v) };
        const two = SplicedJson.render(
          doc(merged),
          'list',
          kind,
          items,
          one,
          carriedByKey(items.keys, items.values, one, new Set(fresh.map(([, v]) => v))),
        );
        assert.equal(Buffer.concat(two.parts).toString(), JSON.stringify(doc(merged)));
      },
    ),
    { numRuns: 300, seed: 7 },
  );
});

/** A text index as the bytes it is stored in: equal bytes, equal indexes. */
const indexBytes = (index: TextIndex) => Buffer.concat(runAtOnce(index.encodeSteps()));

test("a full build's text index, its postings made by the corpus (a thread, or in process), is byte for byte the one made of its reviews here", async () => {
  const rows = new Map([...base, ...extra].map((r) => [r.id, r]));
  for (const corpus of [worker, new LocalCorpus(engine)]) {
    // Rows read in another order than the catalog's: the corpus gets them as read, the positions come later.
    const shuffled = new Map([...rows].reverse());
    const catalog = await Catalog.fromReviews({ ...common(1), rows: shuffled, analyses: stored(rows.values()) }, corpus);
    const made = TextIndex.create(catalog.reviews);
    assert.ok(indexBytes(catalog.index.text).equals(indexBytes(made)));
    assert.ok(catalog.index.text.positions > 100);
  }
});

test('a text index segment of a few documents (built from its sorted postings) is byte for byte the one the bucket passes build', () => {
  fc.assert(
    fc.property(
      fc.array(fc.option(fc.string({ unit: fc.constantFrom('a', 'b', 'é', 'ß', ' ', '🔧'), maxLength: 40 }), { nil: null }), {
        maxLength: 64,
      }),
      fc.array(fc.constantFrom(...texts), { maxLength: 8 }),
      (some, more) => {
        const docs = some.map((text) => ({ text }));
        assert.ok(indexBytes(TextIndex.create(docs)).equals(indexBytes(TextIndex.create(docs, undefined, { fewDocs: 0 }))));
        // A delta of a few, each way, on its own base (a base's texts are shared with the indexes carried on it).
        const added = more.map((text) => ({ text }));
        const next = [...added, ...docs];
        const delta = (fewDocs?: number) =>
          TextIndex.create(
            next,
            { index: TextIndex.create(docs), from: carriedFrom(next, docs, new Set(added)).from },
            { minDelta: 100, fewDocs },
          );
        assert.ok(indexBytes(delta()).equals(indexBytes(delta(0))));
      },
    ),
    { numRuns: 200, seed: 11 },
  );
});

test('a text index segment is byte for byte the same from the bucket passes and from sorted postings when gaps take more than one varint byte', () => {
  const same = (docs: { text: string | null }[]) =>
    indexBytes(TextIndex.create(docs, undefined, { fewDocs: docs.length })).equals(
      indexBytes(TextIndex.create(docs, undefined, { fewDocs: 0 })),
    );
  // A gap of 20,000 documents (three varint bytes) between the two texts that share a trigram.
  assert.ok(same(Array.from({ length: 20_001 }, (_, i) => ({ text: i === 0 || i === 20_000 ? 'xyz' : null }))));
  // Mostly empty documents: a trigram's documents are far apart, many gaps of 128 or more.
  const doc = fc.oneof(
    { weight: 24, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '🔧'), minLength: 3, maxLength: 8 }) },
  );
  // Not shrunk: each run builds two indexes over a million buckets.
  fc.assert(
    fc.property(fc.array(doc, { minLength: 130, maxLength: 1000 }), (texts) => same(texts.map((text) => ({ text })))),
    { numRuns: 30, seed: 12, endOnFailure: true },
  );
});

test('the text index carried across revisions (and through its stored form) finds exactly what a substring scan finds, before and after its base is rebuilt', () => {
  const docs0 = storedReviews(200, 3).map((r) => ({ text: r.text }));
  let docs = docs0;
  let index = TextIndex.create(docs);
  const needles = ['leak', 'the', 'fixed the', 'ete', 'zzz', 'on time', '🔧 ßa'];
  for (let round = 0; round < 12; round++) {
    // Drop every 7th document, replace every 11th with a new object, append a few.
    const fresh = new Set<{ text: string | null }>();
    const nextDocs = docs.flatMap((d, i) => {
      if ((i + round) % 7 === 0) return [];
      if ((i + round) % 11 === 0) {
        const replaced = { text: `${d.text ?? ''} edited ${round} été 🔧 ßa` };
        fresh.add(replaced);
        return [replaced];
      }
      return [d];
    });
    for (let k = 0; k < 5; k++) {
      const added = { text: texts[(round + k) % texts.length] };
      fresh.add(added);
      nextDocs.splice((round * 13 + k * 29) % (nextDocs.length + 1), 0, added);
    }
    index = TextIndex.create(nextDocs, { index, from: carriedFrom(nextDocs, docs, fresh).from }, { minDelta: 20 });
    docs = nextDocs;
    // Every other round the index goes through its stored form (as a loading process restores it: from
    // bytes at an unaligned offset, or in the parts a store read them back in, cut inside numbers and
    // inside characters) and the next round is carried on the restored one.
    if (round % 2 === 1) {
      const bytes = indexBytes(index);
      const unaligned = Buffer.alloc(bytes.length + 1).subarray(1);
      bytes.copy(unaligned);
      const cut = (b: Buffer, size: number) =>
        Array.from({ length: Math.ceil(b.length / size) }, (_, k) => b.subarray(k * size, (k + 1) * size));
      const forms = [[bytes], [unaligned], cut(bytes, 7), cut(unaligned, 4093)];
      index = runAtOnce(TextIndex.decodeSteps(forms[(round >> 1) % forms.length]));
      assert.equal(index.positions, docs.length);
      assert.throws(() => TextIndex.decode(bytes.subarray(0, bytes.length >> 1)), /cut short|do not fit/);
      // It keeps copies, not views: the value it was restored from (a loaded snapshot's) may go or change.
      bytes.fill(0);
      unaligned.fill(0);
    }
    for (const n of needles) {
      const needle = foldText(n);
      const expected = docs.flatMap((d, i) => (foldText(d.text ?? '').includes(needle) ? [i] : []));
      const all = new Uint32Array(Math.ceil(docs.length / 32)).fill(0xffffffff);
      const narrowed = new Uint32Array(all.length);
      index.narrow(needle, all, narrowed);
      const found = docs.flatMap((_, p) => ((narrowed[p >>> 5] >>> (p & 31)) & 1 && index.matches(p, needle) ? [p] : []));
      assert.deepEqual(found, expected, `round ${round}, "${n}"`);
    }
  }
});

test('the text index keeps its postings as gaps in varints: documents far apart (gaps of one to three bytes) are found, also through its stored form', () => {
  const far = new Set([0, 1, 130, 17_000, 17_001, 39_999]);
  const docs = Array.from({ length: 40_000 }, (_, i) => ({ text: far.has(i) ? `a zygomorphic ${i} valve` : `plain ${i % 97} words` }));
  const built = TextIndex.create(docs);
  const encoded = indexBytes(built);
  for (const index of [built, TextIndex.decode(encoded)]) {
    const all = new Uint32Array(Math.ceil(docs.length / 32)).fill(0xffffffff);
    const narrowed = new Uint32Array(all.length);
    index.narrow('zygomorphic', all, narrowed);
    const found = docs.flatMap((_, p) => ((narrowed[p >>> 5] >>> (p & 31)) & 1 && index.matches(p, 'zygomorphic') ? [p] : []));
    assert.deepEqual(found, [...far]);
    // About a byte a document for the rarest trigram's list: six documents, gaps of up to 22,998.
    const bytes = index.candidateCount('zygomorphic') ?? 0;
    assert.ok(bytes >= 6 && bytes <= 6 * 3, `${bytes} bytes`);
    // A needle too short for a trigram narrows nothing: every position stays a candidate.
    const short = new Uint32Array(all.length);
    index.narrow('zy', all, short);
    assert.deepEqual(short, all);
  }
  // Every document holds "pla" or the rare word: a list as long as the corpus takes a byte a document.
  assert.ok((built.candidateCount('plain') ?? 0) <= 40_000 - far.size + 64);
});

test('a corpus that took a revision over moves its insights by the next revision’s change, not by a pass over every row', async () => {
  const rows = new Map(base.map((r) => [r.id, r]));
  const first = await Catalog.fromReviews({ ...common(1), rows, analyses: stored(rows.values()) }, new LocalCorpus(engine));
  // An engine whose kept rows report reads of their aspect mask: a pass over the corpus reads every row's.
  const read = new Set<object>();
  let watching = false;
  const watched = {
    ...engine,
    insightRows: (vertical: string) => {
      const maker = engine.insightRows(vertical);
      return {
        row: (...args: Parameters<typeof maker.row>) =>
          watchAspectMask(maker.row(...args), (row) => {
            if (watching) read.add(row);
          }),
        read: maker.read.bind(maker),
        insights: maker.insights.bind(maker),
        image: maker.image.bind(maker),
        fromImage: maker.fromImage.bind(maker),
        keep: maker.keep.bind(maker),
      };
    },
  };
  const corpus = new LocalCorpus(watched);
  await corpus.seed(first.revision, first.seedBodies());
  const fresh = extra[0];
  rows.set(fresh.id, fresh);
  watching = true;
  const next = await Catalog.update(first, { ...common(2), changes: new Map([[fresh.id, fresh]]), analyses: stored([fresh]) }, corpus);
  watching = false;
  assert.equal(next.reviews.length, base.length + 1);
  assert.ok(read.size <= 1, `${read.size} kept rows read for one new review`);
  const scratch = await build(rows, 2);
  assert.ok(next.representations.insights.body.equals(scratch.representations.insights.body));
});

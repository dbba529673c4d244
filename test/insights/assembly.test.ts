// Assembling a new labelled set from writers' batches (tools/absa/assembly.ts and the assemble:absa command), on
// sentences written for this test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assembleSet, parseSemEvalXml, ROOT, semEvalXml } from '../../tools/absa/index.js';

type Sentence = ReturnType<typeof parseSemEvalXml>[number];
const s = (id: string, text: string, ...labels: [string, Sentence['categories'][number]['polarity']][]): Sentence => ({
  id,
  text,
  categories: labels.map(([category, polarity]) => ({ category, polarity })),
});
const ASPECTS = new Set(['punctuality', 'pricing', 'workmanship']);

describe('assembleSet', () => {
  const project = [s('old-1', 'the van broke down twice on the way to our cabin in the hills')];

  it('leaves out twins of the project and of sentences kept before, and keeps a twin of one left out', () => {
    const a = [
      s('w-a-001', 'Arrived ten minutes early and wiped their boots at the door.', ['punctuality', 'positive']),
      // Half its words are the project sentence's.
      s('w-a-002', 'the van broke down twice on the way to our cabin', ['punctuality', 'negative']),
      s('w-a-003', 'Nobody told us the quote left out the parts.', ['pricing', 'negative']),
    ];
    const b = [
      // A twin of w-a-001, kept before it: left out.
      s('w-b-001', 'Arrived ten minutes early and wiped their boots at the front door.', ['punctuality', 'positive']),
      // A twin of w-a-002 only (Jaccard 6/12; 6/14 with the project's), which was left out: kept.
      s('w-b-002', 'the van broke down on our first visit', ['punctuality', 'negative']),
      s('w-b-003', 'We had them back for the gutters the next spring.'),
    ];
    const out = assembleSet(
      [
        { name: 'w-a', sentences: a },
        { name: 'w-b', sentences: b },
      ],
      ASPECTS,
      project,
    );
    assert.deepEqual(
      out.kept.map((x) => x.id),
      ['w-a-001', 'w-a-003', 'w-b-002', 'w-b-003'],
    );
    assert.deepEqual(out.batches, [
      { name: 'w-a', written: 3, leftOut: 1 },
      { name: 'w-b', written: 3, leftOut: 1 },
    ]);
    assert.deepEqual(out.kept[3].categories, []);
  });

  it('refuses a batch that breaks the shape, naming the batch, the sentence and why', () => {
    const refuse = (sentences: Sentence[], reason: RegExp, name = 'w-a') =>
      assert.throws(() => assembleSet([{ name, sentences }], ASPECTS, []), reason);
    refuse([s('x-001', 'Fine work.', ['workmanship', 'positive'])], /batch w-a, sentence x-001: its id does not start with "w-a-"/);
    refuse([s('w-a-001', 'Fine work.'), s('w-a-001', 'Slow work.')], /batch w-a, sentence w-a-001: the id is used twice/);
    refuse([s('w-a-001', 'Lovely dining room.', ['dining', 'positive'])], /sentence w-a-001: "dining" is not an aspect/);
    refuse(
      [s('w-a-001', 'Cheap and cheap.', ['pricing', 'positive'], ['pricing', 'negative'])],
      /sentence w-a-001: "pricing" is labelled twice/,
    );
    refuse([s('w-a-001', '  ')], /sentence w-a-001: no text/);
    assert.throws(
      () =>
        assembleSet(
          [
            { name: 'w-a', sentences: [] },
            { name: 'w-a', sentences: [] },
          ],
          ASPECTS,
          [],
        ),
      /batch w-a: named twice/,
    );
  });
});

describe('semEvalXml', () => {
  it("writes each of the project's held-out sets back to its own bytes", () => {
    for (const vertical of ['home_services', 'senior_living'])
      for (const split of ['fresh12', 'fresh13', 'fresh14']) {
        const bytes = readFileSync(`${ROOT}data/absa/${vertical}/${split}.xml`, 'utf8');
        assert.equal(semEvalXml(parseSemEvalXml(bytes), { vertical, split }), bytes, `${vertical}/${split}`);
      }
  });

  it('escapes what XML needs, so a set reads back as it was written', () => {
    const sentences = [s('a&b-1', 'Paid <$90> for "the works" & a smile.', ['pricing', 'positive']), s('a&b-2', 'Nothing to say.')];
    const xml = semEvalXml(sentences, { vertical: 'home_services', split: 'x"y' });
    assert.deepEqual(parseSemEvalXml(xml), sentences);
    assert.match(xml, /split="x&quot;y"/);
  });
});

describe('npm run assemble:absa', () => {
  const batch = (dir: string, name: string, sentences: Sentence[]) => {
    const path = join(dir, `${name}.xml`);
    writeFileSync(path, semEvalXml(sentences, { vertical: 'home_services', split: 'batch' }));
    return path;
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/assemble.ts', ...args], { encoding: 'utf8', cwd: ROOT });

  it('writes the kept sentences and reports counts, never a sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'assemble-'));
    const text = 'Zq9 crew patched the zq9 flashing, zq9 roof dry since.';
    const paths = [
      batch(dir, 'zz-a', [
        s('zz-a-001', text, ['workmanship', 'positive']),
        s('zz-a-002', 'Zq9 billed us for an hour they were not here.', ['pricing', 'negative']),
      ]),
      batch(dir, 'zz-b', [s('zz-b-001', text, ['workmanship', 'positive'])]),
    ];
    const out = join(dir, 'set.xml');
    const r = run('--vertical', 'home_services', '--set', 'fresh99', '--out', out, ...paths);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^zz-a: 2 sentences, 0 left out as near twins$/m);
    assert.match(r.stdout, /^zz-b: 1 sentences, 1 left out as near twins$/m);
    assert.match(
      r.stdout,
      /home_services fresh99: 2 sentences kept \(0 with no aspect\), 2 labels \(positive 1, negative 1, neutral 0, conflict 0\)/,
    );
    assert.ok(!r.stdout.includes('zq9'), 'no sentence is printed');
    const written = readFileSync(out, 'utf8');
    assert.match(written, /<sentences vertical="home_services" split="fresh99">/);
    assert.deepEqual(
      parseSemEvalXml(written).map((x) => x.id),
      ['zz-a-001', 'zz-a-002'],
    );
  });

  it('writes nothing when a batch is faulty, and never over a file a model trains on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'assemble-'));
    const out = join(dir, 'set.xml');
    const bad = batch(dir, 'zz-a', [s('zz-a-001', 'The dining room was spotless.', ['dining', 'positive'])]);
    const r = run('--vertical', 'home_services', '--set', 'x', '--out', out, bad);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /batch zz-a, sentence zz-a-001: "dining" is not an aspect of the vertical\nnothing written/);
    assert.equal(existsSync(out), false);
    const good = batch(dir, 'zz-b', [s('zz-b-001', 'Zq9 came on time.', ['punctuality', 'positive'])]);
    const train = run('--vertical', 'home_services', '--set', 'train', good);
    assert.equal(train.status, 2);
    assert.match(train.stderr, /trains a model/);
    assert.equal(run('--vertical', 'home_services', good).status, 2, 'a set needs a name');
  });
});

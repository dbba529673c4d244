// Assembling a new labelled set from writers' batches (tools/absa/assembly.ts and the assemble:absa command), on
// sentences written for this test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assembleSet, type Batch, parseSemEvalXml, ROOT, semEvalXml, writeRefusal } from '../../tools/absa/index.js';

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
    const refuseAll = (batches: Batch[], reason: RegExp) => assert.throws(() => assembleSet(batches, ASPECTS, project), reason);
    const refuse = (sentences: Sentence[], reason: RegExp, name = 'w-a') => refuseAll([{ name, sentences }], reason);
    refuse([s('x-001', 'Fine work.', ['workmanship', 'positive'])], /batch w-a, sentence x-001: its id does not start with "w-a-"/);
    refuse([s('w-a-001', 'Fine work.'), s('w-a-001', 'Slow work.')], /batch w-a, sentence w-a-001: the id is used twice/);
    refuse([s('w-a-001', 'Lovely dining room.', ['dining', 'positive'])], /sentence w-a-001: "dining" is not an aspect/);
    refuse(
      [s('w-a-001', 'Cheap and cheap.', ['pricing', 'positive'], ['pricing', 'negative'])],
      /sentence w-a-001: "pricing" is labelled twice/,
    );
    refuse([s('w-a-001', ' ... ')], /sentence w-a-001: no words in its text/);
    refuse([], /batch w-a: no sentences/);
    refuse([s('old-1', 'Fine work.')], /batch old, sentence old-1: the id is already used in the project/, 'old');
    const fine = [s('w-a-001', 'Fine work.')];
    refuseAll(
      [
        { name: 'w-a', sentences: fine },
        { name: 'w-a', sentences: [s('w-a-002', 'Slow work.')] },
      ],
      /batch w-a: named twice/,
    );
    // Each id has its batch's prefix, yet the two are one id.
    refuseAll(
      [
        { name: 'w', sentences: fine },
        { name: 'w-a', sentences: [s('w-a-001', 'Slow work.')] },
      ],
      /batch w-a, sentence w-a-001: the id is used twice/,
    );
  });
});

describe('writeRefusal', () => {
  const trained = new Set(['/p/data/absa/home_services/train.xml']);
  it('never writes over a file a model trains on, and over another existing file only when asked', () => {
    for (const replace of [false, true])
      assert.match(writeRefusal('/p/data/absa/home_services/train.xml', { trained, exists: true, replace }) ?? '', /trains a model/);
    assert.match(
      writeRefusal('/p/data/absa/home_services/fresh14.xml', { trained, exists: true, replace: false }) ?? '',
      /exists: give --replace/,
    );
    assert.equal(writeRefusal('/p/data/absa/home_services/fresh14.xml', { trained, exists: true, replace: true }), null);
    assert.equal(writeRefusal('/p/data/absa/home_services/fresh99.xml', { trained, exists: false, replace: false }), null);
  });
});

describe('semEvalXml', () => {
  it('writes each set assembled in its shape (fresh12 onwards) back to its own bytes', () => {
    for (const vertical of ['home_services', 'senior_living']) {
      const splits = readdirSync(`${ROOT}data/absa/${vertical}`)
        .map((f) => /^fresh(\d+)\.xml$/.exec(f))
        .filter((m) => m !== null && Number(m[1]) >= 12)
        .map((m) => `fresh${m![1]}`);
      assert.ok(splits.length >= 6, `${vertical}: ${splits}`);
      for (const split of splits) {
        const bytes = readFileSync(`${ROOT}data/absa/${vertical}/${split}.xml`, 'utf8');
        assert.equal(semEvalXml(parseSemEvalXml(bytes), { vertical, split }), bytes, `${vertical}/${split}`);
      }
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

  it('writes nothing when a batch is faulty or the file exists, and replaces a file only when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'assemble-'));
    const out = join(dir, 'set.xml');
    const bad = batch(dir, 'zz-a', [s('zz-a-001', 'The dining room was spotless.', ['dining', 'positive'])]);
    const r = run('--vertical', 'home_services', '--set', 'x', '--out', out, bad);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /batch zz-a, sentence zz-a-001: "dining" is not an aspect of the vertical\nnothing written/);
    assert.equal(existsSync(out), false);
    const broken = join(dir, 'zz-c.xml');
    writeFileSync(broken, '<sentences><sentence id="zz-c-001"><text>Zq9 came on time.</sentence></sentences>');
    const unclosed = run('--vertical', 'home_services', '--set', 'x', '--out', out, broken);
    assert.equal(unclosed.status, 1);
    assert.match(unclosed.stderr, /zz-c\.xml: not well-formed XML: .*\nnothing written/);
    assert.equal(existsSync(out), false);
    const other = join(dir, 'zz-d.xml');
    writeFileSync(other, semEvalXml([s('zz-d-001', 'Zq9 came on time.')], { vertical: 'senior_living', split: 'batch' }));
    const elsewhere = run('--vertical', 'home_services', '--set', 'x', '--out', out, other);
    assert.equal(elsewhere.status, 1);
    assert.match(elsewhere.stderr, /zz-d\.xml: the root names vertical "senior_living", not "home_services"\nnothing written/);
    assert.equal(existsSync(out), false);

    const good = batch(dir, 'zz-b', [s('zz-b-001', 'Zq9 came on time.', ['punctuality', 'positive'])]);
    writeFileSync(out, 'kept as it was');
    const exists = run('--vertical', 'home_services', '--set', 'x', '--out', out, good);
    assert.equal(exists.status, 2);
    assert.match(exists.stderr, /exists: give --replace to write over it/);
    assert.equal(readFileSync(out, 'utf8'), 'kept as it was');
    assert.equal(run('--vertical', 'home_services', '--set', 'x', '--out', out, '--replace', good).status, 0);
    assert.deepEqual(
      parseSemEvalXml(readFileSync(out, 'utf8')).map((x) => x.id),
      ['zz-b-001'],
    );
    assert.equal(run('--vertical', 'home_services', good).status, 2, 'a set needs a name');
    assert.equal(run('--vertical', 'constructor', '--set', 'x', good).status, 2, 'only a vertical with training data');
    assert.equal(run('--vertical', 'home_services', '--set', 'x', good, '--out').status, 2, 'an option needs its value');
  });
});

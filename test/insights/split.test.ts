// A vertical's first train, dev and test sets from writers' batches (tools/absa/split.ts and the split:absa
// command), on sentences written for this test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildSplits, isDev, parseSemEvalXml, ROOT, semEvalXml } from '../../tools/absa/index.js';

type Sentence = ReturnType<typeof parseSemEvalXml>[number];
const s = (id: string, text: string, category?: string): Sentence => ({
  id,
  text,
  categories: category ? [{ category, polarity: 'positive' }] : [],
});
const ASPECTS = new Set(['punctuality', 'pricing']);
// Forty ids with distinct texts: enough that both splits get some by the hash.
const batch = (prefix: string) =>
  Array.from({ length: 40 }, (_, i) => s(`${prefix}-${i + 1}`, `zq9 visit number ${prefix} ${i + 1} went fine`, 'punctuality'));

describe('buildSplits', () => {
  it('splits by the hash of each id, sends later batches to train, and orders each split by id', () => {
    const first = batch('a');
    const { splits, errors, leaked } = buildSplits(
      [
        { file: 'batch-1.xml', sentences: first, split: null },
        { file: 'more/batch-1.xml', sentences: [s('b-1', 'zq9 a later batch')], split: 'train' },
      ],
      ASPECTS,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(leaked, []);
    const dev = first.filter((x) => isDev(x.id)).map((x) => x.id);
    assert.ok(dev.length > 0 && dev.length < first.length, 'both splits get some of forty');
    assert.deepEqual(
      splits.dev.map((x) => x.id),
      dev,
    );
    assert.deepEqual(
      splits.train.map((x) => x.id),
      [...first.filter((x) => !isDev(x.id)).map((x) => x.id), 'b-1'],
    );
    assert.deepEqual(splits.test, []);
  });

  it('leaves a held-out sentence out when its text is in train or dev, and never quotes a held-out text', () => {
    const { splits, errors, leaked } = buildSplits(
      [
        { file: 'batch-1.xml', sentences: [s('a-1', 'Zq9 came early'), s('a-2', 'zq9 was cheap')], split: null },
        {
          file: 'test.xml',
          sentences: [s('t-1', 'zq9  came EARLY'), s('t-2', 'zq9 secret held-out words'), s('t-3', 'zq9 secret held-out words')],
          split: 'test',
        },
      ],
      ASPECTS,
    );
    assert.deepEqual(leaked, [{ id: 't-1', twin: 'a-1' }]);
    assert.deepEqual(
      splits.test.map((x) => x.id),
      ['t-2', 't-3'],
    );
    assert.deepEqual(errors, ['test.xml: t-3: repeats the text of t-2']);
  });

  it('names every fault at once', () => {
    const { errors } = buildSplits(
      [
        {
          file: 'batch-1.xml',
          sentences: [
            s('a-1', 'zq9 on time', 'punctuality'),
            s('a-1', 'zq9 late'),
            s('a-2', 'ZQ9 on time'),
            s('a-3', 'zq9 the dining', 'dining'),
            s('a-4', '...'),
          ],
          split: null,
        },
        {
          file: 'batch-2.xml',
          sentences: [
            {
              ...s('a-5', 'zq9 twice'),
              categories: [
                { category: 'pricing', polarity: 'positive' },
                { category: 'pricing', polarity: 'negative' },
              ],
            },
          ],
          split: null,
        },
      ],
      ASPECTS,
    );
    assert.deepEqual(errors, [
      'batch-1.xml: a-1: the id is also in batch-1.xml',
      'batch-1.xml: a-2: repeats the text of a-1: ZQ9 on time',
      'batch-1.xml: a-3: "dining" is not an aspect of the vertical',
      'batch-1.xml: a-4: no words in its text',
      'batch-2.xml: a-5: "pricing" is labelled twice',
    ]);
  });
});

describe('npm run split:absa', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/build-split.ts', ...args], { encoding: 'utf8', cwd: ROOT });
  const stage = () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-'));
    mkdirSync(join(dir, 'staging', 'home_services'), { recursive: true });
    writeFileSync(
      join(dir, 'staging', 'home_services', 'batch-1.xml'),
      semEvalXml(batch('a'), { vertical: 'home_services', split: 'batch' }),
    );
    writeFileSync(
      join(dir, 'test.xml'),
      semEvalXml([s('t-1', 'zq9 secret held-out words', 'pricing')], { vertical: 'home_services', split: 'test' }),
    );
    return dir;
  };

  it('writes train, dev and test in the project shape, and prints no held-out sentence', () => {
    const dir = stage();
    const out = join(dir, 'out');
    const r = run('home_services', '--staging', join(dir, 'staging'), '--test', join(dir, 'test.xml'), '--out', out);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes('secret'));
    assert.match(r.stdout, /^test +1 sentences; no aspect 0\.0 %, several 0\.0 %$/m);
    const read = (split: string) => readFileSync(join(out, 'home_services', `${split}.xml`), 'utf8');
    assert.match(read('dev'), /<sentences vertical="home_services" split="dev">/);
    const ids = ['train', 'dev'].flatMap((split) => parseSemEvalXml(read(split)).map((x) => x.id));
    assert.deepEqual(
      ids.sort(),
      batch('a')
        .map((x) => x.id)
        .sort(),
    );
    assert.deepEqual(
      parseSemEvalXml(read('test')).map((x) => x.id),
      ['t-1'],
    );
    const again = run('home_services', '--staging', join(dir, 'staging'), '--out', out);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /exists: give --replace/);
    assert.equal(run('home_services', '--staging', join(dir, 'staging'), '--out', out, '--replace').status, 0);
  });

  it('writes nothing when a batch is faulty, and keeps a faulty held-out file unquoted', () => {
    const dir = stage();
    writeFileSync(join(dir, 'test.xml'), '<sentences><sentence id="t-1"><text>zq9 secret held-out words</sentence></sentences>');
    const out = join(dir, 'out');
    const r = run('home_services', '--staging', join(dir, 'staging'), '--test', join(dir, 'test.xml'), '--out', out);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /1 problem\(s\), nothing written:\n.*test\.xml: not well-formed XML/);
    assert.ok(!r.stderr.includes('secret'));
    assert.equal(existsSync(out), false);
    assert.equal(run('no_such_vertical', '--staging', join(dir, 'staging')).status, 2);
    // A batch of another vertical in this vertical's folder, even one whose sentences carry no label to tell.
    writeFileSync(
      join(dir, 'staging', 'home_services', 'batch-2.xml'),
      semEvalXml([s('z-1', 'zq9 arrived')], { vertical: 'senior_living', split: 'batch' }),
    );
    const stray = run('home_services', '--staging', join(dir, 'staging'), '--out', out);
    assert.equal(stray.status, 1);
    assert.match(stray.stderr, /batch-2\.xml: the root names vertical "senior_living", not "home_services"/);
    assert.equal(existsSync(out), false);
  });
});

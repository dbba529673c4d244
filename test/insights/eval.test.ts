// The evaluation command's parsing and scoring, on a tiny hand-written file in the SemEval-2014 format
// (our own sentences, not the task's data).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAnalyzer } from '../../src/insights/index.js';
import { evaluate, mapCategories, type Prediction, parseBatchXml, parseSemEvalXml, predict } from '../../tools/absa/index.js';

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<sentences>
  <sentence id="1">
    <text>The noodles were delicious &amp; cheap.</text>
    <aspectTerms><aspectTerm term="noodles" polarity="positive" from="4" to="11"/></aspectTerms>
    <aspectCategories>
      <aspectCategory category="food" polarity="positive"/>
      <aspectCategory category="price" polarity="positive"/>
    </aspectCategories>
  </sentence>
  <sentence id="2">
    <text>Our waiter was rude.</text>
    <aspectCategories><aspectCategory category="service" polarity="negative"/></aspectCategories>
  </sentence>
  <sentence id="3">
    <text>We went there on a Tuesday.</text>
    <aspectCategories><aspectCategory category="anecdotes/miscellaneous" polarity="neutral"/></aspectCategories>
  </sentence>
</sentences>`;

const HOME_XML = `<?xml version="1.0" encoding="UTF-8"?>
<sentences vertical="home_services">
  <sentence id="t-1">
    <text>The plumber showed up two hours late.</text>
    <aspectCategories><aspectCategory category="punctuality" polarity="negative"/></aspectCategories>
  </sentence>
  <sentence id="t-2">
    <text>We booked them for a drain on Monday.</text>
    <aspectCategories/>
  </sentence>
</sentences>`;

describe('SemEval parsing', () => {
  it('reads ids, unescaped text and categories, single or many', () => {
    const gold = parseSemEvalXml(XML);
    assert.equal(gold.length, 3);
    assert.equal(gold[0].text, 'The noodles were delicious & cheap.');
    assert.deepEqual(
      gold[0].categories.map((c) => c.category),
      ['food', 'price'],
    );
    assert.deepEqual(gold[1].categories, [{ category: 'service', polarity: 'negative' }]);
  });

  it('refuses what would read as something else, and keeps a text as written', () => {
    assert.throws(() => parseSemEvalXml('just words'), /not well-formed XML/);
    assert.throws(() => parseSemEvalXml('<sentences><sentence id="1"><text>open</sentence></sentences>'), /not well-formed XML/);
    assert.throws(
      () => parseSemEvalXml('<reviews><sentence id="1"><text>x</text></sentence></reviews>'),
      /root element is not <sentences>/,
    );
    assert.throws(() => parseSemEvalXml('<sentences><sentence id="1"/></sentences>'), /sentence 1: no <text>/);
    assert.throws(
      () => parseSemEvalXml('<sentences><sentence id="2"><text>a <b>bold</b> one</text></sentence></sentences>'),
      /sentence 2: no <text>, or markup/,
    );
    assert.deepEqual(parseSemEvalXml('<sentences><sentence id="3"><text>007</text></sentence></sentences>')[0].text, '007');
    assert.deepEqual(parseSemEvalXml('<sentences></sentences>'), []);
  });

  it("reads a writers' batch only when its root names the vertical it is for", () => {
    const one = '<sentence id="b-1"><text>Zq9 came on time.</text></sentence>';
    assert.deepEqual(
      parseBatchXml(`<sentences vertical="home_services" split="batch">${one}</sentences>`, 'home_services').map((x) => x.id),
      ['b-1'],
    );
    assert.throws(
      () => parseBatchXml(`<sentences vertical="senior_living">${one}</sentences>`, 'home_services'),
      /the root names vertical "senior_living", not "home_services"/,
    );
    assert.throws(() => parseBatchXml(`<sentences>${one}</sentences>`, 'home_services'), /the root names no vertical/);
    assert.throws(() => parseBatchXml('<sentences vertical="home_services"></sentences>', 'senior_living'), /not "senior_living"/);
    assert.deepEqual(parseBatchXml('<sentences vertical="senior_living" split="batch"/>', 'senior_living'), []);
    // A child element of that name is not the attribute.
    assert.throws(
      () => parseBatchXml(`<sentences><vertical>home_services</vertical>${one}</sentences>`, 'home_services'),
      /the root names no vertical/,
    );
  });
});

describe('MAMS category mapping', () => {
  const mams = parseSemEvalXml(`<sentences>
    <sentence id="9"><text>x</text><aspectCategories>
      <aspectCategory category="staff" polarity="negative"/>
      <aspectCategory category="service" polarity="positive"/>
      <aspectCategory category="menu" polarity="neutral"/>
      <aspectCategory category="food" polarity="positive"/>
      <aspectCategory category="place" polarity="negative"/>
    </aspectCategories></sentence></sentences>`);
  it("maps MAMS categories onto SemEval's for the restaurant vertical, merging polarities", () => {
    const { sentences, mapped } = mapCategories(mams, 'restaurant');
    assert.equal(mapped, true);
    assert.deepEqual(sentences[0].categories, [
      { category: 'service', polarity: 'conflict' },
      { category: 'food', polarity: 'positive' },
      { category: 'ambience', polarity: 'negative' },
    ]);
  });
  it('leaves other verticals and SemEval files alone', () => {
    assert.equal(mapCategories(mams, 'home_services').mapped, false);
    assert.equal(mapCategories(parseSemEvalXml(XML), 'restaurant').mapped, false);
  });
});

describe('SemEval scoring', () => {
  const gold = parseSemEvalXml(XML);
  it('computes micro P/R/F1 over per-sentence category sets and accuracy over gold categories', () => {
    const fixed: Record<string, Prediction> = {
      1: { categories: new Set(['food']), polarityOf: () => 'positive' },
      2: { categories: new Set(['service', 'ambience']), polarityOf: () => 'neutral' },
      3: { categories: new Set(['anecdotes/miscellaneous']), polarityOf: () => 'neutral' },
    };
    const r = evaluate(gold, (s) => fixed[s.id]);
    // common 3 (food, service, anecdotes); retrieved 4; relevant 4.
    assert.equal(r.precision, 3 / 4);
    assert.equal(r.recall, 3 / 4);
    assert.equal(r.f1, 3 / 4);
    // Correct: food, price (positive), anecdotes (neutral); wrong: service.
    assert.equal(r.polarityAccuracy, 3 / 4);
    assert.equal(r.confusion.negative.neutral, 1);
  });
  it('scores the shipped restaurant analyzer perfectly on these easy sentences', () => {
    const analyzer = createAnalyzer({ vertical: 'restaurant', technicians: [], services: [], serviceAreas: [] });
    const r = evaluate(gold, (s) => predict(analyzer, s));
    assert.equal(r.f1, 1);
    assert.equal(r.polarityAccuracy, 1);
  });
});

describe('eval:absa command', () => {
  it('prints precision, recall, F1 and polarity accuracy for a file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'semeval-')), 'tiny.xml');
    writeFileSync(file, XML);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/eval.ts', file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /F1\s+100\.00/);
    assert.match(run.stdout, /accuracy\s+100\.00/);
    assert.match(run.stdout, /sentences\s+3 /);
  });
  it('scores another vertical with --vertical and reads an empty category list', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'absa-')), 'home.xml');
    writeFileSync(file, HOME_XML);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/eval.ts', '--vertical', 'home_services', file], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /vertical: home_services/);
    assert.match(run.stdout, /sentences\s+2 /);
    assert.match(run.stdout, /polarity confusion/);
  });
  it("scores several files as one set: every count is the sum of the files' counts", () => {
    const dir = mkdtempSync(join(tmpdir(), 'absa-'));
    const files = [join(dir, 'a.xml'), join(dir, 'b.xml')];
    writeFileSync(files[0], HOME_XML);
    writeFileSync(files[1], HOME_XML.replace('two hours late', 'on time and fixed it').replace('t-1', 't-3').replace('t-2', 't-4'));
    const score = (paths: string[]) => {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'tools/absa/eval.ts', '--vertical', 'home_services', '--json', ...paths],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout) as {
        file: string | null;
        files: string[];
        sentences: number;
        polarityTotal: number;
        perCategory: Record<string, Record<string, number>>;
      };
    };
    const [a, b, both] = [score([files[0]]), score([files[1]]), score(files)];
    assert.deepEqual([both.file, both.files], [null, files]);
    assert.equal(a.file, files[0]);
    assert.equal(both.sentences, a.sentences + b.sentences);
    assert.equal(both.polarityTotal, a.polarityTotal + b.polarityTotal);
    for (const c of new Set([...Object.keys(a.perCategory), ...Object.keys(b.perCategory), ...Object.keys(both.perCategory)]))
      for (const k of ['tp', 'fp', 'fn'])
        assert.equal(both.perCategory[c]?.[k] ?? 0, (a.perCategory[c]?.[k] ?? 0) + (b.perCategory[c]?.[k] ?? 0), `${c} ${k}`);
  });
  it('fails with usage on an unknown vertical', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/eval.ts', '--vertical', 'bakery', 'x.xml'], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /usage/);
  });
  it('fails with usage when a file does not exist (a value without its flag, say)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/eval.ts', 'x.xml', '5'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /no such file: x\.xml, 5\nusage/);
  });
  it('fails with usage when no file is given', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/absa/eval.ts'], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /usage/);
  });
});

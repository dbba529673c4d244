// The held-out sets measure reading, not memory: no held-out sentence shares half its words with a sentence any
// model of its vertical trains on (the rule each set was assembled by, data/absa/README.md), the other vertical's
// sentences that its polarity model pools included. fresh12 onwards were assembled against every sentence of both
// verticals (and fresh12 to fresh15 train since 2.16.0); the earlier sets, which train since 2.15.0, had 15 such
// cross-vertical near twins (docs/insights.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CONFIGS, nearTwins, parseSemEvalXml, ROOT, trainedPaths, wordsOf } from '../../tools/absa/index.js';

const read = (path: string) => parseSemEvalXml(readFileSync(`${ROOT}${path}`, 'utf8'));

/** A vertical's held-out sets: its fresh*.xml files that are not among its own training splits (the test below names them). */
function heldOut(vertical: string): string[] {
  const training = new Set(CONFIGS[vertical].files);
  return readdirSync(`${ROOT}data/absa/${vertical}`)
    .filter((f) => /^fresh\d*\.xml$/.test(f))
    .map((f) => `data/absa/${vertical}/${f}`)
    .filter((path) => !training.has(path))
    .sort();
}

describe('held-out sets', () => {
  for (const vertical of ['home_services', 'senior_living']) {
    const config = CONFIGS[vertical];

    it(`${vertical}: the held-out sets are fresh16.xml to fresh19.xml`, () => {
      assert.deepEqual(
        heldOut(vertical),
        [16, 17, 18, 19].map((n) => `data/absa/${vertical}/fresh${n}.xml`),
      );
    });

    it(`${vertical}: no held-out sentence has a near twin among the sentences its models train on`, () => {
      assert.deepEqual(nearTwins(heldOut(vertical).flatMap(read), trainedPaths(config).flatMap(read)), []);
    });
  }
});

describe('nearTwins', () => {
  const sentence = (id: string, text: string) => ({ id, text, categories: [] });

  it('counts lowercased words once each, and pairs at exactly half but not under', () => {
    assert.deepEqual([...wordsOf("The tech's van, the TECH's van!")], ['the', "tech's", 'van']);
    // 2 shared of 4 words in all: exactly half. 1 of 5: under. A sentence without words pairs with none.
    assert.deepEqual(
      nearTwins(
        [sentence('a', 'One two three.'), sentence('empty', '...')],
        [sentence('half', 'one two four'), sentence('under', 'one four five'), sentence('none', '!!')],
      ),
      [{ id: 'a', twin: 'half', jaccard: 0.5 }],
    );
    assert.deepEqual(nearTwins([sentence('a', 'one two')], [sentence('b', 'one three')], 1 / 3), [{ id: 'a', twin: 'b', jaccard: 1 / 3 }]);
    // 7 shared of 25: 0.28 × 25 is a hair over 7 in floating point, which must not shorten the prefix.
    const seven = 'a b c d e f g';
    const rare = Array.from({ length: 18 }, (_, i) => `w${i}`).join(' ');
    assert.deepEqual(nearTwins([sentence('x', `${rare} ${seven}`)], [sentence('y', seven)], 0.28), [
      { id: 'x', twin: 'y', jaccard: 7 / 25 },
    ]);
    assert.deepEqual(nearTwins([sentence('y', seven)], [sentence('x', `${rare} ${seven}`)], 0.28), [
      { id: 'y', twin: 'x', jaccard: 7 / 25 },
    ]);
  });

  it('finds every pair a comparison of all pairs finds', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { maxLength: 7 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.array(text, { maxLength: 12 }), fc.constantFrom(0.3, 0.5, 0.75), (xs, ys, t) => {
        const left = xs.map((x, i) => sentence(`l${i}`, x));
        const right = ys.map((y, j) => sentence(`r${j}`, y));
        const all = left.flatMap((l) => {
          const a = wordsOf(l.text);
          if (a.size === 0) return [];
          return right.flatMap((r) => {
            const b = wordsOf(r.text);
            const shared = [...a].filter((w) => b.has(w)).length;
            const jaccard = shared / (a.size + b.size - shared);
            return jaccard >= t ? [{ id: l.id, twin: r.id, jaccard }] : [];
          });
        });
        assert.deepEqual(nearTwins(left, right, t), all);
      }),
      { numRuns: 500 },
    );
  });
});

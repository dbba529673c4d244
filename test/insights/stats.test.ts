// The statistics behind the trend label and the percentage rounding.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { linearRegression, percentages, studentTwoSided } from '../../src/insights/index.js';

describe('Student t', () => {
  it('matches table values', () => {
    // Critical values of the two-sided 5% and 1% tests.
    assert.ok(Math.abs(studentTwoSided(2.228, 10) - 0.05) < 5e-4);
    assert.ok(Math.abs(studentTwoSided(3.169, 10) - 0.01) < 5e-4);
    assert.ok(Math.abs(studentTwoSided(12.706, 1) - 0.05) < 5e-4);
    assert.ok(Math.abs(studentTwoSided(1.96, 100000) - 0.05) < 5e-4);
    assert.equal(studentTwoSided(0, 5), 1);
  });
});

describe('linear regression', () => {
  it('recovers an exact line with p = 0', () => {
    const fit = linearRegression([0, 1, 2, 3], [1, 3, 5, 7]);
    assert.equal(fit.slope, 2);
    assert.equal(fit.pValue, 0);
  });
  it('finds no slope in symmetric noise', () => {
    const fit = linearRegression([0, 0, 1, 1, 2, 2], [1, 5, 1, 5, 1, 5]);
    assert.equal(fit.slope, 0);
    assert.equal(fit.pValue, 1);
  });
  it('declines to test with constant x or fewer than 3 points', () => {
    assert.equal(linearRegression([1, 1, 1], [1, 2, 3]).pValue, null);
    assert.equal(linearRegression([1, 2], [1, 2]).pValue, null);
  });
});

describe('percentages', () => {
  it('sum to exactly 100 for any non-empty counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(10_000), { minLength: 1, maxLength: 6 }).filter((c) => c.some((x) => x > 0)),
        (counts) => {
          const p = percentages(counts);
          assert.equal(Math.round(p.reduce((s, x) => s + x, 0) * 10), 1000);
          p.forEach((x, i) => assert.ok(Math.abs(x - (100 * counts[i]) / counts.reduce((s, c) => s + c, 0)) <= 0.1 + 1e-9));
        },
      ),
    );
  });
  it('are all zero for an empty total', () => {
    assert.deepEqual(percentages([0, 0, 0]), [0, 0, 0]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance, SpellFixer } from '../../src/insights/index.js';

describe('SpellFixer', () => {
  const fixer = new SpellFixer(['delicious', 'recommend', 'worth', 'worst', 'atmosphere', 'pizza']);
  it('computes optimal-string-alignment distance with a cap', () => {
    assert.equal(editDistance('worht', 'worth', 3), 1);
    assert.equal(editDistance('delicous', 'delicious', 3), 1);
    assert.equal(editDistance('abc', 'xyz', 2), 2);
  });
  it('fixes a unique nearest word, two edits only for long words', () => {
    assert.equal(fixer.fix('delicous'), 'delicious');
    assert.equal(fixer.fix('atomosphere'), 'atmosphere');
    assert.equal(fixer.fix('recomend'), 'recommend');
  });
  it('refuses ties, short words, other first letters and known words', () => {
    assert.equal(fixer.fix('worht'), null);
    assert.equal(fixer.fix('pizzs'), null);
    assert.equal(fixer.fix('xdelicious'), null);
    assert.equal(fixer.fix('delicious'), null);
  });
});

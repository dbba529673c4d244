import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clock, dayRange, formatCount, formatDate } from '../../src/pages/index.js';

describe('formatting', () => {
  test('dates, counts, days and clock times are locale-independent', () => {
    assert.equal(formatDate('2026-10-31'), 'Oct 31, 2026');
    assert.equal(formatCount(1234567), '1,234,567');
    assert.equal(dayRange(['Mo', 'Tu', 'We', 'Th', 'Fr']), 'Mon–Fri');
    assert.equal(dayRange(['Sa', 'Mo']), 'Mon, Sat');
    assert.equal(clock('07:00'), '7 am');
    assert.equal(clock('18:30'), '6:30 pm');
    assert.equal(clock('12:00'), 'noon');
    assert.equal(clock('24:00'), 'midnight');
  });
});

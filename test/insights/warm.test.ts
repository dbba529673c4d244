import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERTICALS, warmRound } from '../../src/insights/index.js';

// The warm-up of a thread that stands by is worth its CPU only if its made-up corpus runs the take-over's
// paths: every builder fed, for every vertical (an aspect id or problem id outside the taxonomy is skipped).
test('a warm-up round feeds every insight builder of every vertical', () => {
  for (const vertical of VERTICALS) {
    const rows = 600;
    const doc = warmRound(vertical, rows);
    assert.equal(doc.review_count, rows, vertical);
    assert.equal(doc.vertical, vertical);
    for (const a of doc.aspects) {
      assert.ok(a.mention_count > 0, `${vertical}: ${a.id} mentioned`);
      assert.ok(
        a.positive_count > 0 && a.negative_count > 0 && a.neutral_count > 0 && a.conflict_count > 0,
        `${vertical}: ${a.id} in every polarity`,
      );
      assert.ok(a.top_phrases.length > 0 && a.example_review_ids.length > 0, `${vertical}: ${a.id} phrases and examples`);
    }
    assert.ok(
      doc.aspects.some((a) => a.quotes.some((q) => q.sentiment === 'positive') && a.quotes.some((q) => q.sentiment === 'negative')),
      `${vertical}: quotes of both polarities`,
    );
    assert.ok(doc.topics.length >= 3, `${vertical}: topics`);
    for (const kind of ['technicians', 'services', 'service_areas'] as const)
      assert.ok(
        doc.entities[kind].every((e) => e.review_count > 0 && e.top_aspects.length > 0),
        `${vertical}: ${kind} counted`,
      );
    assert.ok(doc.entities.problems.length >= 2, `${vertical}: problems`);
    assert.ok(doc.temporal.monthly.length >= 3 && doc.pull_quote !== null, `${vertical}: months and a pull quote`);
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { catalogFormat, snapshotFormat } from '../../src/catalog/index.js';
import { InsightsSchema, ReviewSchema, ReviewsDocumentSchema } from '../../src/domain/index.js';

const documents = [ReviewsDocumentSchema, InsightsSchema];
/** The reviews document with this review schema in place of the domain's. */
const withReview = (review: z.ZodType) => [ReviewsDocumentSchema.extend({ reviews: z.array(review) }), InsightsSchema];

test('the stored snapshot format is derived from the documents it renders', () => {
  const format = catalogFormat(documents);
  assert.equal(
    snapshotFormat('engine/1'),
    `engine/1 ${format}`,
    'stored snapshots carry the engine and the format of the domain documents',
  );
  assert.equal(catalogFormat(documents), format, 'stable for the same schemas');
  assert.equal(catalogFormat(withReview(ReviewSchema)), format, 'the same shape built again gives the same format');
});

test('a new review field, a changed type or a new insight changes the format; a changed description does not', () => {
  const format = catalogFormat(documents);
  const changed = [
    catalogFormat(withReview(ReviewSchema.extend({ visit_date: z.string().nullable() }))),
    catalogFormat(withReview(ReviewSchema.extend({ rating: z.number() }))),
    catalogFormat([ReviewsDocumentSchema, InsightsSchema.extend({ extra: z.int() })]),
  ];
  for (const f of changed) assert.notEqual(f, format);
  assert.equal(new Set(changed).size, changed.length, 'each change gives its own format');
  assert.equal(catalogFormat(withReview(ReviewSchema.extend({ title: z.string().nullable().describe('other words') }))), format);
});

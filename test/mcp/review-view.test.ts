import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Review, resolveView, viewReview } from '../../src/domain/index.js';
import { mcpClientSuite } from './helpers.js';

const textOf = (r: CallToolResult) => (r.content[0] as { type: 'text'; text: string }).text;

/** Every review of a REST search, following next_cursor to the end. */
async function restAll(url: string, query: string): Promise<Review[]> {
  const out: Review[] = [];
  let cursor: string | null = null;
  do {
    const page = (await (
      await fetch(`${url}/api/reviews/search?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    ).json()) as { reviews: Review[]; next_cursor: string | null };
    out.push(...page.reviews);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

describe('review views (pure)', () => {
  const review = {
    id: '01JA0000000000000000000000',
    rating: 5,
    date: '2025-01-02',
    text: 'ab\u{1F600}cd',
    author: 'A',
  } as unknown as Review;

  test('no options: the whole review; compact: the preset; explicit options win over the preset', () => {
    assert.equal(resolveView({}), null);
    assert.deepEqual(resolveView({ compact: true }), { fields: ['id', 'rating', 'date', 'text'], textChars: 200 });
    assert.deepEqual(resolveView({ compact: true, text_chars: 3, fields: ['id'] }), { fields: ['id'], textChars: 3 });
    assert.equal(resolveView({ text_chars: 3 })!.fields.length, 20);
  });

  test('text is cut to N UTF-16 units but never inside a surrogate pair, and says so', () => {
    const v = (n: number) => viewReview(review, { fields: ['id', 'text'], textChars: n });
    assert.deepEqual(v(2), { id: review.id, text: 'ab', text_truncated: true });
    assert.deepEqual(v(3), { id: review.id, text: 'ab', text_truncated: true });
    assert.deepEqual(v(4), { id: review.id, text: 'ab\u{1F600}', text_truncated: true });
    assert.deepEqual(v(6), { id: review.id, text: review.text });
    assert.deepEqual(v(0), { id: review.id, text: '', text_truncated: true });
    assert.deepEqual(viewReview(review, { fields: ['id', 'rating'], textChars: 1 }), { id: review.id, rating: 5 });
  });
});

for (const era of ['session', 'stateless'] as const) {
  describe(`MCP review views and entity paging, ${era} era`, () => {
    const mcp = mcpClientSuite(era);

    /** A successful call whose structuredContent the tool's outputSchema accepts (the SDK client checks it too). */
    async function call(name: string, args: Record<string, unknown>): Promise<{ r: CallToolResult; s: any }> {
      const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
      assert.notEqual(r.isError, true, `${name}(${JSON.stringify(args)}): ${r.isError ? textOf(r) : ''}`);
      const validate = mcp.ajv.compile(mcp.tools.find((t) => t.name === name)!.outputSchema!);
      assert.ok(validate(r.structuredContent), `${name} output: ${mcp.ajv.errorsText(validate.errors)}`);
      return { r, s: r.structuredContent };
    }

    test('compact: id, rating, date and the first 200 characters of text, in structuredContent and in the summary', async () => {
      const full = (await call('search_reviews', { limit: 100, has_text: true })).s.reviews as Review[];
      const { r, s } = await call('search_reviews', { limit: 100, has_text: true, compact: true });
      assert.equal(s.reviews.length, full.length);
      assert.ok(
        full.some((x) => x.text!.length > 200),
        'the demo has reviews longer than the preset',
      );
      for (const [i, item] of (s.reviews as any[]).entries()) {
        const whole = full[i];
        const cut = whole.text!.length > 200;
        assert.deepEqual(Object.keys(item), cut ? ['id', 'rating', 'date', 'text', 'text_truncated'] : ['id', 'rating', 'date', 'text']);
        assert.equal(item.id, whole.id);
        assert.equal(item.rating, whole.rating);
        assert.equal(item.date, whole.date);
        assert.equal(item.text, cut ? whole.text!.slice(0, item.text.length) : whole.text);
        if (cut)
          assert.ok(item.text.length >= 199 && item.text.length <= 200, `cut at 200 (199 before a surrogate pair): ${item.text.length}`);
      }
      const summary = textOf(r);
      assert.match(summary, /structuredContent\.reviews has them with the fields asked for/);
      for (const item of s.reviews) assert.ok(summary.includes(`${item.id} ${item.rating}★ ${item.date}`));
      assert.ok(summary.length < JSON.stringify(s).length, 'the summary is not a second copy');
    });

    test('fields and text_chars: only the fields asked for (id always), in canonical order; the summary shows only those', async () => {
      const whole = (await call('search_reviews', { min_rating: 4, limit: 10 })).s.reviews as Review[];
      const { r, s } = await call('search_reviews', { min_rating: 4, limit: 10, fields: ['text', 'rating', 'rating'], text_chars: 12 });
      assert.equal(s.returned, 10);
      for (const [i, item] of (s.reviews as any[]).entries()) {
        const cut = whole[i].text !== null && whole[i].text!.length > 12;
        assert.deepEqual(Object.keys(item), cut ? ['id', 'rating', 'text', 'text_truncated'] : ['id', 'rating', 'text']);
        assert.equal(item.id, whole[i].id);
        assert.equal(item.text, cut ? whole[i].text!.slice(0, item.text.length) : whole[i].text);
        if (cut) assert.equal(item.text_truncated, true);
      }
      assert.ok(
        s.reviews.some((x: any) => x.text_truncated),
        'some text was cut',
      );
      const lines = textOf(r).split('\n').slice(1);
      assert.deepEqual(
        lines,
        s.reviews.map((x: any) => `${x.id} ${x.rating}★`),
      );
      // Only ids: the summary lines are the ids alone.
      const ids = await call('search_reviews', { min_rating: 4, limit: 10, fields: ['id'] });
      assert.deepEqual(
        ids.s.reviews.map((x: any) => Object.keys(x)),
        s.reviews.map(() => ['id']),
      );
      assert.deepEqual(
        textOf(ids.r).split('\n').slice(1),
        s.reviews.map((x: any) => x.id),
      );
    });

    test('the memo keeps views apart: whole, trimmed and whole again, and two spellings of one view answer alike', async () => {
      const args = { query: 'the', limit: 5 };
      const whole = (await call('search_reviews', args)).s;
      const trimmed = (await call('search_reviews', { ...args, fields: ['date'] })).s;
      const again = (await call('search_reviews', args)).s;
      assert.deepEqual(again, whole);
      assert.ok(whole.reviews.every((x: any) => 'author' in x && 'url' in x));
      assert.ok(trimmed.reviews.every((x: any) => Object.keys(x).join() === 'id,date'));
      const a = (await call('search_reviews', { ...args, fields: ['rating', 'id', 'date'] })).s;
      const b = (await call('search_reviews', { ...args, fields: ['date', 'rating'] })).s;
      assert.deepEqual(a, b);
      // text_chars alone keeps every field and cuts only the text.
      const cut = (await call('search_reviews', { ...args, text_chars: 5 })).s;
      for (const [i, item] of cut.reviews.entries()) {
        assert.deepEqual(
          { ...item, text: whole.reviews[i].text, text_truncated: undefined },
          { ...whole.reviews[i], text_truncated: undefined },
        );
      }
    });

    test('the views apply to get_reviews_since, get_changes and the entity tools alike', async () => {
      const c = mcp.server.catalog.get();
      const since = (await call('get_reviews_since', { date: c.reviews[40].date, limit: 10, compact: true })).s;
      assert.equal(since.returned, 10);
      for (const x of since.reviews) assert.ok(Object.keys(x).every((k) => ['id', 'rating', 'date', 'text', 'text_truncated'].includes(k)));
      const changes = (await call('get_changes', { limit: 20, fields: ['rating'] })).s;
      assert.equal(changes.changes.length, 20);
      for (const x of changes.changes) assert.ok('removed_at' in x || Object.keys(x).join() === 'id,rating', JSON.stringify(x));
      const tech = c.business.technicians[0];
      const t = (await call('get_technician', { technician: tech.id, recent: 3, fields: ['technicians'] })).s;
      assert.equal(t.technician.id, tech.id);
      for (const x of t.recent_reviews) assert.deepEqual(Object.keys(x), ['id', 'technicians']);
      assert.ok(t.recent_reviews.every((x: any) => x.technicians.includes(tech.id)));
      // Without a view the entity tools still return whole reviews.
      const whole = (await call('get_technician', { technician: tech.id, recent: 3 })).s;
      assert.deepEqual(
        whole.recent_reviews,
        whole.recent_reviews.map((x: Review) => c.review(x.id)),
      );
    });

    test('bad view options are tool errors that say what is valid', async () => {
      const bad: [Record<string, unknown>, string[]][] = [
        [{ fields: ['stars'] }, ['fields', 'rating', 'text']],
        [{ fields: [] }, ['fields']],
        [{ fields: 'id' }, ['fields', 'array']],
        [{ text_chars: -1 }, ['text_chars']],
        [{ compact: 'yes' }, ['compact', 'boolean']],
      ];
      for (const [args, says] of bad) {
        for (const name of ['search_reviews', 'get_technician']) {
          const full = name === 'get_technician' ? { technician: mcp.server.catalog.get().business.technicians[0].id, ...args } : args;
          const r = (await mcp.client.callTool({ name, arguments: full })) as CallToolResult;
          assert.equal(r.isError, true, `${name}(${JSON.stringify(full)}) is an error`);
          for (const s of says) assert.ok(textOf(r).includes(s), `${name}: "${textOf(r)}" mentions "${s}"`);
        }
      }
    });

    test('entity tools page through every review that mentions the entity: pages concatenate to the full list, no repeats', async () => {
      const c = mcp.server.catalog.get();
      for (const [name, kind, param, profiles] of [
        ['get_technician', 'technician', 'mentions_technician', c.business.technicians],
        ['get_service', 'service', 'mentions_service', c.business.services],
      ] as const) {
        // The entity with the most reviews, so paging takes many pages.
        const entity = [...profiles].sort(
          (a, b) =>
            c.reviews.filter((r) => r[`${kind}s`].includes(b.id)).length - c.reviews.filter((r) => r[`${kind}s`].includes(a.id)).length,
        )[0];
        const expected = (await restAll(mcp.server.url, `${param}=${encodeURIComponent(entity.id)}`)).map((r) => r.id);
        assert.ok(expected.length > 20, `${entity.id} has ${expected.length} reviews: enough for several pages`);
        const got: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          // By name on alternate pages: the cursor belongs to the entity, not to how it was named.
          const ref = pages % 2 === 0 ? entity.id : entity.name;
          const { s } = await call(name, { [kind]: ref, recent: 7, compact: true, ...(cursor && { cursor }) });
          assert.ok(s.recent_reviews.length <= 7);
          got.push(...s.recent_reviews.map((x: any) => x.id));
          cursor = s.next_cursor ?? undefined;
          pages++;
        } while (cursor && pages < 1000);
        assert.equal(cursor, undefined, 'the last page has next_cursor null');
        assert.equal(new Set(got).size, got.length, 'no review twice');
        assert.deepEqual(got, expected);
        assert.equal(pages, Math.ceil(expected.length / 7));
      }
    });

    test('an entity cursor continues only its own entity', async () => {
      const c = mcp.server.catalog.get();
      const [a, b] = c.business.technicians;
      const { s } = await call('get_technician', { technician: a.id, recent: 2 });
      assert.equal(typeof s.next_cursor, 'string');
      const other = (await mcp.client.callTool({
        name: 'get_technician',
        arguments: { technician: b.id, cursor: s.next_cursor },
      })) as CallToolResult;
      assert.equal(other.isError, true);
      assert.match(textOf(other), /other filters/);
      const junk = (await mcp.client.callTool({
        name: 'get_technician',
        arguments: { technician: a.id, cursor: 'nope!' },
      })) as CallToolResult;
      assert.equal(junk.isError, true);
      assert.match(textOf(junk), /next_cursor back unchanged/);
      const service = (await mcp.client.callTool({
        name: 'get_service',
        arguments: { service: c.business.services[0].id, cursor: s.next_cursor },
      })) as CallToolResult;
      assert.equal(service.isError, true);
    });
  });
}

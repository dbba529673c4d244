import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Catalog } from '../../src/catalog/index.js';
import { mcpToolDefinitions, READ_ONLY_ANNOTATIONS } from '../../src/mcp/index.js';
import { mcpClientSuite } from './helpers.js';

interface Case {
  args: Record<string, unknown>;
  /** Checks on the structured result beyond the output schema. */
  check?: (result: any, c: Catalog) => void;
}
interface InvalidCase {
  args: Record<string, unknown>;
  /** The error text must say what is valid: these substrings must appear. */
  says: string[];
}

/** One valid and at least one invalid call per tool, built from the real catalog's ids and names. */
function cases(c: Catalog): Record<string, { valid: Case[]; invalid: InvalidCase[] }> {
  const tech = c.business.technicians.find((t) => t.aliases.length > 0) ?? c.business.technicians[0];
  const service = c.business.services.find((s) => s.aliases.length > 0) ?? c.business.services[0];
  const aspect = c.insights.aspects[0];
  const review = c.reviews[10];
  return {
    get_business: {
      valid: [{ args: {}, check: (r) => assert.equal(r.business.name, c.business.name) }],
      invalid: [],
    },
    search_reviews: {
      valid: [
        {
          args: { rating: 5, limit: 3 },
          check: (r) => (assert.equal(r.returned, 3), assert.ok(r.reviews.every((x: any) => x.rating === 5))),
        },
        {
          args: { mentions_technician: tech.aliases[0] ?? tech.name },
          check: (r) => assert.ok(r.reviews.every((x: any) => x.technicians.includes(tech.id))),
        },
        {
          args: { since: '2025-01-01', until: '2025-12-31', min_rating: 4, query: 'the' },
          check: (r) => assert.ok(r.matched >= r.returned),
        },
      ],
      invalid: [
        { args: { rating: 9 }, says: ['rating', '5'] },
        { args: { limit: 1000 }, says: ['limit', '100'] },
        { args: { since: '2025-02-30' }, says: ['since'] },
        { args: { since: '2025-06-01', until: '2025-01-01' }, says: ['since', 'after until'] },
      ],
    },
    get_review: {
      valid: [{ args: { id: review.id }, check: (r) => (assert.deepEqual(r.review, review), assert.ok('analysis' in r)) }],
      invalid: [
        { args: { id: 'nope' }, says: ['nope', 'ULID', 'search_reviews'] },
        { args: {}, says: ['id'] },
      ],
    },
    get_reviews_since: {
      valid: [
        {
          args: { date: c.reviews[30].date, limit: 5 },
          check: (r) => {
            assert.equal(r.count, c.since(c.reviews[30].date).count);
            assert.equal(r.returned, 5);
            assert.equal(typeof r.next_cursor, 'string');
            assert.ok(r.reviews.every((x: any) => x.date >= c.reviews[30].date));
          },
        },
      ],
      invalid: [{ args: { date: 'yesterday' }, says: ['date'] }],
    },
    get_changes: {
      valid: [
        {
          args: { limit: 7 },
          check: (r) => {
            // From the start: the first writes of the demo import, every one a served review, and more to follow.
            assert.equal(r.revision, c.revision);
            assert.equal(r.changes.length, 7);
            assert.ok(r.changes.every((x: any) => c.review(x.id) !== undefined));
            assert.equal(typeof r.next_cursor, 'string');
          },
        },
      ],
      invalid: [
        { args: { after: 'nonsense' }, says: ['after'] },
        { args: { limit: 0 }, says: ['limit'] },
      ],
    },
    get_insights_summary: {
      valid: [{ args: {}, check: (r) => (assert.equal(r.summary, c.insights.summary), assert.ok(r.top_aspects.length <= 5)) }],
      invalid: [],
    },
    list_aspects: { valid: [{ args: {}, check: (r) => assert.equal(r.aspects.length, c.insights.aspects.length) }], invalid: [] },
    get_aspect_sentiment: {
      valid: [
        { args: { aspect: aspect.id }, check: (r) => assert.equal(r.id, aspect.id) },
        { args: { aspect: aspect.label.toUpperCase() }, check: (r) => assert.equal(r.id, aspect.id) },
      ],
      invalid: [{ args: { aspect: 'vibes' }, says: ['vibes', ...c.insights.aspects.map((a) => a.id)] }],
    },
    list_technicians: {
      valid: [
        {
          args: {},
          check: (r) =>
            assert.deepEqual(
              r.technicians.map((t: any) => t.id),
              c.business.technicians.map((t) => t.id),
            ),
        },
      ],
      invalid: [],
    },
    get_technician: {
      valid: [
        {
          args: { technician: tech.aliases[0] ?? tech.name, recent: 2 },
          check: (r) => (assert.equal(r.technician.id, tech.id), assert.ok(r.recent_reviews.length <= 2)),
        },
      ],
      invalid: [
        { args: { technician: 'Nobody Atall' }, says: ['Nobody Atall', ...c.business.technicians.map((t) => t.id)] },
        { args: { technician: tech.id, recent: 50 }, says: ['recent', '20'] },
      ],
    },
    list_services: {
      valid: [
        {
          args: {},
          check: (r) =>
            assert.deepEqual(
              r.services.map((s: any) => s.id),
              c.business.services.map((s) => s.id),
            ),
        },
      ],
      invalid: [],
    },
    get_service: {
      valid: [{ args: { service: service.aliases[0] ?? service.name }, check: (r) => assert.equal(r.service.id, service.id) }],
      invalid: [{ args: { service: 'brain surgery' }, says: ['brain surgery', c.business.services[0].id] }],
    },
    get_rating_trend: {
      valid: [
        { args: {}, check: (r) => assert.equal(r.monthly.length, c.insights.temporal.monthly.length) },
        { args: { months: 2 }, check: (r) => assert.deepEqual(r.monthly, c.insights.temporal.monthly.slice(-2)) },
      ],
      invalid: [{ args: { months: 0 }, says: ['months'] }],
    },
    get_faq: { valid: [{ args: {}, check: (r) => assert.deepEqual(r.faq, c.insights.faq) }], invalid: [] },
  };
}

const textOf = (r: CallToolResult) => (r.content[0] as { type: 'text'; text: string }).text;

const SUMMARISED = new Set(['search_reviews', 'get_reviews_since', 'get_changes']);

for (const era of ['session', 'stateless'] as const) {
  describe(`MCP tools over HTTP, ${era} era`, () => {
    const mcp = mcpClientSuite(era);

    test('lists the fourteen tools with title, read-only annotations and both schemas', () => {
      assert.deepEqual(
        mcp.tools.map((t) => t.name),
        Object.keys(cases(mcp.server.catalog.get())),
      );
      for (const t of mcp.tools) {
        assert.ok(t.title, `${t.name} has a title`);
        assert.ok(t.description, `${t.name} has a description`);
        assert.equal(t.inputSchema.type, 'object');
        assert.ok(t.outputSchema, `${t.name} declares an outputSchema`);
        for (const [k, v] of Object.entries(READ_ONLY_ANNOTATIONS))
          assert.equal(t.annotations?.[k as keyof typeof READ_ONLY_ANNOTATIONS], v, `${t.name} ${k}`);
      }
    });

    test('the developer page gets the same definitions tools/list serves', () => {
      const defs = mcpToolDefinitions();
      for (const t of mcp.tools) {
        const d = defs.find((x) => x.name === t.name)!;
        assert.equal(d.title, t.title);
        assert.deepEqual(d.inputSchema, t.inputSchema);
      }
    });

    test('every tool answers valid arguments with structuredContent that matches its outputSchema, and the same JSON as text', async () => {
      const c = mcp.server.catalog.get();
      for (const [name, { valid }] of Object.entries(cases(c))) {
        const tool = mcp.tools.find((t) => t.name === name)!;
        const validate = mcp.ajv.compile(tool.outputSchema!);
        for (const { args, check } of valid) {
          const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
          assert.notEqual(r.isError, true, `${name}(${JSON.stringify(args)}): ${r.isError ? textOf(r) : ''}`);
          assert.ok(validate(r.structuredContent), `${name} output: ${mcp.ajv.errorsText(validate.errors)}`);
          // Lists of reviews come with a short summary instead of a second full copy (every era tested here is ≥ 2025-06-18).
          if (SUMMARISED.has(name)) assert.match(textOf(r), /structuredContent\.\w+ has them in full/, `${name}: a summary text`);
          else assert.deepEqual(JSON.parse(textOf(r)), r.structuredContent, `${name}: text is the structured JSON`);
          check?.(r.structuredContent, c);
        }
      }
    });

    test('invalid arguments and unknown names are isError results that say what is valid', async () => {
      for (const [name, { invalid }] of Object.entries(cases(mcp.server.catalog.get()))) {
        for (const { args, says } of invalid) {
          const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
          assert.equal(r.isError, true, `${name}(${JSON.stringify(args)}) is an error`);
          assert.equal(r.structuredContent, undefined);
          for (const s of says) assert.ok(textOf(r).includes(s), `${name}(${JSON.stringify(args)}): "${textOf(r)}" mentions "${s}"`);
        }
      }
    });

    test('an unknown tool is a JSON-RPC invalid-params error', async () => {
      await assert.rejects(mcp.client.callTool({ name: 'delete_everything', arguments: {} }), (err: { code?: number; message: string }) => {
        assert.equal(err.code, -32602);
        assert.match(err.message, /delete_everything/);
        return true;
      });
    });

    test('search_reviews and the REST search are one function: same filters, same result', async () => {
      const args = { min_rating: 3, query: 'water', limit: 7 };
      const r = (await mcp.client.callTool({ name: 'search_reviews', arguments: args })) as CallToolResult;
      const rest = await (await fetch(`${mcp.server.url}/api/reviews/search?min_rating=3&query=water&limit=7`)).json();
      assert.deepEqual(r.structuredContent, rest);
    });
  });
}

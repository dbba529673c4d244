import type { z } from 'zod';
import {
  ChangesQuerySchema,
  componentSchemas,
  DATASETS,
  IsoDateSchema,
  PATHS,
  componentRef as ref,
  SearchQuerySchema,
  SinceQuerySchema,
  standalone,
} from '../domain/index.js';

const json = (schema: object, type = 'application/json') => ({ content: { [type]: { schema } } });
const conditionalHeaders = {
  ETag: { description: 'Strong validator: a hash of the exact bytes', schema: { type: 'string' } },
  'Last-Modified': { description: 'When this data revision was made', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};
const topicHeaders = {
  ...conditionalHeaders,
  Link: { description: 'WebSub discovery: rel="hub" and rel="self"', schema: { type: 'string' } },
};
const notModified = { description: 'Not Modified: the If-None-Match / If-Modified-Since copy is current (empty body)' };
const badRequest = { description: 'Invalid input', ...json(ref('Error')) };
const conditionalParams = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' } },
];

/**
 * RFC 8288 link to the next page. Cursors are keyset positions (the last review's sort key and id), so
 * a review that exists throughout paging is returned exactly once whatever imports land meanwhile; one
 * added or edited meanwhile appears if its place in the order is still ahead, one removed meanwhile is
 * not returned once it is gone.
 */
const nextLinkHeader = {
  Link: { description: 'Present when more follow: `<next page URL>; rel="next"`', schema: { type: 'string' } },
};

/** Query parameters from a query schema (the one REST and MCP validate with). */
function queryParameters(query: z.ZodType) {
  const { properties = {} } = standalone(query, 'input', { inline: 'root' }) as {
    properties?: Record<string, { description?: string }>;
  };
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: false, description: s.description, schema: s }));
}

/** The OpenAPI 3.1 description of the REST surface, generated from the domain's Zod schemas. */
export function buildOpenApi(baseUrl: string): object {
  // HEAD is served wherever GET is: same status and headers, no body.
  const headOf = (responses: Record<string, object>) =>
    Object.fromEntries(
      Object.entries(responses).map(([status, r]) => [
        status,
        { description: (r as { description: string }).description, ...('headers' in r ? { headers: r.headers } : {}) },
      ]),
    );
  const get = (summary: string, operationId: string, ok: Record<string, object>, extra: object = {}) => ({
    get: { summary, operationId, ...extra, responses: { ...ok } },
    head: { summary: `${summary} (headers only)`, operationId: `${operationId}Head`, ...extra, responses: headOf(ok) },
  });
  const dataset = (summary: string, operationId: string, schema: object, type: string, headers = conditionalHeaders) =>
    get(
      summary,
      operationId,
      { 200: { description: 'OK', headers, ...json(schema, type) }, 304: notModified },
      { parameters: conditionalParams },
    );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviewcast public reviews API',
      version: '1.0.0',
      summary: 'Verified customer reviews and sentiment insights of one business. Read-only; no credentials.',
      description:
        'Every endpoint is public: no key, token or account, and an Authorization header is ignored. Datasets carry strong ETags and Last-Modified; send them back for a 304. Changes are pushed over WebSub; agents can use the MCP endpoint at /mcp.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    security: [],
    tags: [{ name: 'datasets' }, { name: 'search' }, { name: 'websub' }, { name: 'operations' }],
    paths: {
      [PATHS.reviews]: dataset(
        'Business, aggregate rating and every published review (a WebSub topic)',
        'getReviews',
        ref('ReviewsDocument'),
        DATASETS.reviews.contentType,
        topicHeaders,
      ),
      [PATHS.insights]: dataset(
        'Aspect-based sentiment, entities, topics, trend, FAQ and summary',
        'getInsights',
        ref('Insights'),
        DATASETS.insights.contentType,
      ),
      [PATHS.feedJson]: dataset(
        'JSON Feed 1.1 of the 50 newest reviews (a WebSub topic)',
        'getJsonFeed',
        ref('JsonFeed'),
        DATASETS.feedJson.contentType,
        topicHeaders,
      ),
      [PATHS.feedAtom]: dataset(
        'Atom 1.0 feed of the 50 newest reviews (a WebSub topic)',
        'getAtomFeed',
        { type: 'string' },
        DATASETS.feedAtom.contentType,
        topicHeaders,
      ),
      [PATHS.search]: get(
        'Search reviews; filters combine with AND; newest first unless sort says otherwise; paged by cursor',
        'searchReviews',
        {
          200: { description: 'OK', headers: { ...conditionalHeaders, ...nextLinkHeader }, ...json(ref('SearchResult')) },
          304: notModified,
          400: badRequest,
        },
        { parameters: [...queryParameters(SearchQuerySchema), ...conditionalParams] },
      ),
      [`${PATHS.since}/{date}`]: get(
        'Reviews dated on or after a day, newest first; every one unless limit is given, then paged by cursor',
        'getReviewsSince',
        {
          200: { description: 'OK', headers: { ...conditionalHeaders, ...nextLinkHeader }, ...json(ref('SinceResult')) },
          304: notModified,
          400: badRequest,
          414: { description: 'The date segment is over 1,000 characters', ...json(ref('Error')) },
        },
        {
          parameters: [
            { name: 'date', in: 'path', required: true, schema: standalone(IsoDateSchema, 'output', { inline: 'none' }) },
            ...queryParameters(SinceQuerySchema),
            ...conditionalParams,
          ],
        },
      ),
      [PATHS.changes]: get(
        'Every review added, changed or removed since a cursor, in revision order (removed ones as tombstones)',
        'getReviewChanges',
        {
          200: { description: 'OK', headers: { ...conditionalHeaders, ...nextLinkHeader }, ...json(ref('ChangesResult')) },
          304: notModified,
          400: badRequest,
        },
        { parameters: [...queryParameters(ChangesQuerySchema), ...conditionalParams] },
      ),
      [PATHS.hub]: {
        post: {
          summary: 'Subscribe or unsubscribe a callback to a topic (W3C WebSub)',
          operationId: 'websubHub',
          tags: ['websub'],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': { schema: ref('HubRequest') },
            },
          },
          responses: {
            202: {
              description: 'Accepted: verification of intent follows asynchronously',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            400: { description: 'Invalid request', content: { 'text/plain': { schema: { type: 'string' } } } },
            429: { description: 'Too many requests', content: { 'text/plain': { schema: { type: 'string' } } } },
          },
        },
      },
      [PATHS.healthz]: get('Liveness', 'healthz', { 200: { description: 'alive', ...json({ type: 'object' }) } }, { tags: ['operations'] }),
      [PATHS.readyz]: get(
        'Readiness (database reachable, catalog loaded)',
        'readyz',
        { 200: { description: 'ready', ...json({ type: 'object' }) }, 503: { description: 'not ready', ...json(ref('Error')) } },
        { tags: ['operations'] },
      ),
      [PATHS.openapi]: get(
        'This document',
        'openapi',
        { 200: { description: 'OK', ...json({ type: 'object' }) } },
        { tags: ['operations'] },
      ),
      [PATHS.llmsTxt]: get('A summary for language models and agents', 'llmsTxt', {
        200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } },
      }),
      [PATHS.robotsTxt]: get('Crawler rules', 'robotsTxt', {
        200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } },
      }),
    },
    components: { schemas: componentSchemas() },
  };
}

import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/index.js';
import { PATHS, SEARCH_PARAMS, TOPICS, topicUrl } from '../../domain/index.js';

/** Plain-text orientation for language models and agents (llmstxt.org): who, how good, where the data is. */
export function renderLlmsTxt(c: Catalog): string {
  const b = c.business;
  const a = c.aggregateRating;
  const l = c.links;
  const place = [b.address?.locality, b.address?.region].filter(Boolean).join(', ');
  return `# ${b.name}

> ${b.description ?? `${b.name} publishes its verified customer reviews here.`}${place ? ` Based in ${place}.` : ''} Rated ${a.rating_value} out of 5 from ${a.rating_count} verified reviews (${a.review_count} with text); latest review ${a.last_review_date ?? 'none yet'}.

Everything here is public and read-only: no key, token or account is needed, and an Authorization header is ignored.

## Data
- [All reviews](${l.reviewsJson}): business, aggregate rating and every published review (JSON)
- [Insights](${l.base}${PATHS.insights}): aspect sentiment, technicians, services, topics, trend, FAQ, summary (JSON)
- [Search](${l.base}${PATHS.search}?min_rating=4&limit=5): filters ${SEARCH_PARAMS.join(', ')}
- [Since a date](${l.base}${PATHS.since}/${a.last_review_date ?? '2025-01-01'}): reviews on or after a day
- [JSON Feed](${l.feedJson}) and [Atom feed](${l.feedAtom}): the 50 newest reviews
- [OpenAPI](${l.base}${PATHS.openapi}): the REST interface

## MCP
Streamable HTTP endpoint: ${l.base}${PATHS.mcp} (no token). Client configuration:

\`\`\`json
{ "mcpServers": { "${b.id}-reviews": { "type": "http", "url": "${l.base}${PATHS.mcp}" } } }
\`\`\`

## Updates (WebSub)
Hub: ${l.hub}. Topics: ${TOPICS.map((t) => topicUrl(l, t)).join(', ')}.
Subscribe with a form POST (hub.mode=subscribe, hub.topic, hub.callback=an HTTPS URL); the hub verifies intent with a GET challenge and then POSTs the full topic content on every change.

## Caching
Datasets carry strong ETags and Last-Modified; send If-None-Match for a 304.
`;
}

export function discoveryRoutes(app: FastifyInstance, catalog: () => Catalog) {
  app.get(PATHS.llmsTxt, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(renderLlmsTxt(catalog())),
  );
  app.get(PATHS.robotsTxt, async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(
        `User-agent: *\nAllow: /\nDisallow: ${PATHS.mcp}\nDisallow: ${PATHS.websub}\n\nSitemap: ${catalog().links.base}${PATHS.sitemap}\n`,
      ),
  );
}

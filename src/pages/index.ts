import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  type Catalog,
  type MemoBudget,
  PER_URL,
  perRevision,
  Representation,
  RevisionCache,
  representationSize,
} from '../catalog/index.js';
import { PATHS } from '../domain/index.js';
import { NotFoundError, prefersHtml, sendRepresentation } from '../http/index.js';
import type { HubLimits } from '../websub/index.js';
import { assetRoutes } from './assets.js';
import { renderDevelopers, type ToolDefinition } from './developers.js';
import { renderHome } from './home.js';
import { parseHomeQuery, viewQueryString } from './home-query.js';
import type { Html } from './html.js';
import { rootPath } from './layout.js';
import { renderNotFound } from './not-found.js';
import { type Names, namesOf } from './review-card.js';
import { renderReviewPage } from './review-page.js';
import { renderSitemap, renderSitemapPart } from './sitemap.js';

export interface PagesDeps {
  catalog: () => Catalog;
  /** The MCP tools as the MCP module lists them, read when /developers is rendered (once per revision). */
  toolDefinitions: () => readonly ToolDefinition[];
  /** The process's per-URL memo budget, which filtered views and permalinks share. */
  memo: MemoBudget;
  /** The running hub's limits, which /developers states. */
  hubLimits: HubLimits;
}

const HTML_TYPE = 'text/html; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * Pages only load this origin's own CSS and script (no third-party requests, and a review can never
 * smuggle in a script). Inline style attributes are allowed for the data-driven bar widths.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin');
}

const rep = (c: Catalog, type: string, body: Html | string) => new Representation(type, Buffer.from(String(body)), c.lastModified);
/** A page rendered for one URL's parameters (a filtered view, a permalink): compressed only when small. */
const urlRep = (c: Catalog, type: string, body: Html | string) =>
  new Representation(type, Buffer.from(String(body)), c.lastModified, { policy: PER_URL });

/**
 * The pages for people: `/`, `/reviews/:id`, `/developers`, `/sitemap.xml` and the two static assets.
 * Every page is rendered once per data revision (filtered views in a bounded cache) and served with
 * the datasets' ETag, Last-Modified and compression handling.
 */
export function registerPages(app: FastifyInstance, deps: PagesDeps): void {
  assetRoutes(app);
  const names = perRevision<Names>(namesOf);
  const homes = new RevisionCache<Representation>(deps.memo, 'home', representationSize);
  const permalinks = new RevisionCache<Representation>(deps.memo, 'permalink', representationSize);
  const developers = perRevision((c) => rep(c, HTML_TYPE, renderDevelopers(c, deps.toolDefinitions(), deps.hubLimits)));
  const sitemap = perRevision((c) => rep(c, XML_TYPE, renderSitemap(c)));
  const sitemapParts = new RevisionCache<Representation | null>(deps.memo, 'sitemap_part', (r, grew) =>
    r ? representationSize(r, grew) : 0,
  );

  app.get(PATHS.home, async (req, reply) => {
    const c = deps.catalog();
    const q = parseHomeQuery(req.query as Record<string, unknown>);
    htmlHeaders(reply);
    if (q.ok === 'first-page') {
      // Pages were once numbered offsets; now a page is a cursor. An old numbered link starts its list again.
      const qs = viewQueryString(q.values);
      return reply.header('Cache-Control', 'no-cache').redirect(`${rootPath(c)}/${qs ? `?${qs}` : ''}`, 302);
    }
    if (!q.ok) {
      // Invalid filters: the page explains them beside the form (the API would answer 400 the same way).
      return reply
        .code(400)
        .type(HTML_TYPE)
        .header('Cache-Control', 'no-cache')
        .send(String(renderHome(c, names(c), q, '')));
    }
    const key = viewQueryString(q.values, q.page);
    return sendRepresentation(
      req,
      reply,
      homes.get(c.revision, key, () => urlRep(c, HTML_TYPE, renderHome(c, names(c), q, key))),
    );
  });

  app.get<{ Params: { id: string } }>(`${PATHS.review}/:id`, async (req, reply) => {
    const c = deps.catalog();
    const review = c.review(req.params.id);
    if (!review) {
      reply.header('Vary', 'Accept');
      if (!prefersHtml(req.headers.accept)) throw new NotFoundError(`No published review has the id "${req.params.id}".`);
      return htmlHeaders(reply)
        .code(404)
        .type(HTML_TYPE)
        .send(String(renderNotFound(c, req.url.split('?')[0])));
    }
    htmlHeaders(reply);
    return sendRepresentation(
      req,
      reply,
      permalinks.get(c.revision, review.id, () => urlRep(c, HTML_TYPE, renderReviewPage(c, names(c), review))),
    );
  });

  app.get(PATHS.developers, async (req, reply) => {
    htmlHeaders(reply);
    return sendRepresentation(req, reply, developers(deps.catalog()));
  });

  app.get(PATHS.sitemap, async (req, reply) => sendRepresentation(req, reply, sitemap(deps.catalog())));

  app.get<{ Params: { file: string } }>(`${PATHS.sitemapParts}/:file`, async (req, reply) => {
    const c = deps.catalog();
    const n = /^(\d{1,4})\.xml$/.exec(req.params.file)?.[1];
    const found = n
      ? sitemapParts.get(c.revision, n, () => {
          const body = renderSitemapPart(c, Number(n));
          return body === null ? null : rep(c, XML_TYPE, body);
        })
      : null;
    if (!found) throw new NotFoundError(`No sitemap part ${req.params.file}.`);
    return sendRepresentation(req, reply, found);
  });
}
export { renderDevelopers } from './developers.js';
export { clock, dayRange, formatCount, formatDate } from './format.js';
export { html, jsonScript } from './html.js';
export { cardContext, namesOf, reviewCard } from './review-card.js';
export { renderSitemap, renderSitemapPart } from './sitemap.js';

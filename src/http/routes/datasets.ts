import type { FastifyInstance } from 'fastify';
import { type Catalog, type Representations, websubLinkHeader } from '../../catalog/index.js';
import { sendRepresentation } from '../conditional.js';

interface Dataset {
  url: string;
  rep: keyof Representations;
  /** WebSub topics advertise the hub and themselves (spec §6). */
  topic?: (c: Catalog) => string;
}

export const DATASETS: Dataset[] = [
  { url: '/reviews.json', rep: 'reviews', topic: (c) => c.links.reviewsJson },
  { url: '/insights.json', rep: 'insights' },
  { url: '/api/feed.json', rep: 'feedJson', topic: (c) => c.links.feedJson },
  { url: '/feed.xml', rep: 'feedAtom', topic: (c) => c.links.feedAtom },
];

export function datasetRoutes(app: FastifyInstance, catalog: () => Catalog) {
  for (const d of DATASETS) {
    app.get(d.url, async (req, reply) => {
      const c = catalog();
      if (d.topic) reply.header('Link', websubLinkHeader(c.links, d.topic(c)));
      return sendRepresentation(req, reply, c.representations[d.rep]);
    });
  }
}

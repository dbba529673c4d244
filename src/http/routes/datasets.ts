import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/index.js';
import { DATASETS, type DatasetName, isTopic, linkHeader, topicUrl } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';

export function datasetRoutes(app: FastifyInstance, catalog: () => Catalog) {
  for (const name of Object.keys(DATASETS) as DatasetName[]) {
    app.get(DATASETS[name].path, async (req, reply) => {
      const c = catalog();
      // WebSub topics advertise the hub and themselves (spec §6).
      if (isTopic(name)) reply.header('Link', linkHeader(c.links, topicUrl(c.links, name)));
      return sendRepresentation(req, reply, c.representations[name]);
    });
  }
}

import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/index.js';
import { DATASETS, type DatasetName, isTopic, linkHeader, topicUrl } from '../../domain/index.js';
import { sendRepresentation } from '../conditional.js';
import { type Precomputed, readyCatalog } from '../fast-path.js';

const NAMES = Object.keys(DATASETS) as DatasetName[];

/** Per revision, the headers a dataset's GET sends before its representation's: WebSub topics advertise the hub and themselves (spec §6). */
const headersBefore = new WeakMap<Catalog, Partial<Record<DatasetName, Readonly<Record<string, string>>>>>();
function before(c: Catalog, name: DatasetName): Readonly<Record<string, string>> {
  let byName = headersBefore.get(c);
  if (!byName) headersBefore.set(c, (byName = {}));
  byName[name] ??= isTopic(name) ? { link: linkHeader(c.links, topicUrl(c.links, name)) } : {};
  return byName[name];
}

export function datasetRoutes(app: FastifyInstance, catalog: () => Catalog) {
  for (const name of NAMES) {
    app.get(DATASETS[name].path, async (req, reply) => {
      const c = catalog();
      reply.headers(before(c, name));
      return sendRepresentation(req, reply, c.representations[name]);
    });
  }
}

/** The same datasets for the fast path in front of Fastify; while the catalog is not ready, Fastify answers. */
export function precomputedDatasets(catalog: () => Catalog): Map<string, Precomputed> {
  return new Map(
    NAMES.map((name): [string, Precomputed] => [
      DATASETS[name].path,
      (query) => {
        // A query string is Fastify's to answer (the datasets take no parameters).
        const c = query === null ? readyCatalog(catalog) : null;
        return c && { rep: c.representations[name], before: before(c, name) };
      },
    ]),
  );
}

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { httpDate, Representation } from '../catalog/index.js';
import { PATHS } from '../domain/index.js';
import { NotFoundError, sendRepresentation } from '../http/index.js';

interface Asset {
  /** Path the pages link to, e.g. /assets/site.3f2a9c1b7d.css — the hash makes it safe to cache forever. */
  path: string;
  rep: Representation;
}

function load(file: string, type: string): Asset {
  const url = new URL(`./assets/${file}`, import.meta.url);
  const body = readFileSync(url);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  const path = `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`;
  return { path, rep: new Representation(type, body, httpDate(statSync(url).mtime.toISOString())) };
}

/** The page's only stylesheet and only script, read once at startup. */
export const ASSETS = {
  css: load('site.css', 'text/css; charset=utf-8'),
  js: load('enhance.js', 'text/javascript; charset=utf-8'),
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function assetRoutes(app: FastifyInstance) {
  const byPath = new Map(Object.values(ASSETS).map((a) => [a.path, a.rep]));
  app.register(async (scope) => {
    // sendRepresentation sets the datasets' short max-age; a content-hashed URL never changes meaning.
    scope.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode < 400) reply.header('Cache-Control', IMMUTABLE);
      return payload;
    });
    scope.get<{ Params: { name: string } }>(`${PATHS.assets}/:name`, async (req, reply) => {
      const rep = byPath.get(`/assets/${req.params.name}`);
      if (!rep) throw new NotFoundError(`No asset ${req.params.name}; asset names change with their content.`);
      reply.header('X-Content-Type-Options', 'nosniff');
      return sendRepresentation(req, reply, rep);
    });
  });
}

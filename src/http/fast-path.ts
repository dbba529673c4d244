import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Representation } from '../catalog/index.js';
import { type Answer, answer, answerNow } from './conditional.js';
import { CORS_ANSWER_HEADERS } from './cors.js';

type Headers = Readonly<Record<string, string>>;

/**
 * What a GET of one path sends now, given its query string (null: none): its representation, and the
 * headers its Fastify route sets before the representation's own (the same object for as long as they
 * do not change). Null leaves the request to Fastify (e.g. while the catalog is loading, which Fastify
 * answers with the contract's 503, or a query it answers with an error).
 */
export type Precomputed = (query: string | null) => { rep: Representation; before: Headers } | null;

/** The catalog, or null while there is none yet (Fastify then answers). */
export function readyCatalog<C>(catalog: () => C): C | null {
  try {
    return catalog();
  } catch {
    return null;
  }
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** How many answers the fast path wrote (the rest went to Fastify), for /metrics. */
export class FastPathCounts {
  served = 0;
}

/**
 * Puts a fast path in front of Fastify on `server`: a GET of exactly one of `routes`' paths is written
 * straight to the socket with the headers the Fastify route sends (CORS, the route's own, the answer's)
 * and the same bytes, skipping routing, hooks and the reply machinery, which cost more than writing a
 * cached body. A coding not made yet is waited for here, so what the route made (a search page) is not
 * made again by Fastify. Everything else (other methods, HEAD, a trailing slash, a route that declines
 * or throws, or whenever `open` says no) goes on to Fastify as before.
 */
export function serveAhead(server: Server, routes: ReadonlyMap<string, Precomputed>, open: () => boolean, counts: FastPathCounts): void {
  const [fastify] = server.listeners('request') as Listener[];
  server.removeListener('request', fastify);
  // Every header an answer is written with, made once per route headers and answer.
  const written = new WeakMap<Headers, WeakMap<Answer, Headers>>();
  const headersOf = (before: Headers, a: Answer) => {
    let byAnswer = written.get(before);
    if (!byAnswer) written.set(before, (byAnswer = new WeakMap()));
    let headers = byAnswer.get(a);
    if (!headers) byAnswer.set(a, (headers = { ...CORS_ANSWER_HEADERS, ...before, ...a.headers }));
    return headers;
  };
  const write = (res: ServerResponse, before: Headers, a: Answer) => {
    res.writeHead(a.status, headersOf(before, a));
    // Parts written in one tick go out in one writev (Node corks the socket until the next tick).
    if (a.body.length === 1) res.end(a.body[0]);
    else {
      for (const part of a.body) res.write(part);
      res.end();
    }
    counts.served++;
  };

  const served = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const url = req.url as string;
    const mark = url.indexOf('?');
    const route = routes.get(mark < 0 ? url : url.slice(0, mark));
    if (!route || !open()) return false;
    let now: ReturnType<Precomputed>;
    let a: Answer | null;
    try {
      now = route(mark < 0 ? null : url.slice(mark + 1));
      if (!now) return false;
      a = answerNow(req.headers, now.rep);
    } catch {
      // Fastify answers it, with the contract's error body if it fails there too.
      return false;
    }
    const { before, rep } = now;
    if (a) write(res, before, a);
    else
      answer(req.headers, rep).then(
        (made) => write(res, before, made),
        () => fastify(req, res),
      );
    return true;
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!served(req, res)) fastify(req, res);
  });
}

import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Encoding, Representation } from '../catalog/index.js';
import { qualities } from './accept.js';
import { parseHttpDate } from './http-date.js';

export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

const SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz' };

/**
 * The best coding the client accepts (RFC 9110 §12.5.3): explicit q-values win, `*` covers only codings
 * the header does not name, q=0 refuses; identity when nothing better is acceptable. Brotli wins ties.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map(qualities(header).map(([name, value]) => [name === 'x-gzip' ? 'gzip' : name, value]));
  const wildcard = q.get('*') ?? 0;
  const br = q.get('br') ?? wildcard;
  const gzip = q.get('gzip') ?? wildcard;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** RFC 9110 If-None-Match: a list or `*`, compared weakly; any coding of the same bytes counts as a match. */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = etag.slice(1, -1);
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    if (!tag.startsWith('"') || !tag.endsWith('"')) return false;
    const v = tag.slice(1, -1);
    return v === opaque || v === opaque + SUFFIX.br || v === opaque + SUFFIX.gzip;
  });
}

function notModified(req: FastifyRequest, rep: Representation): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, rep.etag);
  const ims = req.headers['if-modified-since'];
  if (ims) {
    // RFC 9110 §13.1.3: a value that is not an HTTP-date is ignored (a bare `9999` is not a far future).
    const since = parseHttpDate(ims);
    return since !== null && Date.parse(rep.lastModified) <= since;
  }
  return false;
}

/**
 * Sends a pre-rendered body with validators: 304 when the client's copy is current, otherwise the
 * best compressed variant the representation offers (identity when it offers none). A hot request does
 * no serialisation and (after the first) no compression.
 */
export async function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation) {
  const encoding = rep.compressible ? negotiateEncoding(req.headers['accept-encoding']) : null;
  const etag = encoding ? `"${rep.etag.slice(1, -1)}${SUFFIX[encoding]}"` : rep.etag;
  // One call for all validators: this is the hot path of every dataset request.
  reply.headers(
    rep.compressible
      ? { 'cache-control': CACHE_CONTROL, 'last-modified': rep.lastModified, vary: 'Accept-Encoding', etag }
      : { 'cache-control': CACHE_CONTROL, 'last-modified': rep.lastModified, etag },
  );
  if (notModified(req, rep)) return reply.code(304).send();
  reply.type(rep.contentType);
  if (!encoding) {
    const chunks = rep.chunks;
    // Fastify sends a buffer as bytes only over an ArrayBuffer: one over a SharedArrayBuffer (a body made on
    // a worker thread) would be serialised as JSON, so it goes out as a stream like the parts below.
    if (chunks.length === 1 && chunks[0].buffer instanceof ArrayBuffer) return reply.send(chunks[0]);
    // Parts are views of catalog bytes (a since body is a prefix of /reviews.json): written in turn, never joined.
    return reply.header('Content-Length', String(rep.length)).send(Readable.from(chunks, { objectMode: false }));
  }
  reply.header('Content-Encoding', encoding);
  return reply.send(await rep.encoded(encoding));
}

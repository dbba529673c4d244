import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Encoding, type Representation, totalLength } from '../catalog/index.js';
import { qualities } from './accept.js';
import { parseHttpDate } from './http-date.js';

export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

const SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz' };

/** Distinct Accept-Encoding values remembered; clients send a handful, so a full memo is simply emptied. */
const NEGOTIATED_MAX = 64;
const negotiated = new Map<string, Encoding | null>();

/**
 * The best coding the client accepts (RFC 9110 §12.5.3): explicit q-values win, `*` covers only codings
 * the header does not name, q=0 refuses; identity when nothing better is acceptable. Brotli wins ties.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let coding = negotiated.get(header);
  if (coding === undefined) {
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    coding = negotiate(header);
    negotiated.set(header, coding);
  }
  return coding;
}

function negotiate(header: string): Encoding | null {
  const q = new Map(qualities(header).map(([name, value]) => [name === 'x-gzip' ? 'gzip' : name, value]));
  const wildcard = q.get('*') ?? 0;
  const br = q.get('br') ?? wildcard;
  const gzip = q.get('gzip') ?? wildcard;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** RFC 9110 If-None-Match: a list or `*`, compared weakly; any coding of the same bytes counts as a match. */
export function etagMatches(header: string, etag: string): boolean {
  // A client sends back the one tag it was given, most of the time.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const opaque = etag.slice(1, -1);
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    if (!tag.startsWith('"') || !tag.endsWith('"')) return false;
    const v = tag.slice(1, -1);
    return v === opaque || v === opaque + SUFFIX.br || v === opaque + SUFFIX.gzip;
  });
}

function notModified(headers: IncomingHttpHeaders, rep: Representation): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, rep.etag);
  const ims = headers['if-modified-since'];
  if (ims) {
    // RFC 9110 §13.1.3: a value that is not an HTTP-date is ignored (a bare `9999` is not a far future).
    const since = parseHttpDate(ims);
    return since !== null && Date.parse(rep.lastModified) <= since;
  }
  return false;
}

/** What a GET of a representation answers: the status, the headers in the order they are sent, the body's parts. */
export interface Answer {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** Empty on a 304. */
  readonly body: readonly Buffer[];
}

/** Identity, then the codings, in the order of an answer's slot. */
const CODINGS = [null, 'br', 'gzip'] as const;
const NOT_MODIFIED = CODINGS.length;
/**
 * The stand-in while a large body's coding is made: identity (200, then 304), marked `no-cache` so no
 * shared cache keeps the uncompressed bytes for a client that asked for a coding once it exists.
 */
const STAND_IN = 2 * NOT_MODIFIED;

/**
 * A coding of a body up to this size is waited for (tens of milliseconds at most); a larger one (a
 * dataset of a large corpus: seconds of CPU) is made in the background while the request gets another
 * acceptable coding already made, or else identity, so a new revision is served at once to every client.
 */
export const WAIT_FOR_CODING_UP_TO = 1 << 20;

/** A representation's answers, made once each: 200 per coding, then 304 per coding, then the stand-in's. */
const answers = new WeakMap<Representation, (Answer | undefined)[]>();

/** Whether Accept-Encoding accepts `coding` (RFC 9110 §12.5.3: named with q > 0, or covered by `*` with q > 0). */
function accepts(header: string | undefined, coding: Encoding | 'identity'): boolean {
  if (!header) return true;
  const q = new Map(qualities(header));
  return (q.get(coding) ?? q.get('*') ?? (coding === 'identity' ? 1 : 0)) > 0;
}

/** Which of a representation's answers a request gets (starting a large body's coding it will not wait for). */
function slot(headers: IncomingHttpHeaders, rep: Representation): number {
  const header = headers['accept-encoding'];
  let at: number = rep.compressible ? CODINGS.indexOf(negotiateEncoding(header)) : 0;
  const coding = CODINGS[at];
  // The size first: a small body (most requests) never asks whether its coding is made here; answerAt does.
  if (coding && rep.length > WAIT_FOR_CODING_UP_TO && !rep.encodedNow(coding) && accepts(header, 'identity')) {
    void rep.encoded(coding);
    const other = coding === 'br' ? 'gzip' : 'br';
    at = accepts(header, other) && rep.encodedNow(other) ? CODINGS.indexOf(other) : STAND_IN;
  }
  // A 304 names what a 200 would be now: its coding's ETag, or the stand-in's identity one.
  if (!notModified(headers, rep)) return at;
  return at === STAND_IN ? STAND_IN + 1 : NOT_MODIFIED + at;
}

function makeAnswer(rep: Representation, at: number, coded?: readonly Buffer[]): Answer {
  const encoding = at >= STAND_IN ? null : CODINGS[at % NOT_MODIFIED];
  const etag = encoding ? `"${rep.etag.slice(1, -1)}${SUFFIX[encoding]}"` : rep.etag;
  const cacheControl = at >= STAND_IN ? 'no-cache' : CACHE_CONTROL;
  const validators: Record<string, string> = rep.compressible
    ? { 'cache-control': cacheControl, 'last-modified': rep.lastModified, vary: 'Accept-Encoding', etag }
    : { 'cache-control': cacheControl, 'last-modified': rep.lastModified, etag };
  if (at === STAND_IN + 1 || (at >= NOT_MODIFIED && at < STAND_IN)) return { status: 304, headers: validators, body: [] };
  const body = coded ?? rep.chunks;
  const length = coded ? totalLength(coded) : rep.length;
  const coding: Record<string, string> = encoding ? { 'content-encoding': encoding } : {};
  return {
    status: 200,
    headers: { ...validators, 'content-type': rep.contentType, ...coding, 'content-length': String(length) },
    body,
  };
}

/** The answer at `at` if it can be given now (`coded`: its coding, just made): null while that coding is being made. */
function answerAt(rep: Representation, at: number, coded?: readonly Buffer[]): Answer | null {
  let made = answers.get(rep);
  if (!made) answers.set(rep, (made = []));
  const done = made[at];
  if (done) return done;
  const encoding = at < NOT_MODIFIED ? CODINGS[at] : null;
  const body = encoding ? (coded ?? rep.encodedNow(encoding)) : undefined;
  if (encoding && !body) return null;
  made[at] = makeAnswer(rep, at, body);
  return made[at];
}

/**
 * The answer to a GET of `rep` when it is ready without waiting: 304 when the client's copy is current,
 * otherwise the best coding the representation offers (identity when it offers none). Null while a
 * small body's coding is still being compressed (the first request of a revision for it). A hot request
 * does no serialisation, no compression and no allocation: the answers are made once per representation.
 */
export function answerNow(headers: IncomingHttpHeaders, rep: Representation): Answer | null {
  return answerAt(rep, slot(headers, rep));
}

/** The answer to a GET of `rep`, waiting for its coding to be made if it is one a request waits for. */
export async function answer(headers: IncomingHttpHeaders, rep: Representation): Promise<Answer> {
  const at = slot(headers, rep);
  // Null only for a 200 in a coding (slots 1 and 2) that is waited for, which is then made.
  return answerAt(rep, at) ?? (answerAt(rep, at, await rep.encoded(CODINGS[at] as Encoding)) as Answer);
}

/** Sends a pre-rendered body with validators through Fastify (the routes the fast path leaves to it, and every page). */
export async function sendRepresentation(req: FastifyRequest, reply: FastifyReply, rep: Representation) {
  const a = await answer(req.headers, rep);
  reply.headers(a.headers);
  if (a.status === 304) return reply.code(304).send();
  const [first] = a.body;
  // Fastify sends a buffer as bytes only over an ArrayBuffer: one over a SharedArrayBuffer (a body made on
  // a worker thread) would be serialised as JSON, so it goes out as a stream like the parts below.
  if (a.body.length === 1 && first.buffer instanceof ArrayBuffer) return reply.send(first);
  // Parts are views of catalog bytes (a since body is a prefix of /reviews.json): written in turn, never joined.
  return reply.send(Readable.from(a.body, { objectMode: false }));
}

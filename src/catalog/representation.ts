import { createHash } from 'node:crypto';
import type { Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { joinSteps, runInSlices, SliceClock } from '../threads/index.js';
import { totalLength, utf8Pieces } from './byte-parts.js';

export type Encoding = 'br' | 'gzip';

/** Below this size compression costs more than it saves on the wire. */
const MIN_COMPRESS_BYTES = 1024;
/**
 * A body in parts up to this size is joined before it is compressed: a search page is views of scattered
 * items (hundreds of small parts), and a coder takes each write as a round trip to zlib's thread pool.
 */
const JOIN_TO_COMPRESS_BYTES = 1 << 20;

/**
 * How a body is compressed. A revision's datasets are compressed once each, whatever their size. A
 * body rendered for one URL's parameters (a search, a since date, a filtered page) could be asked for
 * under any number of distinct URLs, so it is compressed only when small, at a fast setting, and a
 * large one is served as it is (identity): a stream of distinct URLs then costs no compression beyond
 * a small bounded amount each.
 */
export const PER_REVISION = { compressUpTo: Infinity, brotliQuality: (bytes: number) => (bytes > 4 << 20 ? 5 : 9) } as const;
export const PER_URL = { compressUpTo: 256 << 10, brotliQuality: () => 4 } as const;
export type CompressionPolicy = { compressUpTo: number; brotliQuality: (bytes: number) => number };

/**
 * One rendered body with its validators. The body is one buffer, or parts sent in order without
 * being joined (views into bytes the catalog already holds). Compressed variants are made on first
 * demand, off the event loop (zlib's thread pool), and then kept for the life of the revision; a
 * stored one is given as the parts it was read in, and sent in them.
 */
export class Representation {
  readonly etag: string;
  readonly length: number;
  private readonly parts: readonly Buffer[];
  private readonly variants = new Map<Encoding, Promise<readonly Buffer[]>>();
  /** The variants already made, for a caller that must answer without waiting (the same buffers, not copies). */
  private readonly made = new Map<Encoding, readonly Buffer[]>();
  private readonly policy: CompressionPolicy;
  /** Bytes of the body this object owns (views of catalog bytes excluded), and of resolved variants. */
  private retainedBytes: number;
  private onGrow: ((bytes: number) => void) | null = null;

  constructor(
    readonly contentType: string,
    body: Buffer | readonly Buffer[],
    readonly lastModified: string,
    known: {
      /** A SHA-256 that already covers every byte of `body` (a hash tree of a spliced document). */
      digest?: Buffer;
      /** The gzip coding of `body`, in the parts it was read in (a stored snapshot keeps it). */
      gzipped?: readonly Buffer[];
      /** How much of `body` is this object's own memory, when parts of it are views of catalog bytes. */
      ownedBytes?: number;
      policy?: CompressionPolicy;
    } = {},
  ) {
    this.parts = Buffer.isBuffer(body) ? [body] : body;
    this.length = totalLength(this.parts);
    this.policy = known.policy ?? PER_REVISION;
    this.retainedBytes = known.ownedBytes ?? this.length;
    // Strong ETag from a SHA-256 of the exact bytes: equal on every replica that renders the same revision.
    const digest = known.digest ?? this.parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
    this.etag = `"${digest.toString('base64url').slice(0, 32)}"`;
    if (known.gzipped) {
      this.variants.set('gzip', Promise.resolve(known.gzipped));
      this.made.set('gzip', known.gzipped);
      this.retainedBytes += totalLength(known.gzipped);
    }
  }

  /** The body as one buffer (joined on each call when it is made of parts: for small bodies only). */
  get body(): Buffer {
    return this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts as Buffer[], this.length);
  }

  /** The body decoded as UTF-8 a part at a time (joining a large body's parts first would copy it whole). */
  text(): string {
    return utf8Pieces(this.parts).join('');
  }

  /** The body as it is held, for writing without joining. */
  get chunks(): readonly Buffer[] {
    return this.parts;
  }

  get compressible(): boolean {
    return this.length >= MIN_COMPRESS_BYTES && this.length <= this.policy.compressUpTo;
  }

  /**
   * The bytes this representation holds beyond the catalog's own, for a memo's budget; `grew` hears
   * of each compressed variant made later.
   */
  track(grew: (bytes: number) => void): number {
    this.onGrow = grew;
    return this.retainedBytes;
  }

  /** The coding if it is made already (undefined until `encoded` has made it). */
  encodedNow(encoding: Encoding): readonly Buffer[] | undefined {
    return this.made.get(encoding);
  }

  /** The coding's bytes in order: one buffer when made here, the parts it was read in when stored. */
  encoded(encoding: Encoding): Promise<readonly Buffer[]> {
    let v = this.variants.get(encoding);
    if (!v) {
      // Quality is tuned for large bodies: brotli 11 on tens of MB takes minutes; 5 is near gzip speed and smaller.
      v = compress(
        this.length <= JOIN_TO_COMPRESS_BYTES ? [this.body] : this.parts,
        encoding === 'br'
          ? createBrotliCompress({
              params: {
                [constants.BROTLI_PARAM_QUALITY]: this.policy.brotliQuality(this.length),
                [constants.BROTLI_PARAM_SIZE_HINT]: this.length,
              },
            })
          : createGzip({ level: 6 }),
      );
      v.then(
        (b) => {
          const bytes = totalLength(b);
          this.made.set(encoding, b);
          this.retainedBytes += bytes;
          this.onGrow?.(bytes);
        },
        () => undefined,
      );
      this.variants.set(encoding, v);
    }
    return v;
  }
}

/**
 * A body's parts through a zlib coder on zlib's thread pool (in order, never joined), its output joined a
 * slice at a time: zlib's chunks are 16 KiB (a coding kept in them would be sent as thousands of parts),
 * and a coding of a large body is megabytes, which joined in one go (as zlib's one-call helpers do) holds
 * the event loop.
 */
async function compress(parts: readonly Buffer[], coder: Transform): Promise<readonly Buffer[]> {
  const chunks: Buffer[] = [];
  coder.on('data', (c: Buffer) => chunks.push(c));
  for (const part of parts) coder.write(part);
  coder.end();
  await finished(coder);
  return [chunks.length === 1 ? chunks[0] : await runInSlices(joinSteps(chunks), new SliceClock())];
}

export const httpDate = (iso: string) => new Date(iso).toUTCString();

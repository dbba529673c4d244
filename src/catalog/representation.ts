import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip';

/** Below this size compression costs more than it saves on the wire. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * One rendered body with its validators. Compressed variants are made on first demand, off the
 * event loop (zlib's thread pool), and then kept for the life of the revision.
 */
export class Representation {
  readonly etag: string;
  private readonly variants = new Map<Encoding, Promise<Buffer>>();

  constructor(
    readonly contentType: string,
    readonly body: Buffer,
    readonly lastModified: string,
    known: {
      /** A SHA-256 that already covers every byte of `body` (a hash tree of a spliced document). */
      digest?: Buffer;
      /** The gzip coding of `body` (a stored snapshot keeps it). */
      gzipped?: Buffer;
    } = {},
  ) {
    // Strong ETag from a SHA-256 of the exact bytes: equal on every replica that renders the same revision.
    const digest = known.digest ?? createHash('sha256').update(body).digest();
    this.etag = `"${digest.toString('base64url').slice(0, 32)}"`;
    if (known.gzipped) this.variants.set('gzip', Promise.resolve(known.gzipped));
  }

  get compressible(): boolean {
    return this.body.length >= MIN_COMPRESS_BYTES;
  }

  encoded(encoding: Encoding): Promise<Buffer> {
    let v = this.variants.get(encoding);
    if (!v) {
      // Quality is tuned for large bodies: brotli 11 on tens of MB takes minutes; 5 is near gzip speed and smaller.
      const quality = this.body.length > 4 << 20 ? 5 : 9;
      v =
        encoding === 'br'
          ? brotliAsync(this.body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length },
            })
          : gzipAsync(this.body, { level: 6 });
      this.variants.set(encoding, v);
    }
    return v;
  }

}

export const httpDate = (iso: string) => new Date(iso).toUTCString();

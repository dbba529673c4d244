import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type DemoOptions, demoFileChunks } from './generate.js';

/** Stream the demo history to a file (JSON when it ends in .json, NDJSON otherwise) with bounded memory. */
export async function writeDemoFile(file: string, opts: DemoOptions = {}): Promise<void> {
  const format = /\.json$/i.test(file) ? 'json' : 'ndjson';
  await pipeline(Readable.from(demoFileChunks(format, opts)), createWriteStream(file));
}

import type { Business, Links, Review } from '../../domain/index.js';
import { renderAtom } from './atom.js';
import { renderJsonFeed } from './json-feed.js';

export const FEED_SIZE = 50;

/** The JSON Feed and Atom bodies of the newest reviews (at most FEED_SIZE, newest first). */
export function renderFeeds(business: Business, newest: readonly Review[], l: Links, generatedAt: string): { json: Buffer; atom: Buffer } {
  return {
    json: Buffer.from(JSON.stringify(renderJsonFeed(business, newest, l))),
    atom: Buffer.from(renderAtom(business, newest, l, generatedAt)),
  };
}

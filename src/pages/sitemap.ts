import type { Catalog } from '../catalog/index.js';
import { PATHS } from '../domain/index.js';

/** The sitemaps protocol's per-file cap; a bigger site gets a sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

interface Entry {
  loc: string;
  lastmod: string;
}

/** Every page crawlers should index: the review page, the developer docs and each review's permalink. */
function entries(c: Catalog): Entry[] {
  const day = c.generatedAt.slice(0, 10);
  return [
    { loc: `${c.links.base}/`, lastmod: day },
    { loc: `${c.links.base}${PATHS.developers}`, lastmod: day },
    // A review's url is its permalink: read from its id, it costs no parse of a held review.
    ...c.reviews.map((r) => ({ loc: c.links.review(r.id), lastmod: r.updated_at.slice(0, 10) })),
  ];
}

export const sitemapCount = (c: Catalog, max = SITEMAP_MAX_URLS) => Math.ceil((c.reviews.length + 2) / max);

const urlset = (list: readonly Entry[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${list
    .map((e) => `<url><loc>${xmlEscape(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;

/** `/sitemap.xml`: the URL set itself, or an index of `/sitemaps/N.xml` when there are too many URLs. */
export function renderSitemap(c: Catalog, max = SITEMAP_MAX_URLS): string {
  const n = sitemapCount(c, max);
  if (n === 1) return urlset(entries(c));
  const day = c.generatedAt.slice(0, 10);
  const parts = Array.from(
    { length: n },
    (_, i) => `<sitemap><loc>${xmlEscape(`${c.links.base}${PATHS.sitemapParts}/${i + 1}.xml`)}</loc><lastmod>${day}</lastmod></sitemap>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.join('\n')}\n</sitemapindex>\n`;
}

/** Part `n` (1-based) of a split sitemap, or null when there is no such part. */
export function renderSitemapPart(c: Catalog, n: number, max = SITEMAP_MAX_URLS): string | null {
  const count = sitemapCount(c, max);
  if (count === 1 || n < 1 || n > count) return null;
  return urlset(entries(c).slice((n - 1) * max, n * max));
}

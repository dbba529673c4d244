import type { Catalog } from '../catalog/index.js';
import { PATHS } from '../domain/index.js';
import { ASSETS } from './assets.js';
import { escapeHtml, type Html, html, jsonScript, type Part } from './html.js';

/**
 * The path prefix of PUBLIC_BASE_URL ("" at the root). In-site links are root-relative so a page works
 * whichever host name reached it; absolute URLs (canonical, Open Graph, JSON-LD) use the public base.
 */
export const rootPath = (c: Catalog) => new URL(c.links.base).pathname.replace(/\/+$/, '');

/** The brand mark as an inline SVG icon: the browser's favicon request never leaves the page. */
function favicon(name: string): string {
  const letter = escapeHtml(name.trim().charAt(0).toUpperCase() || 'R');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#184e8c"/><text x="16" y="22.5" font-family="system-ui,sans-serif" font-size="19" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export interface PageSpec {
  title: string;
  description: string;
  /** Absolute URL of this page; none for an error page. */
  canonical?: string;
  ogType: 'website' | 'article';
  jsonLd?: object;
  /** Filtered and paged views are for people; the sitemap lists what crawlers should index. */
  noindex?: boolean;
  /** The enhancement script is only needed where the filters are. */
  script?: boolean;
  body: Part;
}

export function layout(c: Catalog, page: PageSpec): Html {
  const root = rootPath(c);
  const b = c.business;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<meta name="description" content="${page.description}">
${page.canonical && html`<link rel="canonical" href="${page.canonical}">`}
${page.noindex && html`<meta name="robots" content="noindex, follow">`}
<meta property="og:type" content="${page.ogType}">
<meta property="og:site_name" content="${b.name}">
<meta property="og:title" content="${page.title}">
<meta property="og:description" content="${page.description}">
${page.canonical && html`<meta property="og:url" content="${page.canonical}">`}
<meta name="twitter:card" content="summary">
<meta name="theme-color" content="#184e8c">
<link rel="alternate" type="application/atom+xml" title="${b.name} reviews (Atom)" href="${c.links.feedAtom}">
<link rel="alternate" type="application/feed+json" title="${b.name} reviews (JSON Feed)" href="${c.links.feedJson}">
<link rel="icon" href="${favicon(b.name)}">
<link rel="stylesheet" href="${root}${ASSETS.css.path}">
${page.script && html`<script type="module" src="${root}${ASSETS.js.path}"></script>`}
${page.jsonLd && html`<script type="application/ld+json">${jsonScript(page.jsonLd)}</script>`}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="wrap header-inner">
    <a class="brand" href="${root}/"><span class="brand-mark" aria-hidden="true">${b.name.charAt(0)}</span><span>${b.name}</span></a>
    <nav aria-label="Site">
      <ul class="nav-list">
        <li><a href="${root}/#reviews">Reviews</a></li>
        <li><a href="${root}/#faq">FAQ</a></li>
        <li><a href="${root}${PATHS.developers}">Developers</a></li>
      </ul>
    </nav>
  </div>
</header>
<main id="main" tabindex="-1">
${page.body}
</main>
<footer class="site-footer">
  <div class="wrap footer-inner">
    <p>Every review shown here is verified before it is published; none are hidden. Data revision ${c.revision}, updated ${c.generatedAt.slice(0, 10)}.</p>
    <nav aria-label="Open data">
      <ul class="footer-links">
        <li><a href="${c.links.reviewsJson}">reviews.json</a></li>
        <li><a href="${root}${PATHS.insights}">insights.json</a></li>
        <li><a href="${c.links.feedAtom}">Atom feed</a></li>
        <li><a href="${c.links.feedJson}">JSON Feed</a></li>
        <li><a href="${root}${PATHS.developers}">API, MCP &amp; WebSub</a></li>
      </ul>
    </nav>
    <p class="powered">Published with Reviewcast</p>
  </div>
</footer>
</body>
</html>
`;
}

import type { Catalog } from '../catalog/index.js';
import { type Html, html } from './html.js';
import { layout, rootPath } from './layout.js';

/** The page a person sees for a review id that is not (or no longer) published. */
export function renderNotFound(c: Catalog, path: string): Html {
  const root = rootPath(c);
  return layout(c, {
    title: `Not found — ${c.business.name}`,
    description: 'This review is not published here.',
    ogType: 'website',
    noindex: true,
    body: html`<div class="wrap narrow not-found">
  <h1>We can’t find that review</h1>
  <p>Nothing is published at <code>${path}</code>. The link may be mistyped, or the review may have been removed by its platform.</p>
  <p><a class="button" href="${root}/#reviews">See all reviews of ${c.business.name}</a></p>
</div>`,
  });
}

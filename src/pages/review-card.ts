import type { Catalog } from '../catalog/index.js';
import { PATHS, type Review, type SearchParam } from '../domain/index.js';
import { formatDate, sourceLabel, stars } from './format.js';
import { type Html, html } from './html.js';
import { rootPath } from './layout.js';

/** Display names for the ids a review carries (technicians, services, service area). */
export interface Names {
  technicians: Record<string, string>;
  services: Record<string, string>;
  areas: Record<string, string>;
}

export const namesOf = (c: Catalog): Names => ({
  technicians: Object.fromEntries(c.business.technicians.map((t) => [t.id, t.name])),
  services: Object.fromEntries(c.business.services.map((s) => [s.id, s.name])),
  areas: Object.fromEntries(c.business.service_areas.map((a) => [a.id, a.name])),
});

export interface CardContext {
  root: string;
  names: Names;
  /** h3 in the home page's list, h2 on a permalink page. */
  headingLevel: 2 | 3;
}

export const cardContext = (c: Catalog, names: Names, headingLevel: 2 | 3): CardContext => ({ root: rootPath(c), names, headingLevel });

/** Link to the review page filtered by one search parameter (the same names /api/reviews/search takes). */
export const filterHref = (root: string, param: SearchParam, value: string | number) =>
  `${root}/?${param}=${encodeURIComponent(value)}#reviews`;

/** Shown for rating-only reviews; enhance.js reads it from `data-empty`. */
const NO_TEXT = 'Rated without a written review.';

const initial = (name: string) => (name.trim().charAt(0) || '?').toUpperCase();

/**
 * One review. Every variable part carries a `data-slot` so enhance.js can fill a clone of this very
 * markup (see `cardTemplate`) from /api/reviews/search results: the card's structure lives only here.
 */
export function reviewCard(r: Review, ctx: CardContext): Html {
  const { root, names } = ctx;
  const heading = html`<span data-slot="author">${r.author}</span>`;
  return html`<article class="review" data-review-id="${r.id}">
  <header class="review-head">
    <span class="avatar" aria-hidden="true" data-slot="initial">${initial(r.author)}</span>
    <div>
      ${ctx.headingLevel === 2 ? html`<h2 class="review-author">${heading}</h2>` : html`<h3 class="review-author">${heading}</h3>`}
      <p class="review-meta">
        <span data-slot="stars">${stars(r.rating, `Rated ${r.rating} out of 5`)}</span>
        <a class="review-date" data-slot="permalink" href="${root}${PATHS.review}/${r.id}"><time data-slot="date" datetime="${r.date}">${formatDate(r.date)}</time></a>
        <span class="review-source">via ${r.source_url ? html`<a data-slot="source" href="${r.source_url}" rel="nofollow noopener">${sourceLabel(r.source)}</a>` : html`<span data-slot="source">${sourceLabel(r.source)}</span>`}</span>
        ${r.verified && html`<span class="verified">Verified</span>`}
      </p>
    </div>
  </header>
  ${r.title && html`<p class="review-title" data-slot="title">${r.title}</p>`}
  <p class="review-text${r.text ? '' : ' review-text-empty'}" data-slot="text" data-empty="${NO_TEXT}">${r.text ?? NO_TEXT}</p>
  ${
    (r.technicians.length > 0 || r.services.length > 0 || r.service_area) &&
    html`<ul class="tags" data-slot="tags" aria-label="Mentioned in this review">
    ${r.technicians.map((id) => html`<li data-kind="technician"><a class="tag tag-person" href="${filterHref(root, 'mentions_technician', id)}">${names.technicians[id] ?? id}</a></li>`)}
    ${r.services.map((id) => html`<li data-kind="service"><a class="tag" href="${filterHref(root, 'mentions_service', id)}">${names.services[id] ?? id}</a></li>`)}
    ${r.service_area && html`<li data-kind="area"><span class="tag">${names.areas[r.service_area] ?? r.service_area}</span></li>`}
  </ul>`
  }
  ${
    r.owner_reply &&
    html`<div class="owner-reply" data-slot="reply">
    <p class="reply-head">Response from the owner <time data-slot="reply-date" datetime="${r.owner_reply.date}">${formatDate(r.owner_reply.date)}</time></p>
    <p class="reply-text" data-slot="reply-text">${r.owner_reply.text}</p>
  </div>`
  }
</article>`;
}

/** A card with every optional part present, for enhance.js to clone; its placeholder values are never shown. */
export function cardTemplate(ctx: CardContext): Html {
  const sample: Review = {
    id: '00000000000000000000000000',
    author: 'a',
    author_avatar_url: null,
    rating: 5,
    date: '2000-01-01',
    text: 't',
    source: 'direct',
    source_url: 'https://example.invalid/',
    owner_reply: { text: 'r', date: '2000-01-01' },
    verified: true,
    published_at: '2000-01-01T00:00:00Z',
    updated_at: '2000-01-01T00:00:00Z',
    first_seen_at: '2000-01-01T00:00:00Z',
    title: 't',
    language: null,
    technicians: ['t'],
    services: ['s'],
    service_area: 'a',
    verification: { method: 'platform' },
    url: 'https://example.invalid/',
  };
  return html`<template id="review-card-template"><li>${reviewCard(sample, ctx)}</li></template>`;
}

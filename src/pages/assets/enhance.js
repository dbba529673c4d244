// Progressive enhancement, and nothing more: without this file every filter, link and page still works
// (the filters are a plain GET form). With it, filters apply as they change, through the public search
// API, and the URL keeps their state; code samples get copy buttons.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Mirrors formatDate in format.ts: 2026-10-31 → "Oct 31, 2026". */
const formatDate = (iso) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
};
const count = (n) => n.toLocaleString('en-US');
const sourceLabel = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function enhanceFilters(form) {
  const list = document.getElementById('review-list');
  const status = document.getElementById('result-count');
  const errors = document.getElementById('filter-errors');
  const pager = document.querySelector('.pager');
  const heading = document.getElementById('reviews-heading');
  const template = document.getElementById('review-card-template').content.firstElementChild;
  const names = JSON.parse(document.getElementById('review-names').textContent);
  const home = new URL(form.action).pathname;
  const root = home.replace(/\/$/, '');
  const filterHref = (param, value) => `${root}/?${param}=${encodeURIComponent(value)}#reviews`;
  let inflight = null;

  /** The form's state as search parameters; an empty field is no filter. */
  const params = () => {
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v !== '') p.set(k, v);
    return p;
  };

  function card(r) {
    const li = template.cloneNode(true);
    const slot = (name) => li.querySelector(`[data-slot="${name}"]`);
    li.querySelector('[data-review-id]').dataset.reviewId = r.id;
    slot('initial').textContent = (r.author.trim().charAt(0) || '?').toUpperCase();
    slot('author').textContent = r.author;
    const stars = slot('stars').firstElementChild;
    stars.setAttribute('aria-label', `Rated ${r.rating} out of 5`);
    stars.firstElementChild.style.width = `${r.rating * 20}%`;
    slot('permalink').href = `${root}/reviews/${r.id}`;
    const date = slot('date');
    date.dateTime = r.date;
    date.textContent = formatDate(r.date);
    const source = slot('source');
    source.textContent = sourceLabel(r.source);
    if (r.source_url) source.href = r.source_url;
    else source.replaceWith(Object.assign(document.createElement('span'), { textContent: source.textContent }));
    if (r.title) slot('title').textContent = r.title;
    else slot('title').remove();
    const text = slot('text');
    text.textContent = r.text ?? text.dataset.empty;
    text.classList.toggle('review-text-empty', r.text == null);

    const tags = slot('tags');
    const proto = Object.fromEntries([...tags.children].map((t) => [t.dataset.kind, t]));
    const tag = (kind, label, href) => {
      const t = proto[kind].cloneNode(true);
      const inner = t.firstElementChild;
      inner.textContent = label;
      if (href) inner.href = href;
      return t;
    };
    tags.replaceChildren(
      ...r.technicians.map((id) => tag('technician', names.technicians[id] ?? id, filterHref('mentions_technician', id))),
      ...r.services.map((id) => tag('service', names.services[id] ?? id, filterHref('mentions_service', id))),
      ...(r.service_area ? [tag('area', names.areas[r.service_area] ?? r.service_area)] : []),
    );
    if (!tags.children.length) tags.remove();

    const reply = slot('reply');
    if (r.owner_reply) {
      slot('reply-text').textContent = r.owner_reply.text;
      slot('reply-date').dateTime = r.owner_reply.date;
      slot('reply-date').textContent = formatDate(r.owner_reply.date);
    } else reply.remove();
    return li;
  }

  function showErrors(issues) {
    errors.hidden = issues.length === 0;
    errors.querySelector('ul').replaceChildren(
      ...issues.map((i) => Object.assign(document.createElement('li'), { textContent: `${i.path.join('.') || 'query'}: ${i.message}` })),
    );
  }

  /** Shows one page of results: `p` the search parameters (with `cursor` after the first page), `page` its number. */
  function render(result, p, page) {
    list.replaceChildren(...result.reviews.map(card));
    const size = Number(pager.dataset.pageSize);
    const first = Math.min((page - 1) * size + 1, result.matched - result.returned + 1);
    status.textContent =
      result.matched === 0
        ? 'No reviews match these filters.'
        : result.returned === 0
          ? `No more reviews after this point; ${count(result.matched)} match in all.`
          : `Showing ${count(first)}–${count(first + result.returned - 1)} of ${count(result.matched)} ${result.matched === 1 ? 'review' : 'reviews'}`;
    // Pages follow the API's next_cursor, the same links the server renders.
    const pages = Math.max(1, Math.ceil(result.matched / size));
    const filters = new URLSearchParams(p);
    filters.delete('cursor');
    const paged = p.has('cursor');
    pager.hidden = !paged && !result.next_cursor;
    const prev = pager.querySelector('[data-slot="prev"]');
    prev.href = `${home}${filters.size ? `?${filters}` : ''}#reviews`;
    prev.hidden = !paged;
    pager.querySelector('[data-slot="page-info"]').textContent = `Page ${count(Math.min(page, pages))} of ${count(pages)}`;
    const next = pager.querySelector('[data-slot="next"]');
    if (result.next_cursor) {
      const nextParams = new URLSearchParams(filters);
      nextParams.set('cursor', result.next_cursor);
      nextParams.set(pager.dataset.pageParam, String(page + 1));
      next.href = `${home}?${nextParams}#reviews`;
    }
    next.hidden = !result.next_cursor;
    for (const row of document.querySelectorAll('[data-rating]')) {
      if (row.dataset.rating === p.get('rating')) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
    }
  }

  /**
   * Loads the first page the form describes, or, given a pager link's parameters, that page exactly as
   * linked (its cursor is bound to every parameter of its search, some of which the form has no field for).
   */
  async function apply(link) {
    const p = link ? new URLSearchParams(link) : params();
    const page = link ? Number(p.get(pager.dataset.pageParam)) || 1 : 1;
    p.delete(pager.dataset.pageParam);
    const view = new URLSearchParams(p);
    if (p.has('cursor')) view.set(pager.dataset.pageParam, String(page));
    history.replaceState(null, '', `${home}${view.size ? `?${view}` : ''}#reviews`);
    inflight?.abort();
    const mine = (inflight = new AbortController());
    list.setAttribute('aria-busy', 'true');
    try {
      const res = await fetch(`${form.dataset.api}?${p}`, { signal: mine.signal, headers: { accept: 'application/json' } });
      const body = await res.json();
      if (res.ok) {
        showErrors([]);
        render(body, p, page);
      } else {
        showErrors(body.issues?.length ? body.issues : [{ path: [], message: body.message }]);
        list.replaceChildren();
        status.textContent = 'Correct the filters to see reviews.';
        pager.hidden = true;
      }
    } catch (err) {
      if (err.name === 'AbortError') return;
      status.textContent = 'The reviews could not be loaded. Check your connection and try again.';
    } finally {
      if (inflight === mine) list.removeAttribute('aria-busy');
    }
  }

  let typing;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(typing);
    apply();
  });
  form.addEventListener('change', (e) => {
    if (e.target.name !== 'query') apply();
  });
  form.elements.query.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => apply(), 300);
  });

  // Links that only filter or page this list (rating rows, technicians, tags, "Clear", the pager) apply in place.
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[href]');
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(a.href);
    if (url.origin !== location.origin || url.pathname !== home || url.hash !== '#reviews') return;
    e.preventDefault();
    for (const el of form.elements) if (el.name && el.type !== 'hidden') el.value = url.searchParams.get(el.name) ?? '';
    apply(a.closest('.pager') ? url.searchParams : undefined);
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: 'start' });
  });
}

function addCopyButtons() {
  if (!navigator.clipboard) return;
  for (const pre of document.querySelectorAll('pre[data-copy]')) {
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'copy-button', textContent: 'Copy' });
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(pre.querySelector('code').textContent);
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Select and copy';
      }
      setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
    pre.append(button);
  }
}

const form = document.getElementById('review-filters');
if (form) enhanceFilters(form);
addCopyButtons();

/**
 * The entries of an Accept-style header (Accept, Accept-Encoding; RFC 9110 §12.4.2) with their q-values:
 * names lowercased, q=1 when absent, an unreadable q counts as 0 (refused).
 */
export function qualities(header: string): [name: string, q: number][] {
  return header.split(',').map((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return [name.trim(), Number.isFinite(q) ? q : 0];
  });
}

/**
 * Whether a client would rather have HTML than JSON (RFC 9110 Accept with q-values). Browsers list
 * text/html; API clients and curl send JSON or `*∕*`, which keeps the contract's JSON error body.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let htmlQ = 0;
  let jsonQ = 0;
  for (const [type, q] of qualities(accept)) {
    if (type === 'text/html' || type === 'application/xhtml+xml') htmlQ = Math.max(htmlQ, q);
    else if (type === 'application/json' || type.endsWith('+json')) jsonQ = Math.max(jsonQ, q);
  }
  return htmlQ > 0 && htmlQ >= jsonQ;
}

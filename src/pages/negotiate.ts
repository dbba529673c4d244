/**
 * Whether a client would rather have HTML than JSON (RFC 9110 Accept with q-values). Browsers list
 * text/html; API clients and curl send JSON or `*∕*`, which keeps the contract's JSON error body.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let htmlQ = 0;
  let jsonQ = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    const t = type.trim();
    if (t === 'text/html' || t === 'application/xhtml+xml') htmlQ = Math.max(htmlQ, q);
    else if (t === 'application/json' || t.endsWith('+json')) jsonQ = Math.max(jsonQ, q);
  }
  return htmlQ > 0 && htmlQ >= jsonQ;
}

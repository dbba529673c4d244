/** Callback URLs often carry a capability token in the query; logs get origin and path only. */
export function redactUrl(href: string): string {
  try {
    const u = new URL(href);
    return `${u.origin}${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

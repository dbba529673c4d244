const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Which browser origins may call /mcp (DNS-rebinding protection). `allowed` null: the public base
 * URL's host and loopback, on any port and scheme; a list: exactly those origins. A request without
 * an Origin header is not from a browser page and passes. The Host header is never trusted here: a
 * rebinding attack controls it as well as the Origin.
 */
export function originPolicy(allowed: readonly string[] | null, publicBaseUrl: () => string | null): (origin: string | null) => boolean {
  if (allowed) {
    const exact = new Set(allowed.map(normalise).filter((o): o is string => o !== null));
    return (origin) => origin === null || exact.has(normalise(origin) ?? '');
  }
  return (origin) => {
    if (origin === null) return true;
    const host = hostname(origin);
    const base = publicBaseUrl();
    return host !== null && (LOOPBACK.has(host) || (base !== null && host === hostname(base)));
  };
}

function normalise(origin: string): string | null {
  try {
    const o = new URL(origin).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

function hostname(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

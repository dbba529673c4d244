import { OpenApiValidator } from './openapi.js';

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json<T = any>(): T;
}

/**
 * A fetch that records nothing but the facts and checks every response against the server's own
 * OpenAPI document (when the path is part of the REST surface).
 */
export function client(base: string) {
  let validator: OpenApiValidator | null = null;
  const call = async (path: string, init: RequestInit = {}): Promise<Got> => {
    const url = new URL(path, base).toString();
    const res = await fetch(url, { redirect: 'manual', ...init });
    const text = await res.text();
    const method = (init.method ?? 'GET').toUpperCase();
    if (!validator) {
      const doc = await (await fetch(new URL('/openapi.json', base))).json();
      validator = new OpenApiValidator(doc);
    }
    const pathname = new URL(url).pathname;
    const documented = !pathname.startsWith('/mcp') && res.status !== 404 && res.status !== 405 && method !== 'OPTIONS';
    if (documented) validator.validate(method, url, res.status, res.headers.get('content-type'), text);
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  };
  return { get: call, validated: () => validator?.checked ?? 0 };
}

import { request } from 'node:http';

export interface Raw {
  status: number;
  /** Name and value pairs as they came on the wire, Date left out (it is the clock's). */
  headers: [string, string][];
  body: Buffer;
}

/** One request over node:http, so nothing decodes, merges or reorders what the server wrote. */
export function raw(url: string, method: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i].toLowerCase() !== 'date') pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A header's value in a raw answer (the first of that name, any case), or undefined. */
export const headerOf = (answer: Raw, name: string): string | undefined => answer.headers.find(([n]) => n.toLowerCase() === name)?.[1];

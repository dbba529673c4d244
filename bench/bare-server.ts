// Baseline: a bare node:http server writing the same pre-built bytes with the same headers the
// interface requires (validators, caching, Link, CORS) and the same ETag check — the ceiling any framework
// can approach. Usage: node bare-server.ts ROUTES.json (a map of path to its body file, or offset and length in one)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

type Headers = Record<string, string>;
type Route = { file: string; offset?: number; length?: number; etag: string; type: string; headers: Headers };
const routes = new Map<string, { body: Buffer; etag: string; type: string; headers: Headers }>();
// A route's body is its file, or `length` bytes of it from `offset` (many bodies in one file).
const files = new Map<string, Buffer>();
for (const [path, r] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, Route>)) {
  let bytes = files.get(r.file);
  if (!bytes) files.set(r.file, (bytes = readFileSync(r.file)));
  const body = r.offset === undefined ? bytes : bytes.subarray(r.offset, r.offset + (r.length ?? bytes.length - r.offset));
  routes.set(path, { body, etag: r.etag, type: r.type, headers: r.headers });
}
const server = createServer((req, res) => {
  const r = routes.get(req.url ?? '');
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  if (req.headers['if-none-match'] === r.etag) {
    res.writeHead(304, r.headers).end();
    return;
  }
  res.writeHead(200, { ...r.headers, 'content-type': r.type, 'content-length': r.body.length }).end(r.body);
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(`listening http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleIsCurrent, EXTERNAL } from '../../scripts/bundle.js';
import { CLI, spawnServe, tempDir } from '../helpers/index.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const bundle = join(dist, 'bundle');

const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f));

test('a bundle is current until one of its inputs, or what makes it, changes or goes', () => {
  const root = tempDir();
  const dir = join(root, 'bundle');
  const id = '1700000000000-1';
  mkdirSync(join(dir, id), { recursive: true });
  const inputs = ['dist/a.js', 'node_modules/p/index.js'];
  for (const f of inputs) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  const script = join(root, 'bundle.js');
  writeFileSync(script, '');
  writeFileSync(join(dir, id, 'inputs.json'), JSON.stringify(inputs));
  writeFileSync(join(dir, 'main.js'), `import './${id}/main.js';\n`);
  const at = (f: string, seconds: number) => utimesSync(f, seconds, seconds);
  for (const f of [...inputs.map((i) => join(root, i)), script]) at(f, 1000);
  at(join(dir, 'main.js'), 2000);
  assert.equal(bundleIsCurrent(root, dir, [script]), true);
  at(join(root, inputs[1]), 3000);
  assert.equal(bundleIsCurrent(root, dir, [script]), false, 'an input changed after the build began');
  at(join(root, inputs[1]), 1000);
  at(script, 3000);
  assert.equal(bundleIsCurrent(root, dir, [script]), false, 'what makes the bundle changed');
  at(script, 1000);
  rmSync(join(root, inputs[0]));
  assert.equal(bundleIsCurrent(root, dir, [script]), false, 'an input is gone');
  writeFileSync(join(root, inputs[0]), '');
  at(join(root, inputs[0]), 1000);
  assert.equal(bundleIsCurrent(root, dir, [script]), true);
  writeFileSync(join(dir, 'main.js'), "import './chunk-X.js';\n");
  at(join(dir, 'main.js'), 2000);
  assert.equal(bundleIsCurrent(root, dir, [script]), false, 'an entry that names no build');
});

// A CommonJS package imported lazily becomes a chunk with a default export alone, and `import()` of it
// finds none of its names (undici's buildConnector was lost so): such a package stays external.
test('no chunk of the bundle is a CommonJS package that lost its named exports', () => {
  const alone = filesUnder(bundle)
    .filter((f) => f.endsWith('.js'))
    .filter((f) => /^export default require_\w+\(\);$/m.test(readFileSync(f, 'utf8')));
  assert.deepEqual(alone, []);
});

// What the bundle is for: a server that starts, loads and serves without reading the compiled modules
// one by one. Every ES module the main thread loads is recorded by a loader hook (worker threads run
// the compiled modules).
test('a bundled server loads its own chunks, not the compiled modules, and finds the files beside them', async () => {
  const dir = tempDir();
  const log = join(dir, 'loaded.txt');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module'; import { isMainThread } from 'node:worker_threads';
if (isMainThread) register(${JSON.stringify(pathToFileURL(hooks).href)});`,
  );
  const server = await spawnServe(['--port', '0', '--database-url', join(dir, 'demo.db')], { NODE_OPTIONS: `--import ${register}` });
  try {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    const home = await (await fetch(`${server.url}/`)).text();
    const css = home.match(/href="([^"]*\/assets\/site\.[0-9a-f]+\.css)"/)?.[1];
    assert.ok(css, 'the page links its stylesheet (read from dist/pages/assets/)');
    assert.equal((await fetch(new URL(css, server.url))).status, 200);
    const insights = await (await fetch(`${server.url}/insights.json`)).json();
    assert.ok(insights.aspects.length > 3, 'the taxonomies beside the compiled modules are read');
  } finally {
    await server.stop();
  }
  const loaded = readFileSync(log, 'utf8').trim().split('\n');
  const files = loaded.filter((url) => url.startsWith('file:'));
  const compiled = files.filter((url) => url.startsWith(pathToFileURL(dist).href) && !url.startsWith(pathToFileURL(bundle).href));
  assert.deepEqual(compiled, [], 'compiled modules the main thread loaded outside the bundle');
  assert.ok(files.includes(pathToFileURL(CLI).href), 'the bundle itself was loaded');
  // Only the packages left out of the bundle load as themselves (of those, a server's start loads better-sqlite3).
  const dependencies = files.filter((url) => url.includes('/node_modules/') && !EXTERNAL.some((p) => url.includes(`/node_modules/${p}/`)));
  assert.deepEqual(dependencies, [], 'dependencies the main thread loaded as ES modules outside the bundle');
  // Several hundred before the bundle (Kysely alone is 262 files); a few dozen chunks now.
  assert.ok(files.length < 60, `${files.length} files loaded`);
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TRAINED_VERTICALS } from '../../src/insights/index.js';
import { spawnCommand, tempDir } from '../helpers/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

// Every command runs on the Node that runs the tests (its directory first on PATH, so npm and the
// installed bin's `#!/usr/bin/env node` pick it too), and a native build uses that Node's own headers
// when its directory has them (the official layout: bin/node beside include/node), so nothing is downloaded.
const nodeHome = resolve(dirname(process.execPath), '..');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  ...(existsSync(join(nodeHome, 'include/node/node_version.h')) ? { npm_config_nodedir: nodeHome } : {}),
  LOG_LEVEL: 'info',
};

test('npm pack, then npm install -g of the tarball in an empty directory: serve, business set and import work', {
  timeout: 20 * 60_000,
}, async () => {
  const dir = tempDir('reviewcast-pack-');
  // `npm test` has built dist/ already; packing does not run the build again.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env });
  const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  const paths = files.map((f) => f.path);
  // Only what runs: the compiled code with its data files (the word vectors are binary, with their
  // licence beside them), the bin, and the legal texts.
  for (const p of paths)
    assert.match(
      p,
      /^(dist\/.+\.(js|json|css|txt|bin|LICENSE)|bin\/reviewcast\.js|package\.json|README\.md|LICENSE|NOTICE)$/,
      `unexpected file in the package: ${p}`,
    );
  for (const p of [
    'dist/bundle/main.js',
    'dist/insights/taxonomies/english.json',
    ...TRAINED_VERTICALS.map((v) => `dist/insights/model/${v}.bin`),
    'dist/insights/model/word-vectors.bin',
    'dist/insights/model/word-vectors.LICENSE',
    'dist/pages/assets/site.css',
    'LICENSE',
    'NOTICE',
  ])
    assert.ok(paths.includes(p), `missing ${p}`);
  // The engine loads a model's .bin; its JSON form (the training record, diffed by feature) stays in the repository.
  assert.ok(!paths.some((p) => p.startsWith('dist/insights/model/') && p.endsWith('.json')), 'a model JSON in the package');

  // A global install into a prefix of its own (not the machine's), as a self-hoster would run it. It
  // compiles better-sqlite3 for minutes: at the lowest CPU priority, so the test files running beside
  // it (replicas with 3-second claim leases, say) keep their timing.
  const prefix = join(dir, 'prefix');
  const installed = await run(
    'nice',
    [
      '-n',
      '19',
      'npm',
      'install',
      '-g',
      '--prefix',
      prefix,
      '--allow-scripts=better-sqlite3',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(dir, filename),
    ],
    {
      cwd: dir,
      env,
      timeout: 15 * 60_000,
      maxBuffer: 16 << 20,
    },
  );
  const installLog = installed.stdout + installed.stderr;
  assert.doesNotMatch(installLog, /EBADENGINE/);
  // npm lists the installed tarball's own `prepare` (it never runs it for a tarball: only git and
  // directory installs build); any dependency listed there would have an install script nobody chose.
  const unreviewed = [...installLog.matchAll(/^npm warn install-scripts\s+(\S+)@\S+ \(/gm)].map((m) => m[1]);
  assert.deepEqual(
    unreviewed.filter((name) => name !== 'reviewcast'),
    [],
    'every dependency install script is allowed on purpose',
  );
  const pkgDir = join(prefix, 'lib/node_modules/reviewcast');
  const deps = readdirSync(join(pkgDir, 'node_modules'));
  for (const dev of ['tsx', 'typescript', 'esbuild'])
    assert.ok(!deps.includes(dev), `${dev} is installed: it must stay a development tool`);
  const reviewcast = join(prefix, 'bin/reviewcast');

  // In an empty directory, `reviewcast serve` serves the demo from ./data/reviewcast.db.
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  let server = await spawnCommand(reviewcast, ['serve', '--host', '127.0.0.1', '--port', '0'], { cwd: empty, env });
  try {
    const doc = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.equal(doc.business.name, 'Brightwater Plumbing & Heating');
    assert.equal(doc.reviews.length, 2000);
    const insights = await (await fetch(`${server.url}/insights.json`)).json();
    assert.ok(insights.aspects.length > 3, 'the taxonomies shipped with the package are loaded');
    const home = await fetch(`${server.url}/`);
    assert.equal(home.status, 200);
    const css = (await home.text()).match(/href="([^"]*\/assets\/site\.[0-9a-f]+\.css)"/)?.[1];
    assert.ok(css, 'the review page links its stylesheet');
    assert.equal((await fetch(new URL(css, server.url))).status, 200, 'the page assets shipped with the package are served');
  } finally {
    await server.stop();
  }
  assert.equal(server.child.exitCode, 0);
  assert.ok(existsSync(join(empty, 'data/reviewcast.db')));

  // Another directory: an operator's own business and reviews.
  const own = join(dir, 'own');
  mkdirSync(own);
  const cli = (...args: string[]) => run(reviewcast, args, { cwd: own, env });
  await cli('demo', '--reviews', '40', '--seed', '5', '--out', 'reviews.ndjson', '--business-out', 'business.json');
  assert.match((await cli('business', 'set', 'business.json')).stdout, /business profile "Brightwater Plumbing & Heating" stored/);
  assert.match((await cli('import', 'reviews.ndjson')).stdout, /ndjson: 40 added, 0 updated, 0 unchanged, 0 invalid/);
  assert.equal(
    (await cli('--version')).stdout.trim(),
    JSON.parse((await run('npm', ['pkg', 'get', 'version'], { cwd: ROOT, env })).stdout),
  );
  server = await spawnCommand(reviewcast, ['serve', '--host', '127.0.0.1', '--port', '0'], { cwd: own, env });
  try {
    const doc = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.equal(doc.reviews.length, 40);
  } finally {
    await server.stop();
  }
});

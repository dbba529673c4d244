#!/usr/bin/env node
// Builds dist/: tsc compiles src/ (tsconfig.build.json; build mode, so a build with nothing changed takes
// a fraction of a second and `npm start` can build every time), then every non-TypeScript file under
// src/ (taxonomies, page assets, model weights, whatever comes next) is copied beside the compiled code,
// so dist/ runs on its own. Files in dist/ whose source is gone are removed, so an incremental build
// ships exactly what a clean one would. Last, the CLI is bundled into dist/bundle/ (scripts/bundle.js),
// unless the bundle there is already as its inputs are.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, bundleIsCurrent } from './bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const bundle = join(dist, 'bundle');

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const isSource = (file) => file.endsWith('.ts');
for (const file of walk(src).filter((f) => !isSource(f))) {
  const to = join(dist, relative(src, file));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
}

// A compiled file stays while its .ts exists (and is built); an asset while its source file exists.
for (const file of walk(dist).filter((f) => !f.startsWith(bundle + sep))) {
  const rel = relative(dist, file);
  const from = join(src, rel);
  const kept = existsSync(from) || (rel.endsWith('.js') && existsSync(from.replace(/\.js$/, '.ts')));
  if (!kept) rmSync(file);
}

const lock = join(root, 'node_modules/.package-lock.json');
const madeBy = [fileURLToPath(import.meta.url), join(root, 'scripts/bundle.js'), ...(existsSync(lock) ? [lock] : [])];
if (!bundleIsCurrent(root, bundle, madeBy)) await bundleCli(root, dist, bundle);

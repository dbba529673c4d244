#!/usr/bin/env node
// Builds dist/: tsc compiles src/ (tsconfig.build.json; build mode, so a build with nothing changed takes
// a fraction of a second and `npm start` can build every time), then every non-TypeScript file under
// src/ (taxonomies, page assets, model weights, whatever comes next) is copied beside the compiled code,
// so dist/ runs on its own. Files in dist/ whose source is gone are removed, so an incremental build
// ships exactly what a clean one would. Last, the CLI is bundled into dist/bundle/ (bundleCli).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
/** What tsc and the asset copy wrote: all of dist/ but the bundle made from it. */
const compiledOutputs = () => walk(dist).filter((file) => !file.startsWith(bundle + sep));
for (const file of walk(src).filter((f) => !isSource(f))) {
  const to = join(dist, relative(src, file));
  const { atime, mtime } = statSync(file);
  // Copied with its source's time, and only when that changed: the bundle is rebuilt by times (bundleCli).
  if (existsSync(to) && statSync(to).mtimeMs === mtime.getTime()) continue;
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
  utimesSync(to, atime, mtime);
}

// A compiled file stays while its .ts exists (and is built); an asset while its source file exists.
for (const file of compiledOutputs()) {
  const rel = relative(dist, file);
  const from = join(src, rel);
  const kept = existsSync(from) || (rel.endsWith('.js') && existsSync(from.replace(/\.js$/, '.ts')));
  if (!kept) rmSync(file);
}

await bundleCli();

/**
 * The CLI and everything it imports, bar the two packages named below, in one ES module and the chunks
 * its lazily loaded commands split into: a start loads a few files instead of about 800 (Kysely alone
 * is 262), which is a quarter of a second of a restart. Each compiled file's `import.meta.url` is
 * rewritten to that file's own URL, so what it reads beside itself (taxonomies, weights, page assets)
 * and the worker threads it starts (which run the compiled files, not the bundle) are where they were.
 * Rebuilt only when a compiled module is newer than the bundle (tsc -b leaves unchanged outputs alone;
 * assets are read from dist/ at run time, so they are not in it).
 */
async function bundleCli() {
  const entry = join(bundle, 'main.js');
  const newest = Math.max(
    ...compiledOutputs()
      .filter((f) => f.endsWith('.js'))
      .map((f) => statSync(f).mtimeMs),
  );
  if (existsSync(entry) && statSync(entry).mtimeMs >= newest) return;
  // Written beside and then swapped in: a CLI started meanwhile (a test, a server) never reads a half-written bundle.
  const next = `${bundle}.next`;
  rmSync(next, { recursive: true, force: true });
  await build({
    entryPoints: [join(dist, 'cli/main.js')],
    outdir: next,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // better-sqlite3 loads a native add-on from its own folder. undici is imported lazily (outbound.ts), and a
    // CommonJS package split into a chunk of its own keeps only its default export: it loads as Node loads it.
    external: ['better-sqlite3', 'pg-native', 'undici'],
    // CommonJS packages inside an ES module bundle call require (esbuild's __require).
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.js$/ }, (args) => {
            if (!args.path.startsWith(dist + sep)) return undefined;
            const own = JSON.stringify(`./${relative(next, args.path).split(sep).join('/')}`);
            const text = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`);
            return { contents: text, loader: 'js' };
          });
        },
      },
    ],
  });
  rmSync(bundle, { recursive: true, force: true });
  renameSync(next, bundle);
}

// The CLI bundled (esbuild): `dist/cli/main.js` and everything it imports but the packages named in
// EXTERNAL, in one ES module and the chunks its lazily loaded commands split into. A start then loads
// a few dozen files instead of about 800 (Kysely alone is 262), a quarter of a second of a restart.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/**
 * Left as they are: better-sqlite3 loads a native add-on from its own folder; pg-native is optional and
 * absent; undici is imported lazily (websub/outbound.ts), and a CommonJS package split into a chunk of
 * its own keeps only its default export. (pino's transports, unused, would need __dirname, which an ES
 * module bundle has not: a transport means leaving pino out too.)
 */
export const EXTERNAL = ['better-sqlite3', 'pg-native', 'undici'];
/** What each build writes beside its chunks: the files it was built from, relative to the package root. */
const INPUTS = 'inputs.json';
const ENTRY = 'main.js';

/** The build a bundle folder's entry points at (`import './ID/main.js'`), or null when there is none. */
function currentBuild(bundle) {
  const entry = join(bundle, ENTRY);
  if (!existsSync(entry)) return null;
  return /^import '\.\/(\d+-\d+)\/main\.js';$/m.exec(readFileSync(entry, 'utf8'))?.[1] ?? null;
}

/**
 * Whether the bundle in `bundle` is as its inputs are: none changed since its build began, and none is
 * gone. `alsoFrom` are files that change what a build makes without being inputs (this script, the
 * installed packages' lock: npm extracts every file with one fixed date, so a package's files do not say
 * when it was updated).
 */
export function bundleIsCurrent(root, bundle, alsoFrom = []) {
  const id = currentBuild(bundle);
  if (!id || !existsSync(join(bundle, id, INPUTS))) return false;
  const began = statSync(join(bundle, ENTRY)).mtimeMs;
  const inputs = JSON.parse(readFileSync(join(bundle, id, INPUTS), 'utf8')).map((f) => resolve(root, f));
  return [...inputs, ...alsoFrom].every((f) => existsSync(f) && statSync(f).mtimeMs <= began);
}

/**
 * Bundles `dist/cli/main.js` into a new folder `bundle/ID/` and then points `bundle/main.js` at it (a
 * rename, so a CLI started meanwhile runs one build or the other, whole). Each compiled file's
 * `import.meta.url` becomes that file's own URL, so what it reads beside itself (taxonomies, weights,
 * page assets) and the worker threads it starts (which run the compiled files) are where they were.
 * A command still running from an earlier build loads its lazy chunks from that build, which is gone:
 * as with tsc's own outputs, rebuilding under a running command is for development only.
 */
export async function bundleCli(root, dist, bundle) {
  const began = new Date();
  const id = `${began.getTime()}-${process.pid}`;
  const outdir = join(bundle, id);
  // Loaded only for a build: every `npm start` checks the bundle, and loading esbuild is about 60 ms of a no-op build.
  const { build } = await import('esbuild');
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [join(dist, 'cli', ENTRY)],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    metafile: true,
    // CommonJS packages inside an ES module bundle call require (esbuild's __require).
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.js$/ }, (args) => {
            if (!args.path.startsWith(dist + sep)) return undefined;
            const own = JSON.stringify(`./${relative(outdir, args.path).split(sep).join('/')}`);
            const text = readFileSync(args.path, 'utf8').replace(/\bimport\.meta\.url\b/g, `new URL(${own}, import.meta.url).href`);
            return { contents: text, loader: 'js' };
          });
        },
      },
    ],
  });
  writeFileSync(join(outdir, INPUTS), JSON.stringify(Object.keys(metafile.inputs)));
  const entry = join(bundle, ENTRY);
  writeFileSync(
    `${entry}.${id}`,
    `// The CLI as bundled by scripts/bundle.js; ./${id}/${INPUTS} lists what it was built from.\nimport './${id}/main.js';\n`,
  );
  // Dated when the build began: a file changed while it ran is newer, and makes the next build.
  utimesSync(`${entry}.${id}`, began, began);
  renameSync(`${entry}.${id}`, entry);
  // Earlier builds go, whatever their layout (a build begun later, still running, stays): the package holds one.
  for (const name of readdirSync(bundle)) {
    const later = name.startsWith(`${ENTRY}.`) || Number(/^(\d+)-\d+$/.exec(name)?.[1]) > began.getTime();
    if (name !== id && name !== ENTRY && !later) rmSync(join(bundle, name), { recursive: true, force: true });
  }
}

// npm run assemble:absa -- --vertical NAME --set NAME [--out PATH] BATCH.xml...
// Assembles writers' batch files (each named after the prefix of its ids: hss-a.xml holds hss-a-001, …) into one
// set of the project, data/absa/<vertical>/<set>.xml unless --out says otherwise. Every batch is validated against
// the vertical's aspect ids first (the first fault stops it, naming batch, id and reason); then a sentence that shares
// half its words with any sentence under data/absa/, or with one kept before it, is left out. Prints counts only,
// never a sentence, so reading its report tells nothing of a held-out set's wording. Refuses to write over a file a
// model trains on.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { assembleSet } from './assembly.js';
import { parseSemEvalXml, semEvalXml } from './semeval.js';
import { CONFIGS, ROOT, taxonomyAspects, trainedPaths } from './trainer.js';

const USAGE = 'usage: npm run assemble:absa -- --vertical NAME --set NAME [--out PATH] BATCH.xml...\n';

function parseArgs(argv: string[]): { vertical: string; set: string; out: string; batches: string[] } | null {
  const batches: string[] = [];
  let vertical: string | undefined;
  let set: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--vertical') vertical = argv[++i];
    else if (a === '--set') set = argv[++i];
    else if (a === '--out') out = argv[++i];
    else if (a.startsWith('--')) return null;
    else batches.push(a);
  }
  if (!vertical || !(vertical in CONFIGS) || !set || !/^[a-z0-9_-]+$/.test(set) || batches.length === 0) return null;
  return { vertical, set, out: resolve(out ?? `${ROOT}data/absa/${vertical}/${set}.xml`), batches };
}

/** Every labelled sentence under data/absa/ (all verticals, MAMS-ACSA included) but the file being written. */
function projectSentences(except: string) {
  const root = `${ROOT}data/absa`;
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(`${root}/${d.name}`).map((f) => resolve(root, d.name, f)))
    .filter((path) => path.endsWith('.xml') && path !== except)
    .flatMap((path) => parseSemEvalXml(readFileSync(path, 'utf8')));
}

function main(argv: string[]): number {
  const args = parseArgs(argv.filter((a) => a !== '--'));
  if (!args) {
    process.stderr.write(`${USAGE}verticals: ${Object.keys(CONFIGS).join(', ')}\n`);
    return 2;
  }
  const trained = new Set(Object.values(CONFIGS).flatMap((c) => trainedPaths(c).map((p) => resolve(ROOT, p))));
  if (trained.has(args.out)) {
    process.stderr.write(`${args.out} trains a model: a new set is written to a file of its own\n`);
    return 2;
  }
  const { aspects, defaultAspect } = taxonomyAspects(args.vertical);
  const read = (path: string) => {
    try {
      return { name: basename(path, '.xml'), sentences: parseSemEvalXml(readFileSync(path, 'utf8')) };
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`);
    }
  };
  let assembled: ReturnType<typeof assembleSet>;
  try {
    const batches = args.batches.map(read);
    assembled = assembleSet(batches, new Set(defaultAspect ? [...aspects, defaultAspect] : aspects), projectSentences(args.out));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nnothing written\n`);
    return 1;
  }
  for (const b of assembled.batches) process.stdout.write(`${b.name}: ${b.written} sentences, ${b.leftOut} left out as near twins\n`);
  const { kept } = assembled;
  const labels = kept.flatMap((s) => s.categories);
  const polarity = ['positive', 'negative', 'neutral', 'conflict'].map((p) => `${p} ${labels.filter((c) => c.polarity === p).length}`);
  writeFileSync(args.out, semEvalXml(kept, { vertical: args.vertical, split: args.set }));
  process.stdout.write(
    `${args.vertical} ${args.set}: ${kept.length} sentences kept (${kept.filter((s) => s.categories.length === 0).length} with no aspect), ${labels.length} labels (${polarity.join(', ')}); wrote ${args.out}\n`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));

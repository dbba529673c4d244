// npm run assemble:absa -- --vertical NAME --set NAME [--out PATH] [--replace] BATCH.xml...
// Assembles writers' batch files (each named after the prefix of its ids: hss-a.xml holds hss-a-001, …) into one
// set of the project, data/absa/<vertical>/<set>.xml unless --out says otherwise (paths are read from the repository
// root, where npm runs scripts). Every batch is validated first (the first fault stops it, naming batch, id and
// reason; a batch's root must name the vertical); then a sentence that shares half its words with any sentence under data/absa/, or with one kept before it,
// is left out. Prints counts only, never a sentence, so reading its report tells nothing of a held-out set's wording.
// Never writes over a file a model trains on, nor over another existing file without --replace.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { POLARITIES } from '../../src/domain/index.js';
import { parseArgsOrNull } from './args.js';
import { type Assembled, assembleSet } from './assembly.js';
import { parseBatchXml, parseSemEvalXml, semEvalXml } from './semeval.js';
import { CONFIGS, labelAspects, ROOT } from './trainer.js';
import { realPath, refuseWrites } from './write-guard.js';

const USAGE = 'usage: npm run assemble:absa -- --vertical NAME --set NAME [--out PATH] [--replace] BATCH.xml...\n';

interface Args {
  vertical: string;
  set: string;
  out: string;
  replace: boolean;
  batches: string[];
}

/** The command's arguments, or null for the usage line: an unknown option, one without its value, a missing one. */
function readArgs(args: string[]): Args | null {
  const parsed = parseArgsOrNull({
    args,
    allowPositionals: true,
    options: { vertical: { type: 'string' }, set: { type: 'string' }, out: { type: 'string' }, replace: { type: 'boolean' } },
  });
  if (!parsed) return null;
  const { vertical, set, out, replace = false } = parsed.values;
  const batches = parsed.positionals;
  if (!vertical || !Object.hasOwn(CONFIGS, vertical) || !set || !/^[a-z0-9_-]+$/.test(set) || batches.length === 0) return null;
  return { vertical, set, out: resolve(out ?? `${ROOT}data/absa/${vertical}/${set}.xml`), replace, batches };
}

/** Every labelled sentence under data/absa/ (all verticals, MAMS-ACSA included) but the file being written. */
function projectSentences(except: string) {
  const root = `${ROOT}data/absa`;
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(`${root}/${d.name}`).map((f) => realPath(resolve(root, d.name, f))))
    .filter((path) => path.endsWith('.xml') && path !== except)
    .flatMap((path) => parseSemEvalXml(readFileSync(path, 'utf8')));
}

function main(argv: string[]): number {
  const args = readArgs(argv);
  if (!args) {
    process.stderr.write(`${USAGE}verticals: ${Object.keys(CONFIGS).join(', ')}\n`);
    return 2;
  }
  if (!existsSync(dirname(args.out))) {
    process.stderr.write(`${args.out}: its folder does not exist\n`);
    return 2;
  }
  const out = realPath(args.out);
  const refusal = refuseWrites([out], args.replace);
  if (refusal !== null) {
    process.stderr.write(`${refusal}\n`);
    return 2;
  }
  const read = (path: string) => {
    try {
      return { name: basename(path, '.xml'), sentences: parseBatchXml(readFileSync(path, 'utf8'), args.vertical) };
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`);
    }
  };
  let assembled: Assembled;
  try {
    const batches = args.batches.map(read);
    assembled = assembleSet(batches, labelAspects(args.vertical), projectSentences(out));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nnothing written\n`);
    return 1;
  }
  for (const b of assembled.batches) process.stdout.write(`${b.name}: ${b.written} sentences, ${b.leftOut} left out as near twins\n`);
  const { kept } = assembled;
  const labels = kept.flatMap((s) => s.categories);
  const polarity = POLARITIES.map((p) => `${p} ${labels.filter((c) => c.polarity === p).length}`);
  writeFileSync(out, semEvalXml(kept, { vertical: args.vertical, split: args.set }));
  process.stdout.write(
    `${args.vertical} ${args.set}: ${kept.length} sentences kept (${kept.filter((s) => s.categories.length === 0).length} with no aspect), ${labels.length} labels (${polarity.join(', ')}); wrote ${out}\n`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));

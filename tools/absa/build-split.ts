// npm run split:absa -- VERTICAL --staging DIR [--extra DIR]... [--test FILE] [--out DIR] [--replace]
// A vertical's first train and dev sets (and test) from writers' batch files (tools/absa/split.ts):
//   <staging>/<vertical>/batch-NN.xml   split into train and dev by a hash of each id (about 30 % dev)
//   --extra DIR: DIR/batch-NN.xml       later batches, all to train (so dev stays as it was)
//   --test FILE                         an independent held-out file from another writer, written as test.xml; its
//                                       sentences are never printed (only counts and ids)
// Every file's root must name the vertical (<sentences vertical="...">). Paths are read from the repository root,
// where npm runs scripts.
// Writes <out>/<vertical>/train.xml, dev.xml (and test.xml); out defaults to data/absa. Prints sentences per split
// and labels per aspect and polarity. Writes nothing if any batch is faulty, nor over existing sets without --replace.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { POLARITIES } from '../../src/domain/index.js';
import { parseArgsOrNull } from './args.js';
import { parseBatchXml, semEvalXml } from './semeval.js';
import { buildSplits, type SplitName, type SplitSource } from './split.js';
import { CONFIGS, labelAspects, ROOT } from './trainer.js';
import { refuseWrites } from './write-guard.js';

const USAGE = 'usage: npm run split:absa -- VERTICAL --staging DIR [--extra DIR]... [--test FILE] [--out DIR] [--replace]\n';

interface Args {
  vertical: string;
  staging: string;
  extra: string[];
  test: string | null;
  out: string;
  replace: boolean;
}

/** The command's arguments, or null for the usage line: an unknown option, one without its value, a missing one. */
function readArgs(args: string[]): Args | null {
  const parsed = parseArgsOrNull({
    args,
    allowPositionals: true,
    options: {
      staging: { type: 'string' },
      extra: { type: 'string', multiple: true },
      test: { type: 'string' },
      out: { type: 'string' },
      replace: { type: 'boolean' },
    },
  });
  if (!parsed) return null;
  const { staging, extra = [], test, out, replace = false } = parsed.values;
  const [vertical, ...more] = parsed.positionals;
  // Any vertical with a taxonomy can be split, not only those with training data yet.
  if (
    more.length > 0 ||
    !staging ||
    !/^[a-z_]+$/.test(vertical ?? '') ||
    !existsSync(resolve(ROOT, `src/insights/taxonomies/${vertical}.json`))
  )
    return null;
  return {
    vertical,
    staging: resolve(staging),
    extra: extra.map((dir) => resolve(dir)),
    test: test === undefined ? null : resolve(test),
    out: resolve(out ?? `${ROOT}data/absa`),
    replace,
  };
}

function batchFiles(dir: string): string[] {
  const files = readdirSync(dir)
    .filter((f) => /^batch-\d+\.xml$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (files.length === 0) throw new Error(`no batch-NN.xml files in ${dir}`);
  return files.map((f) => join(dir, f));
}

/** Labels per aspect and polarity in each split, and the share of sentences with no aspect or several. */
function report(aspects: string[], splits: Record<SplitName, { categories: { category: string; polarity: string }[] }[]>): string {
  const named = (Object.keys(splits) as SplitName[]).filter((n) => n !== 'test' || splits.test.length > 0);
  const pct = (n: number, d: number) => `${d === 0 ? '0.0' : ((100 * n) / d).toFixed(1)} %`;
  const lines = named.map((n) => {
    const list = splits[n];
    const none = list.filter((s) => s.categories.length === 0).length;
    const several = list.filter((s) => s.categories.length > 1).length;
    return `${n.padEnd(5)} ${String(list.length).padStart(5)} sentences; no aspect ${pct(none, list.length)}, several ${pct(several, list.length)}`;
  });
  const cells = (aspect: string | null) =>
    named
      .map((n) => {
        const labels = splits[n].flatMap((s) => s.categories).filter((c) => aspect === null || c.category === aspect);
        return POLARITIES.map((p) => String(labels.filter((c) => c.polarity === p).length).padStart(5)).join('');
      })
      .join(' |');
  lines.push('', `${'labels'.padEnd(20)}${named.map((n) => n.padStart(20)).join(' |')}`);
  lines.push(`${''.padEnd(20)}${named.map(() => POLARITIES.map((p) => p.slice(0, 3).padStart(5)).join('')).join(' |')}`);
  for (const a of [...aspects, null]) lines.push(`${(a ?? 'all').padEnd(20)}${cells(a)}`);
  return lines.join('\n');
}

function main(argv: string[]): number {
  const args = readArgs(argv);
  if (!args) {
    process.stderr.write(`${USAGE}verticals with a taxonomy; with training data now: ${Object.keys(CONFIGS).join(', ')}\n`);
    return 2;
  }
  const outDir = join(args.out, args.vertical);
  const names: SplitName[] = ['train', 'dev', ...(args.test ? (['test'] as const) : [])];
  const refusal = refuseWrites(
    names.map((n) => join(outDir, `${n}.xml`)),
    args.replace,
  );
  if (refusal !== null) {
    process.stderr.write(`${refusal}\n`);
    return 2;
  }
  const aspects = labelAspects(args.vertical);
  const errors: string[] = [];
  const sources: SplitSource[] = [];
  const read = (file: string, split: SplitSource['split']) => {
    try {
      sources.push({ file, split, sentences: parseBatchXml(readFileSync(file, 'utf8'), args.vertical) });
    } catch (e) {
      errors.push(`${file}: ${(e as Error).message}`);
    }
  };
  try {
    for (const file of batchFiles(join(args.staging, args.vertical))) read(file, null);
    for (const dir of args.extra) for (const file of batchFiles(dir)) read(file, 'train');
  } catch (e) {
    errors.push((e as Error).message);
  }
  if (args.test) read(args.test, 'test');
  const built = buildSplits(sources, aspects);
  errors.push(...built.errors);
  if (errors.length > 0) {
    process.stderr.write(`${errors.length} problem(s), nothing written:\n${errors.join('\n')}\n`);
    return 1;
  }
  if (built.leaked.length > 0)
    process.stdout.write(
      `left out of test.xml, text already in train or dev: ${built.leaked.map((l) => `${l.id} (= ${l.twin})`).join(', ')}\n`,
    );
  mkdirSync(outDir, { recursive: true });
  for (const n of names) writeFileSync(join(outDir, `${n}.xml`), semEvalXml(built.splits[n], { vertical: args.vertical, split: n }));
  process.stdout.write(`read ${sources.length} batch files; wrote ${names.map((n) => join(outDir, `${n}.xml`)).join(', ')}\n\n`);
  process.stdout.write(`${report([...aspects], built.splits)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));

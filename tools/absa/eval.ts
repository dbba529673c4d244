// npm run eval:absa -- [--vertical NAME] PATH.xml... [--errors N] [--split even|odd] [--json]
// Scores the shipped engine of one vertical (default restaurant) on any file in the SemEval-2014 Task 4 XML
// shape: category detection P/R/F1, polarity accuracy with the gold categories given, per-category figures
// and the polarity confusion matrix. Several files are scored as one set (pooled micro figures). With --vertical restaurant, MAMS-ACSA's categories are mapped onto
// SemEval's. --errors N lists N sentences the engine got wrong; --split even|odd keeps the sentences whose
// numeric id is even (or odd); --json prints the figures as JSON instead of tables.
// Under npm run, paths are read from the repository root.
import { existsSync, readFileSync } from 'node:fs';
import { POLARITIES } from '../../src/domain/index.js';
import { createAnalyzer, ENGINE_VERSION, VERTICALS } from '../../src/insights/index.js';
import { parseArgsOrNull } from './args.js';
import { type EvalResult, evaluate, type GoldSentence, mapCategories, parseSemEvalXml, predict } from './semeval.js';

const USAGE = 'usage: npm run eval:absa -- [--vertical NAME] PATH.xml... [--errors N] [--split even|odd] [--json]\n';

/** The arguments, or null for usage: an unknown option or vertical, a bad --errors or --split, no file. */
function readArgs(args: string[]) {
  const parsed = parseArgsOrNull({
    args,
    allowPositionals: true,
    options: {
      vertical: { type: 'string', default: 'restaurant' },
      errors: { type: 'string', default: '0' },
      split: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!parsed) return null;
  const { vertical, errors, split, json } = parsed.values;
  const paths = parsed.positionals;
  if (paths.length === 0 || !(VERTICALS as readonly string[]).includes(vertical) || !/^\d+$/.test(errors)) return null;
  if (split !== undefined && split !== 'even' && split !== 'odd') return null;
  return { paths, vertical, errors: Number(errors), split, json };
}

function idNumber(id: string): number {
  const digits = id.match(/\d+/g);
  return digits ? Number(digits[digits.length - 1]) : 0;
}

function main(argv: string[]): number {
  const args = readArgs(argv);
  if (!args) {
    process.stderr.write(`${USAGE}verticals: ${VERTICALS.join(', ')}\n`);
    return 2;
  }
  const missing = args.paths.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    process.stderr.write(`no such file: ${missing.join(', ')}\n${USAGE}`);
    return 2;
  }
  const files = args.paths.map((path) => mapCategories(parseSemEvalXml(readFileSync(path, 'utf8')), args.vertical));
  const all = files.flatMap((f) => f.sentences);
  const mapped = files.some((f) => f.mapped);
  const gold = args.split === undefined ? all : all.filter((s) => idNumber(s.id) % 2 === (args.split === 'even' ? 0 : 1));
  const analyzer = createAnalyzer({ vertical: args.vertical, technicians: [], services: [], serviceAreas: [] });
  const errors: string[] = [];
  const started = performance.now();
  const result = evaluate(gold, (s: GoldSentence) => {
    const p = predict(analyzer, s);
    if (errors.length < args.errors) {
      const goldText = s.categories
        .map((c) => `${c.category}:${c.polarity}`)
        .sort()
        .join(' ');
      const predText = [...p.categories]
        .map((c) => `${c}:${p.polarityOf(c)}`)
        .sort()
        .join(' ');
      const polText = s.categories
        .map((c) => `${c.category}:${p.polarityOf(c.category)}`)
        .sort()
        .join(' ');
      if (goldText !== predText) errors.push(`${s.id} ${s.text}\n   gold: ${goldText}\n   pred: ${predText}\n   pol:  ${polText}`);
    }
    return p;
  });
  const seconds = (performance.now() - started) / 1000;
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ engine: ENGINE_VERSION, vertical: args.vertical, file: args.paths.length === 1 ? args.paths[0] : null, files: args.paths, split: args.split ?? null, mapped, ...result })}\n`,
    );
    return 0;
  }
  const head = [
    `engine            ${ENGINE_VERSION} (vertical: ${args.vertical})`,
    `${(args.paths.length > 1 ? 'files (pooled)' : 'file').padEnd(17)} ${args.paths.join(' ')}${args.split ? ` (${args.split} ids)` : ''}${mapped ? " (MAMS categories mapped to SemEval's)" : ''}`,
    `sentences         ${result.sentences} (${Math.round(result.sentences / seconds)} sentences/s)`,
    '',
  ];
  process.stdout.write(`${[...head, ...report(result)].join('\n')}\n`);
  if (errors.length > 0) process.stdout.write(`\nerrors:\n${errors.join('\n')}\n`);
  return 0;
}

function report(result: EvalResult): string[] {
  const pct = (x: number) => (x * 100).toFixed(2);
  return [
    'aspect-category detection (micro, per-sentence sets)',
    `  precision       ${pct(result.precision)}`,
    `  recall          ${pct(result.recall)}`,
    `  F1              ${pct(result.f1)}`,
    '',
    `category polarity accuracy (gold categories given, ${result.polarityTotal} categories)`,
    `  accuracy        ${pct(result.polarityAccuracy)}`,
    '',
    'per category                 tp     fp     fn      P      R      F1',
    ...Object.entries(result.perCategory)
      .sort()
      .map(([c, { tp, fp, fn }]) => {
        const p = tp / Math.max(1, tp + fp);
        const r = tp / Math.max(1, tp + fn);
        const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
        return `  ${c.padEnd(26)}${String(tp).padStart(5)}${String(fp).padStart(7)}${String(fn).padStart(7)}  ${pct(p).padStart(6)} ${pct(r).padStart(6)} ${pct(f).padStart(6)}`;
      }),
    '',
    'polarity confusion (rows gold, columns predicted)',
    `  ${''.padEnd(10)}${POLARITIES.map((c) => c.padStart(10)).join('')}`,
    ...POLARITIES.map((g) => `  ${g.padEnd(10)}${POLARITIES.map((p) => String(result.confusion[g]?.[p] ?? 0).padStart(10)).join('')}`),
  ];
}

process.exitCode = main(process.argv.slice(2));

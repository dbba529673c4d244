// npm run eval:semeval -- PATH.xml [--errors N] [--split even|odd]
// Prints category detection P/R/F1 and category polarity accuracy of the shipped `restaurant` vertical.
// --errors N also lists N misclassified sentences, for looking at what the lexicons miss.
// --split even|odd keeps only the sentences whose numeric id is even (or odd): read errors on one half,
// check that a change also helps the other.
import { readFileSync } from 'node:fs';
import { createAnalyzer } from '../analyzer.js';
import { ENGINE_VERSION } from '../version.js';
import { evaluate, parseSemEvalXml, predict, type GoldSentence } from './semeval.js';

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== '--');
  const path = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a) && a !== 'even' && a !== 'odd');
  const errorsAt = args.indexOf('--errors');
  const showErrors = errorsAt >= 0 ? Number(args[errorsAt + 1] ?? 20) : 0;
  const splitAt = args.indexOf('--split');
  const split = splitAt >= 0 ? args[splitAt + 1] : undefined;
  if (!path || (splitAt >= 0 && split !== 'even' && split !== 'odd')) {
    process.stderr.write('usage: npm run eval:semeval -- PATH.xml [--errors N] [--split even|odd]\n');
    return 2;
  }
  const all = parseSemEvalXml(readFileSync(path, 'utf8'));
  const gold = split === undefined ? all : all.filter((s) => Number.parseInt(s.id, 10) % 2 === (split === 'even' ? 0 : 1));
  const analyzer = createAnalyzer({ vertical: 'restaurant', technicians: [], services: [], serviceAreas: [] });
  const errors: string[] = [];
  const started = performance.now();
  const result = evaluate(gold, (s: GoldSentence) => {
    const p = predict(analyzer, s);
    if (errors.length < showErrors) {
      const goldText = s.categories.map((c) => `${c.category}:${c.polarity}`).sort().join(' ');
      const predText = [...p.categories].map((c) => `${c}:${p.polarityOf(c)}`).sort().join(' ');
      const polText = s.categories.map((c) => `${c.category}:${p.polarityOf(c.category)}`).sort().join(' ');
      if (goldText !== predText) errors.push(`${s.text}\n   gold: ${goldText}\n   pred: ${predText}\n   pol:  ${polText}`);
    }
    return p;
  });
  const seconds = (performance.now() - started) / 1000;

  const pct = (x: number) => (x * 100).toFixed(2);
  const lines = [
    `engine            ${ENGINE_VERSION} (vertical: restaurant)`,
    `file              ${path}${split ? ` (${split} ids)` : ''}`,
    `sentences         ${result.sentences} (${Math.round(result.sentences / seconds)} sentences/s)`,
    '',
    'aspect-category detection (micro, per-sentence sets)',
    `  precision       ${pct(result.precision)}`,
    `  recall          ${pct(result.recall)}`,
    `  F1              ${pct(result.f1)}`,
    '',
    `category polarity accuracy (gold categories given, ${result.polarityTotal} categories)`,
    `  accuracy        ${pct(result.polarityAccuracy)}`,
    '',
    'per category           tp     fp     fn      P      R      F1',
    ...Object.entries(result.perCategory).sort().map(([c, { tp, fp, fn }]) => {
      const p = tp / Math.max(1, tp + fp);
      const r = tp / Math.max(1, tp + fn);
      const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
      return `  ${c.padEnd(22)}${String(tp).padStart(5)}${String(fp).padStart(7)}${String(fn).padStart(7)}  ${pct(p).padStart(6)} ${pct(r).padStart(6)} ${pct(f).padStart(6)}`;
    }),
    '',
    'polarity confusion (rows gold, columns predicted)',
    `  ${''.padEnd(10)}${['positive', 'negative', 'neutral', 'conflict'].map((c) => c.padStart(10)).join('')}`,
    ...['positive', 'negative', 'neutral', 'conflict'].map((g) =>
      `  ${g.padEnd(10)}${['positive', 'negative', 'neutral', 'conflict'].map((p) => String(result.confusion[g]?.[p] ?? 0).padStart(10)).join('')}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (errors.length > 0) process.stdout.write(`\nerrors:\n${errors.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));

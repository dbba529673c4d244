// npm run train:absa [-- --vertical NAME]... [--check]
// Trains each vertical's model from the labelled data vendored in data/absa/ and writes
// src/insights/model/<vertical>.json. Same data, lexicons and seed give the same bytes. --check writes
// nothing: it retrains and fails if any shipped file differs from what training gives now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modelUrl } from '../../src/insights/index.js';
import { CONFIGS, loadTraining, prepare, serializeModel, trainModel } from './trainer.js';

/** What a model was trained on: its own sentences, and those that train its polarity model only (MAMS for restaurants). */
const trainedOn = (own: unknown[], pooled: unknown[]) =>
  `${own.length} sentences${pooled.length > 0 ? `, ${pooled.length} more for polarity` : ''}`;

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const named = argv.flatMap((a, i) => (argv[i - 1] === '--vertical' ? [a] : []));
  const unknown = named.filter((v) => !(v in CONFIGS));
  if (unknown.length > 0) {
    process.stderr.write(
      `usage: npm run train:absa -- [--vertical NAME]... [--check]\nverticals with training data: ${Object.keys(CONFIGS).join(', ')}\n`,
    );
    return 2;
  }
  let failed = 0;
  for (const vertical of named.length > 0 ? named : Object.keys(CONFIGS)) {
    const config = CONFIGS[vertical];
    const started = performance.now();
    const { sentences, extra, files } = loadTraining(config);
    const text = serializeModel(trainModel(config, prepare(vertical, sentences), extra, files));
    const path = fileURLToPath(modelUrl(vertical));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (check) {
      let shipped = '';
      try {
        shipped = readFileSync(path, 'utf8');
      } catch {
        // A missing file differs like any other.
      }
      const same = shipped === text;
      if (!same) failed++;
      process.stdout.write(
        `${vertical}: ${same ? 'shipped model reproduced byte for byte' : 'DIFFERS from the shipped model'} (${trainedOn(sentences, extra)}, ${seconds} s)\n`,
      );
    } else {
      writeFileSync(path, text);
      process.stdout.write(`${vertical}: wrote ${path} (${trainedOn(sentences, extra)}, ${text.length} bytes, ${seconds} s)\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2).filter((a) => a !== '--'));

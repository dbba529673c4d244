// npm run train:absa [-- --vertical NAME]... [--check]
// Trains each vertical's model from the labelled data vendored in data/absa/ and writes
// src/insights/model/<vertical>.json. Same data, lexicons and seed give the same bytes. --check writes
// nothing: it retrains and fails if any shipped file differs from what training gives now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modelUrl } from '../../src/insights/index.js';
import { CONFIGS, loadTraining, prepare, serializeModel, type Training, trainModel } from './trainer.js';

/**
 * What a model was trained on: its own sentences, those that train its polarity model only (the other vertical's,
 * MAMS for restaurants) and those that train its category model only.
 */
const trainedOn = ({ sentences, polarityOnly, categoryOnly }: Training) =>
  `${sentences.length} sentences${polarityOnly.length > 0 ? `, ${polarityOnly.length} more for polarity` : ''}${categoryOnly.length > 0 ? `, ${categoryOnly.length} more for categories` : ''}`;

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
    const training = loadTraining(config);
    const text = serializeModel(trainModel(config, prepare(vertical, training.sentences), training));
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
        `${vertical}: ${same ? 'shipped model reproduced byte for byte' : 'DIFFERS from the shipped model'} (${trainedOn(training)}, ${seconds} s)\n`,
      );
    } else {
      writeFileSync(path, text);
      process.stdout.write(`${vertical}: wrote ${path} (${trainedOn(training)}, ${text.length} bytes, ${seconds} s)\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2).filter((a) => a !== '--'));

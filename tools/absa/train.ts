// npm run train:absa [-- --vertical NAME]... [--check]
// Trains each vertical's model from the labelled data vendored in data/absa/ and writes
// src/insights/model/<vertical>.json, and beside it <vertical>.bin, the same model in the form the engine
// loads. Same data, lexicons and seed give the same bytes. --check writes nothing: it retrains and fails if
// any shipped file differs from what training gives now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeModel, modelUrl, modelWeightsUrl } from '../../src/insights/index.js';
import { CONFIGS, loadTraining, prepare, serializeModel, type Training, trainModel } from './trainer.js';

/**
 * What a model was trained on: its own sentences, those that train its polarity model only (the other vertical's,
 * MAMS for restaurants) and those that train its category model only.
 */
const trainedOn = ({ sentences, polarityOnly, categoryOnly }: Training) =>
  `${sentences.length} sentences${polarityOnly.length > 0 ? `, ${polarityOnly.length} more for polarity` : ''}${categoryOnly.length > 0 ? `, ${categoryOnly.length} more for categories` : ''}`;

/** A shipped file's bytes; none when it is missing (which differs like any other). */
function shippedBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}

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
    const model = trainModel(config, prepare(vertical, training.sentences), training);
    const files = [
      { path: fileURLToPath(modelUrl(vertical)), bytes: Buffer.from(serializeModel(model)) },
      { path: fileURLToPath(modelWeightsUrl(vertical)), bytes: encodeModel(model) },
    ];
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (check) {
      const differing = files.filter(({ path, bytes }) => !bytes.equals(shippedBytes(path)));
      failed += differing.length;
      process.stdout.write(
        `${vertical}: ${differing.length === 0 ? 'shipped model reproduced byte for byte' : `DIFFERS from the shipped model (${differing.map((f) => f.path).join(', ')})`} (${trainedOn(training)}, ${seconds} s)\n`,
      );
    } else {
      for (const { path, bytes } of files) writeFileSync(path, bytes);
      process.stdout.write(
        `${vertical}: wrote ${files.map((f) => `${f.path} (${f.bytes.length} bytes)`).join(' and ')} (${trainedOn(training)}, ${seconds} s)\n`,
      );
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2).filter((a) => a !== '--'));

// The shipped weights: each model file names the data it was trained on (sha256 of every file, the lexicons
// its features read, the engine version), and training again from the project's own data gives the same bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ENGINE_VERSION, ModelFile, modelUrl } from '../../src/insights/index.js';
import {
  CONFIGS,
  DEFAULT_CATEGORY,
  DEFAULT_POLARITY,
  DEFAULT_TRAIN,
  lexiconDigest,
  loadTraining,
  prepare,
  ROOT,
  serializeModel,
  sha256,
  trainModel,
} from '../../tools/absa/index.js';

const shipped = (vertical: string) => readFileSync(fileURLToPath(modelUrl(vertical)), 'utf8');

describe('shipped model provenance', () => {
  for (const vertical of Object.keys(CONFIGS)) {
    it(`${vertical}: records the engine version and the sha256 of its training data and lexicons`, () => {
      const model = ModelFile.parse(JSON.parse(shipped(vertical)));
      assert.equal(model.engine, ENGINE_VERSION);
      assert.equal(model.vertical, vertical);
      const config = CONFIGS[vertical];
      assert.deepEqual(
        model.training.files.map((f) => f.path),
        [...config.files, ...config.polarityFiles.map((f) => f.path)],
      );
      for (const f of model.training.files) assert.equal(f.sha256, sha256(readFileSync(`${ROOT}${f.path}`)), f.path);
      assert.equal(model.training.sha256, sha256(model.training.files.map((f) => f.sha256).join('\n')));
      assert.equal(model.training.lexicon_sha256, lexiconDigest(vertical));
      // Only data vendored in the project trains: no path outside data/absa, no evaluation set.
      for (const f of model.training.files) assert.match(f.path, /^data\/absa\/[a-z_-]+\/train\.xml$/);
    });
  }
});

describe('training is reproducible', () => {
  for (const vertical of Object.keys(CONFIGS)) {
    it(`${vertical}: retraining from data/absa gives the shipped file byte for byte`, () => {
      const config = CONFIGS[vertical];
      const { sentences, extra, files } = loadTraining(config);
      assert.equal(serializeModel(trainModel(config, prepare(vertical, sentences), extra, files)), shipped(vertical));
    });
  }

  it('the seed decides the result: same seed, same bytes; another seed, other weights', () => {
    const config = CONFIGS.senior_living;
    const { sentences, files } = loadTraining(config);
    const prepared = prepare('senior_living', sentences.slice(0, 150));
    const train = (seed: number) =>
      serializeModel(
        trainModel(config, prepared, [], files, {
          category: { ...DEFAULT_CATEGORY, seed, epochs: 5 },
          polarity: { ...DEFAULT_POLARITY, ...config.polarityTrain, seed, epochs: 5 },
        }),
      );
    assert.equal(train(DEFAULT_TRAIN.seed), train(DEFAULT_TRAIN.seed));
    assert.notEqual(train(DEFAULT_TRAIN.seed), train(DEFAULT_TRAIN.seed + 1));
  });
});

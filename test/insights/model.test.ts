// The shipped weights: each model file names the data it was trained on (sha256 of every file, the lexicons
// its features read, the engine version), and training again from the project's own data gives the same bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  compileModel,
  decodeModel,
  ENGINE_VERSION,
  encodeModel,
  ModelFile,
  modelUrl,
  modelWeightsUrl,
  sigmoidProbabilities,
  TRAINED_VERTICALS,
  weightTable,
} from '../../src/insights/index.js';
import {
  CONFIGS,
  DEFAULT_CATEGORY,
  DEFAULT_MLP,
  DEFAULT_POLARITY,
  DEFAULT_TRAIN,
  lexiconDigest,
  loadTraining,
  prepare,
  ROOT,
  serializeModel,
  sha256,
  trainedPaths,
  trainMlp,
  trainMlpMean,
  trainModel,
} from '../../tools/absa/index.js';

const shipped = (vertical: string) => readFileSync(fileURLToPath(modelUrl(vertical)), 'utf8');
/** The form of the model the engine loads. */
const shippedWeights = (vertical: string) => readFileSync(fileURLToPath(modelWeightsUrl(vertical)));

describe('shipped model provenance', () => {
  it('the engine loads a model for every vertical the trainer trains, and no other', () => {
    assert.deepEqual([...TRAINED_VERTICALS].sort(), Object.keys(CONFIGS).sort());
  });

  for (const vertical of Object.keys(CONFIGS)) {
    it(`${vertical}: records the engine version and the sha256 of its training data and lexicons`, () => {
      const model = ModelFile.parse(JSON.parse(shipped(vertical)));
      assert.equal(model.engine, ENGINE_VERSION);
      assert.equal(model.vertical, vertical);
      const config = CONFIGS[vertical];
      assert.deepEqual(
        model.training.files.map((f) => f.path),
        trainedPaths(config),
      );
      for (const f of model.training.files) assert.equal(f.sha256, sha256(readFileSync(`${ROOT}${f.path}`)), f.path);
      assert.equal(model.training.sha256, sha256(model.training.files.map((f) => f.sha256).join('\n')));
      assert.equal(model.training.lexicon_sha256, lexiconDigest(vertical));
      // Only data vendored in the project trains: no path outside data/absa, never the held-out fresh16.xml to
      // fresh19.xml, nor pending.xml or restaurant/written.xml (the former dev and test splits train since 2.6.0, the
      // former fresh.xml to fresh3.xml since 2.11.0, fresh4.xml to fresh11.xml since 2.15.0, fresh12.xml to fresh15.xml
      // since 2.16.0; MAMS's own test split never does).
      // untrained.xml and contrast.xml train the category model only (2.14.0).
      const firstCategoryOnly = model.training.files.length - config.categoryOnlyFiles.length;
      for (const f of model.training.files.slice(0, firstCategoryOnly))
        assert.match(
          f.path,
          /^data\/absa\/(home_services|senior_living)\/(train|dev|test|fresh|fresh[2-9]|fresh1[0-5])\.xml$|^data\/absa\/mams-acsa\/train\.xml$/,
        );
      for (const f of model.training.files.slice(firstCategoryOnly))
        assert.match(f.path, new RegExp(`^data/absa/${vertical}/(untrained|contrast)\\.xml$`));
    });
  }
});

describe('the weights the engine loads (<vertical>.bin)', () => {
  /** Every weight of a table by feature name, as the engine reads it. */
  const rowsOf = (t: { width: number; rows: Map<string, number>; data: Float64Array }) =>
    new Map([...t.rows].map(([name, at]) => [name, [...t.data.subarray(at, at + t.width)]]));
  /** The rest of a loaded model (its tables left out). */
  const withoutTables = (m: ReturnType<typeof compileModel>) =>
    JSON.stringify(m, (key, value) => (key === 'weights' || key === 'input' ? undefined : value));
  const tablesOf = (m: ReturnType<typeof compileModel>) =>
    [m.category?.weights, m.category?.mlp?.input, m.polarity?.weights, m.polarity?.mlp?.input].map((t) => t && rowsOf(t));

  for (const vertical of Object.keys(CONFIGS)) {
    it(`${vertical}: is the JSON file's model, byte for byte, and loads as the same numbers`, () => {
      const file = ModelFile.parse(JSON.parse(shipped(vertical)));
      const bytes = shippedWeights(vertical);
      assert.ok(encodeModel(file).equals(bytes), `${vertical}.bin is not the encoding of ${vertical}.json`);
      const { header, model } = decodeModel(bytes);
      // The training record travels with the weights.
      assert.deepEqual(header.training, file.training);
      const json = compileModel(file);
      assert.deepEqual(tablesOf(model), tablesOf(json));
      assert.deepEqual(withoutTables(model), withoutTables(json), 'thresholds, classes, options and perceptron outputs');
    });
  }

  it('refuses weights it cannot hold exactly, and a file that is not one', () => {
    const file = ModelFile.parse(JSON.parse(shipped('restaurant')));
    const polarity = file.polarity!;
    const withBias = (bias: number[]) => ({ ...file, polarity: { ...polarity, weights: { ...polarity.weights, bias } } });
    assert.throws(() => encodeModel(withBias([0.12345, 0, 0])), /not a 32-bit multiple of 1\/10000/);
    assert.throws(() => encodeModel(withBias([300_000, 0, 0])), /not a 32-bit multiple/);
    assert.throws(() => encodeModel(withBias([1, 2])), /2 numbers, not 3/);
    // Exact at 4 decimals, negative and zero included: each reads back as the same number.
    const exact = [-0.0001, 123.4567, 0];
    assert.deepEqual(rowsOf(decodeModel(encodeModel(withBias(exact))).model.polarity!.weights).get('bias'), exact);
    const bytes = encodeModel(file);
    assert.throws(() => decodeModel(Buffer.from('{"format":1}')), /not a weights file/);
    assert.throws(() => decodeModel(bytes.subarray(0, bytes.length - 4)), /bytes, not/);
    assert.throws(() => decodeModel(bytes.subarray(0, 100)), /a header of \d+ bytes in a file of 100/);
    const header = JSON.parse(bytes.toString('utf8', 8, 8 + bytes.readUInt32LE(4)));
    header.polarity.weights[1] = header.polarity.weights[0];
    const json = Buffer.from(JSON.stringify(header));
    const twice = Buffer.concat([
      bytes.subarray(0, 8),
      json,
      Buffer.alloc(((8 + json.length + 3) & ~3) - 8 - json.length),
      bytes.subarray((8 + bytes.readUInt32LE(4) + 3) & ~3),
    ]);
    twice.writeUInt32LE(json.length, 4);
    assert.throws(() => decodeModel(twice), /a feature listed twice in polarity/);
  });
});

describe('training is reproducible', () => {
  for (const vertical of Object.keys(CONFIGS)) {
    it(`${vertical}: retraining from data/absa gives the shipped file byte for byte`, () => {
      const config = CONFIGS[vertical];
      const training = loadTraining(config);
      const model = trainModel(config, prepare(vertical, training.sentences), training);
      assert.equal(serializeModel(model), shipped(vertical));
      assert.ok(encodeModel(model).equals(shippedWeights(vertical)), `${vertical}.bin differs from what training gives`);
    });
  }

  it('the seed decides the result: same seed, same bytes; another seed, other weights', () => {
    const config = CONFIGS.senior_living;
    const { sentences, files } = loadTraining(config);
    const prepared = prepare('senior_living', sentences.slice(0, 150));
    const train = (seed: number) =>
      serializeModel(
        trainModel(
          config,
          prepared,
          { polarityOnly: [], categoryOnly: [], files },
          {
            category: { ...DEFAULT_CATEGORY, seed, epochs: 5 },
            polarity: { ...DEFAULT_POLARITY, ...config.polarityTrain, seed, epochs: 5 },
          },
        ),
      );
    assert.equal(train(DEFAULT_TRAIN.seed), train(DEFAULT_TRAIN.seed));
    assert.notEqual(train(DEFAULT_TRAIN.seed), train(DEFAULT_TRAIN.seed + 1));
  });

  it('category-only sentences change the category model and leave the polarity model as it was', () => {
    const config = CONFIGS.senior_living;
    const { sentences, categoryOnly, files } = loadTraining(config);
    const prepared = prepare('senior_living', sentences.slice(0, 150));
    const opts = {
      category: { ...DEFAULT_CATEGORY, epochs: 5 },
      polarity: { ...DEFAULT_POLARITY, ...config.polarityTrain, epochs: 5 },
    };
    const train = (only: typeof categoryOnly) => trainModel(config, prepared, { polarityOnly: [], categoryOnly: only, files }, opts);
    const without = train([]);
    const withThem = train(categoryOnly.slice(0, 60));
    assert.deepEqual(withThem.polarity, without.polarity);
    assert.notDeepEqual(withThem.category, without.category);
  });
});

describe('the perceptron mixed into the category model', () => {
  // Exclusive or: no linear model over these two flags separates it; one hidden layer does.
  const xor = [
    { names: ['bias'], y: 0 },
    { names: ['bias', 'a'], y: 1 },
    { names: ['bias', 'b'], y: 1 },
    { names: ['bias', 'a', 'b'], y: 0 },
  ];
  const examples = Array.from({ length: 50 }, () => xor)
    .flat()
    .map((e) => ({ f: { names: e.names, values: e.names.map(() => 1) }, target: () => e.y }));
  // The trained perceptron as the engine holds it, scoring alone (no logistic weights, all its share).
  const NO_WEIGHTS = weightTable(1, []);
  const alone = (m: ReturnType<typeof trainMlp>) => ({ mix: 1, input: weightTable(m.output.length - 1, m.input), output: m.output });
  const train = (seed: number) => trainMlp(examples, 1, 'sigmoid', { ...DEFAULT_MLP, hidden: 4, minCount: 1, epochs: 40, rate: 0.3, seed });

  it("learns a decision no linear model can, read through the engine's own scoring", () => {
    const mlp = train(DEFAULT_MLP.seed);
    for (const e of xor) {
      const [p] = sigmoidProbabilities(NO_WEIGHTS, alone(mlp), { names: e.names, values: e.names.map(() => 1) });
      if (e.y === 1) assert.ok(p > 0.8, `${e.names.join('+')}: ${p}`);
      else assert.ok(p < 0.2, `${e.names.join('+')}: ${p}`);
    }
  });

  it('as the mean of several runs, scores the mean of their logits', () => {
    const logit = (p: number) => Math.log(p / (1 - p));
    const read = (m: ReturnType<typeof train>, names: string[]) =>
      logit(sigmoidProbabilities(NO_WEIGHTS, alone(m), { names, values: names.map(() => 1) })[0]);
    const opts = { ...DEFAULT_MLP, hidden: 4, minCount: 1, epochs: 40, rate: 0.3, seed: DEFAULT_MLP.seed };
    const mean = trainMlpMean(examples, 1, 'sigmoid', { ...opts, runs: 3 });
    assert.equal(mean.output.length, 3 * 4 + 1);
    const runs = [0, 1, 2].map((r) => train(DEFAULT_MLP.seed + r));
    for (const e of xor) {
      const expected = runs.reduce((sum, m) => sum + read(m, e.names), 0) / 3;
      // Output rows are rounded to 4 decimals after the division: 13 of them, each off by at most 5e-5.
      assert.ok(Math.abs(read(mean, e.names) - expected) < 1e-3, `${e.names.join('+')}: ${read(mean, e.names)} vs ${expected}`);
    }
    assert.deepEqual(trainMlpMean(examples, 1, 'sigmoid', { ...opts, runs: 1 }), train(DEFAULT_MLP.seed));
  });

  it('is deterministic: same seed, same weights; another seed, other weights', () => {
    const flat = (m: ReturnType<typeof train>) => JSON.stringify([[...m.input].map(([k, v]) => [k, [...v]]), m.output.map((r) => [...r])]);
    assert.equal(flat(train(DEFAULT_MLP.seed)), flat(train(DEFAULT_MLP.seed)));
    assert.notEqual(flat(train(DEFAULT_MLP.seed)), flat(train(DEFAULT_MLP.seed + 1)));
  });
});

describe('a loaded model', () => {
  it('holds each row where its feature name points, and scores by it', () => {
    const table = weightTable(2, [
      ['bias', [0.5, -1]],
      ['good', [2, 0.25]],
    ]);
    assert.deepEqual(
      [...table.rows],
      [
        ['bias', 0],
        ['good', 2],
      ],
    );
    // Unknown names add nothing; each known one adds its row times its value.
    const [p, q] = sigmoidProbabilities(table, null, { names: ['bias', 'unknown', 'good'], values: [1, 9, 0.5] });
    assert.equal(p, 1 / (1 + Math.exp(-1.5)));
    assert.equal(q, 1 / (1 + Math.exp(0.875)));
  });

  it('refuses weights of the wrong shape rather than scoring NaN', () => {
    assert.throws(() => weightTable(2, [['bias', [1]]]), /weights of bias: 1 numbers, not 2/);
    assert.throws(
      () =>
        weightTable(1, [
          ['a', [1]],
          ['a', [2]],
        ]),
      /weights of a: listed twice/,
    );
    const file = ModelFile.parse(JSON.parse(readFileSync(modelUrl('home_services'), 'utf8')));
    const withWeights = (weights: unknown) => ({ ...file, polarity: { ...file.polarity!, weights } });
    for (const weights of [{ bias: [1, '2', 3] }, { bias: 1 }, [[1, 2, 3]], null])
      assert.throws(() => ModelFile.parse(withWeights(weights)), /feature names to arrays of numbers/, JSON.stringify(weights));
    assert.doesNotThrow(() => ModelFile.parse(withWeights({ bias: [1, 2, 3] })));
    const mlp = file.category!.mlp!;
    assert.throws(
      () => compileModel({ ...file, category: { ...file.category!, mlp: { ...mlp, output: mlp.output.slice(1) } } }),
      /perceptron output/,
    );
  });
});

// The form of a model the engine loads: the model file's fields as a JSON header with each weight table's rows
// replaced by their names, then every row's numbers as 32-bit integers (a weight times SCALE: the trainer rounds
// them to 4 decimals). The JSON file stays the record that diffs by feature; this one is made from it by
// `npm run train:absa`. Parsing the JSON's 3 million numbers took a process that analyses 0.45 s.
import { existsSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import {
  assembleModel,
  type Model,
  type ModelFile,
  ModelHeader,
  modelWeightsUrl,
  type TableKey,
  tableLayout,
  type WeightTable,
} from './model.js';

const MAGIC = 'RCW1';
/** The weights' fixed point: each is an integer number of 1/SCALE. */
const SCALE = 10_000;

const cache = new Map<string, Model | null>();

/** The shipped model of a vertical, or null when it has none (the lexicon engine alone then decides). */
export function loadModel(vertical: string): Model | null {
  if (cache.has(vertical)) return cache.get(vertical) ?? null;
  const url = modelWeightsUrl(vertical);
  const model = existsSync(url) ? decodeModel(readFileSync(url)).model : null;
  cache.set(vertical, model);
  return model;
}

/** The binary form of `file`; throws if a weight is not a whole number of 1/SCALE that fits 32 bits. */
export function encodeModel(file: ModelFile): Buffer {
  const layout = tableLayout(file);
  // Parsed, so its keys come in the schema's order with defaults filled: a file as trained and as read
  // back from its JSON give the same bytes.
  const header = ModelHeader.parse({
    ...file,
    category: file.category && { ...file.category, weights: Object.keys(file.category.weights), mlp: names(file.category.mlp) },
    polarity: file.polarity && { ...file.polarity, weights: Object.keys(file.polarity.weights), mlp: names(file.polarity.mlp) },
  });
  const json = Buffer.from(JSON.stringify(header));
  const start = align4(8 + json.length);
  const count = layout.reduce((n, t) => n + Object.keys(t.rows).length * t.width, 0);
  const out = Buffer.alloc(start + count * 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  let at = start;
  for (const { key, rows, width } of layout)
    for (const [name, row] of Object.entries(rows)) {
      if (row.length !== width) throw new Error(`weights of ${name} (${key}): ${row.length} numbers, not ${width}`);
      for (const w of row) {
        const q = Math.round(w * SCALE);
        if (q / SCALE !== w || q > 0x7fffffff || q < -0x80000000)
          throw new Error(`weight ${w} of ${name} (${key}) is not a 32-bit multiple of 1/${SCALE}`);
        out.writeInt32LE(q, at);
        at += 4;
      }
    }
  return out;
}

/** The model in `bytes` (encodeModel's form), and its header (the training record, the row names). */
export function decodeModel(bytes: Buffer): { header: ModelHeader; model: Model } {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC) throw new Error('model weights: not a weights file of this engine');
  const length = bytes.readUInt32LE(4);
  const header = ModelHeader.parse(JSON.parse(bytes.toString('utf8', 8, 8 + length)));
  // Each table's first number, in the layout's order.
  const offsets = new Map<TableKey, number>();
  let count = 0;
  for (const t of tableLayout(header)) {
    offsets.set(t.key, count);
    count += t.rows.length * t.width;
  }
  const start = align4(8 + length);
  if (bytes.length !== start + count * 4) throw new Error(`model weights: ${bytes.length} bytes, not ${start + count * 4}`);
  // A copy of its own (a Buffer's memory may start anywhere in its ArrayBuffer; an Int32Array needs 4-byte alignment), little-endian.
  const ints = Uint8Array.prototype.slice.call(bytes, start);
  if (endianness() === 'BE') Buffer.from(ints.buffer).swap32();
  const fixed = new Int32Array(ints.buffer, 0, count);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = fixed[i] / SCALE;
  const table = (rows: string[], width: number, key: TableKey): WeightTable => {
    const from = offsets.get(key)!;
    const map = new Map(rows.map((name, i) => [name, i * width]));
    if (map.size !== rows.length) throw new Error(`model weights: a feature listed twice in ${key}`);
    return { width, rows: map, data: values.subarray(from, from + rows.length * width) };
  };
  return { header, model: assembleModel(header, table) };
}

const names = <M extends { input: Record<string, number[]> }>(m: M | null) => m && { ...m, input: Object.keys(m.input) };
const align4 = (n: number) => (n + 3) & ~3;

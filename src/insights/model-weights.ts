// The form of a model the engine loads (model/<vertical>.bin): the model file's fields with each weight table's
// rows replaced by their names, then every weight as a whole number of 1/SCALE. The JSON file stays the record
// that diffs by feature; this one is made from the same model by `npm run train:absa`. Parsing the JSON's 3
// million numbers took every process that analyses 0.45 s.
//
// File layout (little-endian): "RCW1", uint32 byte length of the header (UTF-8 JSON, ModelHeader), zero padding
// to a multiple of 4, then int32 weights times SCALE, the tables in tableLayout's order, each row after row.
import { readFileSync } from 'node:fs';
import {
  assembleModel,
  type Model,
  type ModelFile,
  ModelHeader,
  mapTables,
  modelWeightsUrl,
  type TableKey,
  TRAINED_VERTICALS,
  tableLayout,
  type WeightTable,
} from './model.js';

const MAGIC = 'RCW1';
/**
 * The weights' fixed point: each is a whole number of 1/SCALE. The trainer rounds to 4 decimals (its `decimals`
 * option); rounding to more would make encodeModel refuse the model.
 */
const SCALE = 10_000;

const cache = new Map<string, Model | null>();

/**
 * The shipped model of a vertical, or null for one that has none (the lexicon engine alone then decides). A
 * trained vertical's missing file throws: the engine would otherwise run on the lexicon without a word.
 */
export function loadModel(vertical: string): Model | null {
  if (cache.has(vertical)) return cache.get(vertical) ?? null;
  const trained = (TRAINED_VERTICALS as readonly string[]).includes(vertical);
  const model = trained ? decodeModel(readFileSync(modelWeightsUrl(vertical))).model : null;
  cache.set(vertical, model);
  return model;
}

/** The binary form of `file`; throws if a weight is not a whole number of 1/SCALE that fits 32 bits. */
export function encodeModel(file: ModelFile): Buffer {
  const layout = tableLayout(file);
  // Parsed, so its keys come in the schema's order with defaults filled: a file as trained and as read
  // back from its JSON give the same bytes.
  const header = ModelHeader.parse({ ...file, ...mapTables(file, (rows) => Object.keys(rows)) });
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
  if (8 + length > bytes.length) throw new Error(`model weights: a header of ${length} bytes in a file of ${bytes.length}`);
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
  const fixed = new DataView(bytes.buffer, bytes.byteOffset + start, count * 4);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) values[i] = fixed.getInt32(i * 4, true) / SCALE;
  const table = (rows: string[], width: number, key: TableKey): WeightTable => {
    const from = offsets.get(key)!;
    const map = new Map(rows.map((name, i) => [name, i * width]));
    if (map.size !== rows.length) throw new Error(`model weights: a feature listed twice in ${key}`);
    return { width, rows: map, data: values.subarray(from, from + rows.length * width) };
  };
  return { header, model: assembleModel(header, table) };
}

const align4 = (n: number) => (n + 3) & ~3;

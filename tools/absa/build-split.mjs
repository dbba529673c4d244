#!/usr/bin/env node
// Validates the hand-written ABSA batch files of one vertical and splits them into train/dev.
//
//   node tools/absa/build-split.mjs <vertical> --staging DIR [--extra DIR]... [--test FILE] [--out DIR]
//
// Reads   <staging>/<vertical>/batch-*.xml   (the writers' batch files; they are not part of the project)
//         --extra DIR: DIR/batch-*.xml, later batches that all go to train (so dev stays as it was)
//         --test FILE: an independent held-out split from another writer, validated and written as
//         test.xml; its sentences are never printed (only counts), so reading the report leaks nothing
// Writes  <out>/<vertical>/train.xml and dev.xml (and test.xml) (default out: the project's data/absa)
// Prints  sentences per split, labels per aspect x polarity per split, share of sentences with no aspect.
//
// The aspect ids of a vertical are read from the "## <vertical> aspect ids" table of GUIDELINES.md in
// the output folder, so the list is never written twice. Only Node built-ins: the batch files have one
// fixed shape, so a strict hand-rolled scanner is enough and rejects anything outside that shape.
// The split is deterministic: sha256(id) first byte < 77 (about 30%) goes to dev, the rest to train.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const POLARITIES = ['positive', 'negative', 'neutral', 'conflict'];
const DEV_BYTE_LIMIT = 77;

function parseArgs(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  const opts = { vertical: null, staging: null, extra: [], test: null, out: resolve(here, '../../data/absa') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--staging') opts.staging = resolve(argv[++i] ?? '');
    else if (a === '--extra') opts.extra.push(resolve(argv[++i] ?? ''));
    else if (a === '--test') opts.test = resolve(argv[++i] ?? '');
    else if (a === '--out') opts.out = resolve(argv[++i] ?? '');
    else if (!a.startsWith('--') && !opts.vertical) opts.vertical = a;
    else fail(`unknown argument: ${a}`);
  }
  if (!opts.vertical || !/^[a-z_]+$/.test(opts.vertical) || !opts.staging)
    fail('usage: node tools/absa/build-split.mjs <vertical> --staging DIR [--extra DIR]... [--test FILE] [--out DIR]');
  return opts;
}

function fail(msg) {
  console.error(msg);
  process.exit(1);
}

// Aspect ids from the guidelines table: rows "| id | covers |" under "## <vertical> aspect ids".
function aspectIds(guidelinesPath, vertical) {
  if (!existsSync(guidelinesPath)) fail(`cannot find ${guidelinesPath} (aspect list source)`);
  const lines = readFileSync(guidelinesPath, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${vertical} aspect ids`);
  if (start < 0) fail(`no "## ${vertical} aspect ids" section in ${guidelinesPath}`);
  const ids = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    const m = /^\|\s*([a-z_]+)\s*\|/.exec(lines[i]);
    if (m && m[1] !== 'id') ids.push(m[1]);
  }
  if (ids.length === 0) fail(`empty aspect table for ${vertical} in ${guidelinesPath}`);
  return ids;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(raw, where) {
  if (raw.includes('<')) throw new Error(`${where}: raw "<" in text`);
  return raw.replace(/&([^;\s]*);?/g, (whole, name) => {
    if (!whole.endsWith(';')) throw new Error(`${where}: bare "&" in text`);
    if (name in ENTITIES) return ENTITIES[name];
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (num) return String.fromCodePoint(num[1][0] === 'x' ? parseInt(num[1].slice(1), 16) : parseInt(num[1], 10));
    throw new Error(`${where}: unknown entity &${name};`);
  });
}

function escapeXml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Strict scanner for the fixed batch shape. Returns [{ id, text, labels: [{category, polarity}] }].
function parseBatch(xml, file, vertical) {
  let pos = 0;
  const lineAt = (p) => xml.slice(0, p).split('\n').length;
  const err = (msg) => new Error(`${file}:${lineAt(pos)}: ${msg}`);
  const skipWs = () => {
    while (pos < xml.length && /\s/.test(xml[pos])) pos++;
    if (xml.startsWith('<!--', pos)) {
      const end = xml.indexOf('-->', pos);
      if (end < 0) throw err('unterminated comment');
      pos = end + 3;
      skipWs();
    }
  };
  const expect = (re, what) => {
    re.lastIndex = pos;
    const m = re.exec(xml);
    if (!m || m.index !== pos) throw err(`expected ${what}, found ${JSON.stringify(xml.slice(pos, pos + 40))}`);
    pos += m[0].length;
    return m;
  };

  if (xml.charCodeAt(0) === 0xfeff) pos = 1;
  skipWs();
  expect(/<\?xml version="1\.0" encoding="UTF-8"\?>/gy, 'XML declaration');
  skipWs();
  const root = expect(/<sentences vertical="([a-z_]+)"(?: split="test")?>/gy, '<sentences vertical="...">');
  if (root[1] !== vertical) throw err(`root vertical "${root[1]}" is not "${vertical}"`);

  const out = [];
  for (;;) {
    skipWs();
    if (xml.startsWith('</sentences>', pos)) {
      pos += '</sentences>'.length;
      break;
    }
    const id = expect(/<sentence id="([^"<>&]+)">/gy, '<sentence id="..."> or </sentences>')[1];
    skipWs();
    const rawText = expect(/<text>([^<]*)<\/text>/gy, '<text>...</text>')[1];
    const text = decodeText(rawText, `${file}:${lineAt(pos)} (${id})`).trim();
    if (!text) throw err(`${id}: empty text`);
    skipWs();
    const labels = [];
    if (xml.startsWith('<aspectCategories/>', pos)) pos += '<aspectCategories/>'.length;
    else {
      expect(/<aspectCategories>/gy, '<aspectCategories> or <aspectCategories/>');
      for (;;) {
        skipWs();
        if (xml.startsWith('</aspectCategories>', pos)) {
          pos += '</aspectCategories>'.length;
          break;
        }
        const m = expect(
          /<aspectCategory category="([^"<>&]*)" polarity="([^"<>&]*)"\s*\/>/gy,
          '<aspectCategory category="..." polarity="..."/>',
        );
        labels.push({ category: m[1], polarity: m[2] });
      }
      if (labels.length === 0) throw err(`${id}: <aspectCategories> with no children (use <aspectCategories/>)`);
    }
    skipWs();
    expect(/<\/sentence>/gy, '</sentence>');
    out.push({ id, text, labels, file });
  }
  skipWs();
  if (pos !== xml.length) throw err('content after </sentences>');
  return out;
}

function validate(sentences, aspects) {
  const errors = [];
  const ids = new Map();
  const texts = new Map();
  for (const s of sentences) {
    if (ids.has(s.id)) errors.push(`${s.file}: duplicate id ${s.id} (also in ${ids.get(s.id)})`);
    else ids.set(s.id, s.file);
    const key = s.text.toLowerCase().replace(/\s+/g, ' ');
    if (texts.has(key)) errors.push(`${s.file}: ${s.id} repeats the text of ${texts.get(key)}${s.heldOut ? '' : `: ${s.text}`}`);
    else texts.set(key, s.id);
    const seen = new Set();
    for (const l of s.labels) {
      if (!aspects.includes(l.category))
        errors.push(`${s.file}: ${s.id}: category "${l.category}" is not a ${aspects.length}-aspect id of this vertical`);
      if (!POLARITIES.includes(l.polarity))
        errors.push(`${s.file}: ${s.id}: polarity "${l.polarity}" is not one of ${POLARITIES.join(', ')}`);
      if (seen.has(l.category)) errors.push(`${s.file}: ${s.id}: category "${l.category}" labelled twice`);
      seen.add(l.category);
    }
  }
  return errors;
}

const isDev = (id) => createHash('sha256').update(id, 'utf8').digest()[0] < DEV_BYTE_LIMIT;
const byId = (a, b) => a.id.localeCompare(b.id, 'en', { numeric: true });

function render(vertical, split, sentences) {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>', `<sentences vertical="${escapeXml(vertical)}" split="${split}">`];
  for (const s of sentences) {
    parts.push(`  <sentence id="${escapeXml(s.id)}">`, `    <text>${escapeXml(s.text)}</text>`);
    if (s.labels.length === 0) parts.push('    <aspectCategories/>');
    else {
      parts.push('    <aspectCategories>');
      for (const l of s.labels) parts.push(`      <aspectCategory category="${escapeXml(l.category)}" polarity="${l.polarity}"/>`);
      parts.push('    </aspectCategories>');
    }
    parts.push('  </sentence>');
  }
  parts.push('</sentences>', '');
  return parts.join('\n');
}

function report(vertical, aspects, splits) {
  const lines = [];
  const pct = (n, d) => `${d ? ((100 * n) / d).toFixed(1) : '0.0'}%`;
  const all = [...splits.train, ...splits.dev, ...splits.test];
  const named = [['train', splits.train], ['dev', splits.dev], ...(splits.test.length ? [['test', splits.test]] : []), ['total', all]];
  lines.push(`vertical: ${vertical}`);
  lines.push(`sentences: ${named.map(([n, l]) => `${n} ${l.length}`).join(', ')}`);
  for (const [name, list] of named) {
    const empty = list.filter((s) => s.labels.length === 0).length;
    const multi = list.filter((s) => s.labels.length > 1).length;
    lines.push(
      `${name.padEnd(5)}: no aspect ${empty}/${list.length} = ${pct(empty, list.length)}; multi-aspect ${multi}/${list.length} = ${pct(multi, list.length)}`,
    );
  }
  const count = (list, aspect) => {
    const c = POLARITIES.map((p) =>
      list.reduce((n, s) => n + s.labels.filter((l) => (aspect === null || l.category === aspect) && l.polarity === p).length, 0),
    );
    return [...c, c.reduce((a, b) => a + b, 0)];
  };
  const cell = (nums) => nums.map((n) => String(n).padStart(4)).join('');
  const head = ' pos neg neu con  all';
  lines.push('', 'labels per aspect x polarity', ''.padEnd(20) + named.map(([n]) => ` | ${n.padEnd(head.length - 1)}`).join(''));
  lines.push('aspect'.padEnd(20) + ` |${head}`.repeat(named.length));
  const row = (label, aspect) =>
    label.padEnd(20) +
    named
      .map(([, l]) => l)
      .map((list) => ` |${cell(count(list, aspect)).slice(0, 16)} ${String(count(list, aspect)[4]).padStart(4)}`)
      .join('');
  for (const a of aspects) lines.push(row(a, a));
  lines.push(row('ALL', null));
  const tot = count(all, null);
  lines.push('', `polarity share (total): ${POLARITIES.map((p, i) => `${p} ${pct(tot[i], tot[4])}`).join(', ')}`);
  return lines.join('\n');
}

function batchFiles(dir) {
  if (!existsSync(dir)) fail(`no staging folder ${dir}`);
  const files = readdirSync(dir)
    .filter((f) => /^batch-\d+\.xml$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (files.length === 0) fail(`no batch-NN.xml files in ${dir}`);
  return files.map((f) => join(dir, f));
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const aspects = aspectIds(join(opts.out, 'GUIDELINES.md'), opts.vertical);
  // Where each sentence goes: the first staging folder splits by hash; --extra folders and --test do not.
  const sources = [
    ...batchFiles(join(opts.staging, opts.vertical)).map((path) => ({ path, split: null })),
    ...opts.extra.flatMap((dir) => batchFiles(dir).map((path) => ({ path, split: 'train' }))),
    ...(opts.test ? [{ path: opts.test, split: 'test' }] : []),
  ];

  const sentences = [];
  const errors = [];
  for (const { path, split } of sources) {
    try {
      const parsed = parseBatch(readFileSync(path, 'utf8'), path, opts.vertical);
      for (const s of parsed) sentences.push({ ...s, split: split ?? (isDev(s.id) ? 'dev' : 'train'), heldOut: split === 'test' });
    } catch (e) {
      errors.push(split === 'test' ? e.message.replace(/found .*$/, '(held-out text not shown)') : e.message);
    }
  }
  // A held-out sentence whose text is already in train or dev would score memory, not skill: it is left out
  // of test.xml and named (by id only) rather than failing the build over another writer's file.
  const textKey = (s) => s.text.toLowerCase().replace(/\s+/g, ' ');
  const seen = new Map(sentences.filter((s) => !s.heldOut).map((s) => [textKey(s), s.id]));
  const leaked = sentences.filter((s) => s.heldOut && seen.has(textKey(s)));
  const kept = sentences.filter((s) => !leaked.includes(s));
  errors.push(...validate(kept, aspects));
  if (errors.length) fail(`${errors.length} problem(s), nothing written:\n${errors.join('\n')}`);
  if (leaked.length)
    console.log(`left out of test.xml, text already in train/dev: ${leaked.map((s) => `${s.id} (= ${seen.get(textKey(s))})`).join(', ')}`);

  const splits = { train: [], dev: [], test: [] };
  for (const s of [...kept].sort(byId)) splits[s.split].push(s);
  const outDir = join(opts.out, opts.vertical);
  mkdirSync(outDir, { recursive: true });
  const written = ['train', 'dev', ...(opts.test ? ['test'] : [])];
  for (const split of written) writeFileSync(join(outDir, `${split}.xml`), render(opts.vertical, split, splits[split]));
  console.log(`read ${sources.length} batch files; wrote ${written.map((s) => join(outDir, `${s}.xml`)).join(', ')}\n`);
  console.log(report(opts.vertical, aspects, splits));
}

main();

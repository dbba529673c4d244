// A vertical's first labelled sets from writers' batch files: train and dev split by a hash of each id, later batches
// to train only, and an independent held-out test file from another writer (how data/absa/*/train.xml, dev.xml and
// test.xml began; data/absa/README.md). Every fault is collected, so one run names them all.
import { createHash } from 'node:crypto';
import type { GoldSentence } from './semeval.js';
import { sentenceFaults } from './sentence-faults.js';

export type SplitName = 'train' | 'dev' | 'test';

export interface SplitSource {
  file: string;
  sentences: GoldSentence[];
  /** Where all of its sentences go; null: train or dev by the hash of each id. */
  split: 'train' | 'test' | null;
}

export interface Splits {
  splits: Record<SplitName, GoldSentence[]>;
  /** Held-out sentences left out of test because their text is already in train or dev, by id. */
  leaked: { id: string; twin: string }[];
  errors: string[];
}

/** About 30 % of ids: the first byte of sha256(id) below 77. Fixed by the id alone, so a re-run splits alike. */
export const isDev = (id: string): boolean => createHash('sha256').update(id, 'utf8').digest()[0] < 77;

const textKey = (s: GoldSentence) => s.text.toLowerCase().replace(/\s+/g, ' ');
const byId = (a: GoldSentence, b: GoldSentence) => a.id.localeCompare(b.id, 'en', { numeric: true });

/**
 * The sources as train, dev and test, each ordered by id. A held-out sentence whose text is already in train or dev
 * would score memory: it is left out and named by id. A held-out sentence's text is never quoted in an error.
 */
export function buildSplits(sources: readonly SplitSource[], aspects: ReadonlySet<string>): Splits {
  const seen = new Map<string, string>();
  for (const { sentences, split } of sources)
    if (split !== 'test') for (const s of sentences) if (!seen.has(textKey(s))) seen.set(textKey(s), s.id);
  const leaked: Splits['leaked'] = [];
  const errors: string[] = [];
  const ids = new Map<string, string>();
  const texts = new Map<string, string>();
  const splits: Splits['splits'] = { train: [], dev: [], test: [] };
  for (const { file, sentences, split } of sources) {
    for (const s of sentences) {
      const heldOut = split === 'test';
      const twin = seen.get(textKey(s));
      if (heldOut && twin !== undefined) {
        leaked.push({ id: s.id, twin });
        continue;
      }
      const where = `${file}: ${s.id}`;
      const first = ids.get(s.id);
      if (first !== undefined) errors.push(`${where}: the id is also in ${first}`);
      else ids.set(s.id, file);
      const same = texts.get(textKey(s));
      if (same !== undefined) errors.push(`${where}: repeats the text of ${same}${heldOut ? '' : `: ${s.text}`}`);
      else texts.set(textKey(s), s.id);
      errors.push(...sentenceFaults(s, aspects).map((fault) => `${where}: ${fault}`));
      splits[split ?? (isDev(s.id) ? 'dev' : 'train')].push(s);
    }
  }
  for (const list of Object.values(splits)) list.sort(byId);
  return { splits, leaked, errors };
}

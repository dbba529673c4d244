// A new labelled set from writers' batch files, by the rule every held-out set and training addition since
// fresh.xml was assembled by (data/absa/README.md): each batch is checked whole, and a sentence sharing half its
// words with any sentence of the project, or with one kept before it in the new set, is left out unread.
import { nearTwins } from './near-twins.js';
import type { GoldSentence } from './semeval.js';

export interface Batch {
  /** The batch's name, which prefixes each of its ids (`hss-a` → `hss-a-001`, …). */
  name: string;
  sentences: GoldSentence[];
}

export interface Assembled {
  /** The sentences kept, in batch order. */
  kept: GoldSentence[];
  /** Per batch: sentences written and sentences left out as near twins. */
  batches: { name: string; written: number; leftOut: number }[];
}

/** Throws on the first sentence that breaks the batches' shape, naming its batch, its id and why. */
function validate(batches: readonly Batch[], aspects: ReadonlySet<string>): void {
  const names = new Set<string>();
  for (const { name, sentences } of batches) {
    if (names.has(name)) throw new Error(`batch ${name}: named twice`);
    names.add(name);
    const ids = new Set<string>();
    for (const s of sentences) {
      const where = `batch ${name}, sentence ${s.id}`;
      if (!s.id.startsWith(`${name}-`)) throw new Error(`${where}: its id does not start with "${name}-"`);
      if (ids.has(s.id)) throw new Error(`${where}: the id is used twice`);
      ids.add(s.id);
      if (s.text.trim() === '') throw new Error(`${where}: no text`);
      const seen = new Set<string>();
      for (const { category } of s.categories) {
        if (!aspects.has(category)) throw new Error(`${where}: "${category}" is not an aspect of the vertical`);
        if (seen.has(category)) throw new Error(`${where}: "${category}" is labelled twice`);
        seen.add(category);
      }
    }
  }
}

/**
 * The batches as one set: validated against the vertical's `aspects`, then each sentence kept unless it is a near
 * twin of a sentence of `project` or of a sentence kept before it. Two joins find every twin (nearTwins indexes each
 * side once), so a set of a few hundred sentences against the whole project takes seconds.
 */
export function assembleSet(batches: readonly Batch[], aspects: ReadonlySet<string>, project: readonly GoldSentence[]): Assembled {
  validate(batches, aspects);
  const written = batches.flatMap((b) => b.sentences);
  const twinOfProject = new Set(nearTwins(written, project).map((t) => t.id));
  // Within the set, by position: ids are unique per batch and batch names unique, but positions need no such care.
  const byPosition = written.map((s, i) => ({ ...s, id: String(i) }));
  const earlierTwins = new Map<number, number[]>();
  for (const { id, twin } of nearTwins(byPosition, byPosition)) {
    const [i, j] = [Number(id), Number(twin)];
    if (j < i) earlierTwins.set(i, [...(earlierTwins.get(i) ?? []), j]);
  }
  const kept = new Array<boolean>(written.length).fill(false);
  written.forEach((s, i) => {
    kept[i] = !twinOfProject.has(s.id) && !(earlierTwins.get(i) ?? []).some((j) => kept[j]);
  });
  let at = 0;
  return {
    kept: written.filter((_, i) => kept[i]),
    batches: batches.map(({ name, sentences }) => {
      const from = at;
      at += sentences.length;
      return { name, written: sentences.length, leftOut: kept.slice(from, at).filter((k) => !k).length };
    }),
  };
}
